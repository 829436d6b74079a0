"""Which live notes early ratings condemn: X's own writer's rules, never over 1% of the
eligible notes (`pipeline.desk.withdrawal`)."""

from __future__ import annotations

from datetime import timedelta

from pipeline.desk.withdrawal import not_helpful_score, to_withdraw
from tests.fakes.submissions import NOW, live


def test_the_score_needs_agreement_not_just_a_few_ratings() -> None:
    assert round(not_helpful_score({"not_helpful": 4}), 3) == 0.969  # under 0.97: kept
    assert round(not_helpful_score({"not_helpful": 5}), 3) == 0.984  # over 0.94 at 5
    assert not_helpful_score({"not_helpful": 4, "helpful": 2}) < 0.94
    assert not_helpful_score({"helpful": 5}) < 0.05


def test_a_condemned_note_goes_when_it_is_within_one_percent() -> None:
    notes = [live(n, helpful=2) for n in range(199)] + [live(999, not_helpful=5)]
    decided = to_withdraw(notes, NOW)
    assert [(s.note_id, why) for s, why in decided.notes] == [
        ("999", "3 ratings, score ≥ 0.97: 5 ratings, 0.984")
    ]
    assert decided.tripped == []
    # 6 Not Helpful and 1 Helpful score 0.965: only the 5-rating rule's 0.94 takes it
    (caught,) = to_withdraw([*notes[:199], live(999, not_helpful=6, helpful=1)], NOW).notes
    assert caught[1] == "5 ratings, score ≥ 0.94: 7 ratings, 0.965"
    # four Not Helpful of four is not enough for the 3-rating rule's 0.97
    assert to_withdraw([*notes[:199], live(999, not_helpful=4)], NOW).notes == []


def test_over_one_percent_the_safeguard_trips_and_none_goes() -> None:
    """3 condemned of 200 is 1.5%: that many at once says the score is wrong; withdrawn
    notes of the window count toward the 1% too; test-mode and old notes are not weighed."""
    notes = [live(n) for n in range(197)] + [live(900 + n, not_helpful=6) for n in range(3)]
    decided = to_withdraw(notes, NOW)
    assert decided.notes == []
    assert decided.tripped[0].startswith("rule '3 ratings, score ≥ 0.97' would withdraw 3 of 200")
    one = [live(n) for n in range(199)] + [live(999, not_helpful=6)]
    one[0].withdrawn_at = NOW - timedelta(days=1)  # one withdrawn already: 2 of 200 is 1%
    assert [s.note_id for s, _ in to_withdraw(one, NOW).notes] == ["999"]
    one[1].withdrawn_at = NOW  # a third: over 1%
    assert to_withdraw(one, NOW).notes == []
    others = [live(999, not_helpful=6, test_mode=True), live(998, days_ago=15, not_helpful=6)]
    assert to_withdraw([*[live(n) for n in range(198)], *others], NOW).notes == []
