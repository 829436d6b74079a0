"""Our notes as X keeps them, built for the tests of what happens after they go out
(withdrawal, alarms, late revisions): one builder, a fixed now."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pipeline.desk.episode import Submission

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)


def live(
    n: int,
    days_ago: float = 1,
    *history: tuple[str, float],
    test_mode: bool = False,
    **ratings: int,
) -> Submission:
    """Note `n` on post `n`, sent `days_ago` before `NOW`, whose status changed to each
    (status, days ago) of `history`, with raters' counts so far (`helpful=2`)."""
    changes = [{"status": s, "at": (NOW - timedelta(days=d)).isoformat()} for s, d in history]
    return Submission(
        episode_id=1,
        post_id=str(n),
        note_id=str(n),
        test_mode=test_mode,
        classification="misinformed_or_potentially_misleading",
        submitted_by="mod",
        status=history[-1][0] if history else None,
        status_history=changes,
        ratings=ratings,
        submitted_at=NOW - timedelta(days=days_ago),
    )
