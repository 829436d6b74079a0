"""Admission and the daily writing limit, by X's published rules (overview.md, 2026-03-05)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pipeline.desk.episode import Submission
from pipeline.desk.standing import standing_of, writing_limit

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
HELPFUL, NOT_HELPFUL, NMR = (
    "currently_rated_helpful",
    "currently_rated_not_helpful",
    "needs_more_ratings",
)


def note(
    status: str | None = NMR,
    *,
    days_ago: float = 1,
    test_mode: bool = False,
    buckets: dict[str, str] | None = None,
) -> Submission:
    return Submission(
        episode_id=1,
        post_id="1",
        note_id="1",
        test_mode=test_mode,
        classification="not_misleading",
        submitted_by="mod",
        status=status,
        submitted_at=NOW - timedelta(days=days_ago),
        evaluator_outcomes=[
            {"evaluator_type": kind, "evaluator_score_bucket": bucket}
            for kind, bucket in (buckets or {}).items()
        ],
    )


def test_a_new_writer_writes_ten_a_day() -> None:
    assert writing_limit([note() for _ in range(19)], NOW)[0] == 10


def test_not_helpful_notes_cut_the_limit() -> None:
    rated = [note(NOT_HELPFUL) for _ in range(3)] + [note(HELPFUL) for _ in range(40)]
    assert writing_limit(rated, NOW) == (5, "3 of the last 5 rated notes were not helpful")
    # notes still needing ratings do not count among the last 5 or 10
    assert writing_limit([note(NMR), *rated], NOW)[0] == 5
    worst = [note(NOT_HELPFUL) for _ in range(8)] + [note(HELPFUL) for _ in range(2)]
    assert writing_limit(worst, NOW)[0] == 2


@pytest.mark.parametrize(
    ("helpful", "not_helpful", "total", "expected"),
    [
        # 100 notes over the last 30 days: DN_30 = 3.33, so at most floor(16.67) = 16;
        # the last 20 notes need ratings: HR_R = 0
        (22, 10, 100, 16),  # HR_L 0.12: WL_L = 50 + 3000 * 0.02 = 110, capped by volume
        (4, 1, 100, 9),  # HR_L 0.03 < 0.05: WL_L = 300 * 0.03 = 9
        (1, 1, 100, 5),  # HR 0: WL_L 0, never under 5
    ],
)
def test_the_limit_follows_the_hit_rate(
    helpful: int, not_helpful: int, total: int, expected: int
) -> None:
    # newest first: notes still needing ratings (the recent hit rate is 0), then the helpful,
    # then the not helpful ones, all within 30 days
    unrated = total - helpful - not_helpful
    notes = [note(NMR, days_ago=1 + i / 10) for i in range(unrated)]
    notes += [note(HELPFUL, days_ago=15 + i / 100) for i in range(helpful)]
    notes += [note(NOT_HELPFUL, days_ago=25 + i / 100) for i in range(not_helpful)]
    assert writing_limit(notes, NOW)[0] == expected


def test_too_few_ratings_leave_a_note_out_of_the_fourteen_day_hit_rate() -> None:
    """X's 14-day hit rate leaves out `minimum_ratings_not_met` (REFERENCE.md): 2 helpful
    notes and 78 with too few ratings in 14 days are a hit rate of 1, not 2/80."""
    notes = [note(NMR, days_ago=1 + i / 100) for i in range(20)]  # the recent rate: 0
    notes += [note(HELPFUL, days_ago=2 + i / 100) for i in range(2)]
    notes += [note("minimum_ratings_not_met", days_ago=3 + i / 10) for i in range(78)]
    notes += [note(NMR, days_ago=15 + i / 10) for i in range(100)]
    # 200 notes in 30 days cap it at floor(200 / 30 * 5) = 33; counted, they made it 7
    assert writing_limit(notes, NOW)[0] == 33
    # a note X asks raters to help with is not rated yet: not among the last 5 rated
    rated = [note(NOT_HELPFUL) for _ in range(3)] + [note(HELPFUL) for _ in range(40)]
    assert writing_limit([note("needs_your_help") for _ in range(3)] + rated, NOW)[0] == 5


def test_admission_is_judged_on_the_last_fifty_test_notes() -> None:
    good = {"ClaimOpinion": "High", "UrlValidity": "High", "HarassmentAbuse": "High"}
    notes = [note(test_mode=True, days_ago=i / 100, buckets=good) for i in range(50)]
    # older than the window: lows that no longer count
    notes += [
        note(test_mode=True, days_ago=5, buckets={**good, "ClaimOpinion": "Low"}) for _ in range(40)
    ]
    standing = standing_of(notes, NOW)
    assert standing.test_notes == 50 and standing.looks_admitted
    one_dead_link = [*notes[:3], note(test_mode=True, buckets={**good, "UrlValidity": "Low"})]
    standing = standing_of(one_dead_link, NOW)
    assert not standing.looks_admitted  # 75% UrlValidity high, under 95%
    lines = standing.summary()
    assert lines[0].startswith("Admission (last 4 of 50 test notes): not yet")
    assert "❌ UrlValidity high: 75% of 4 (needs ≥ 95%)" in lines
    assert standing_of([], NOW).summary()[-1].startswith("Writing limit: 0 of 10")
