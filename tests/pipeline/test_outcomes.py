"""Whether the sending policy pays: live notes on X by the forecast, by what chose them and by
the post's age, each group's share rated, helpful of rated and net helpful."""

from __future__ import annotations

from typing import Any

from pipeline.desk.episode import Submission
from pipeline.desk.outcomes import live_outcome, outcome_report


def sent(status: str | None, test_mode: bool = False, **policy: Any) -> Submission:
    return Submission(
        episode_id=1,
        post_id="1",
        note_id="n",
        test_mode=test_mode,
        classification="misinformed_or_potentially_misleading",
        submitted_by="mod",
        status=status,
        policy=policy,
    )


def test_each_group_says_how_many_were_rated_and_how_they_fared() -> None:
    notes = [
        sent("currently_rated_helpful", order="forecast", net_helpful=0.7, post_age_h=2),
        sent("currently_rated_not_helpful", order="forecast", net_helpful=0.1, post_age_h=5),
        sent("needs_more_ratings", order="forecast", net_helpful=0.75, post_age_h=30),
        sent("firm_reject", order="forecast", explore=True, net_helpful=-0.3, post_age_h=1),
        sent(None, order="first_come"),
        sent("currently_rated_helpful", test_mode=True),  # test mode: not live, not counted
    ]
    lines = outcome_report(notes)
    assert lines[0] == "Live notes on X: 5 sent, 60% rated, 33% of them helpful, net helpful -0.20"
    assert (
        "  forecast +0.6 to +0.8: 2 sent, 50% rated, 100% of them helpful, net helpful +0.50"
        in (lines)
    )
    assert "  explore share: 1 sent, 100% rated, 0% of them helpful, net helpful -1.00" in lines
    assert "  first come: 1 sent, 0% rated, net helpful +0.00" in lines
    assert "  post over 24 h old: 1 sent, 0% rated, net helpful +0.00" in lines
    assert "  post age unknown: 1 sent, 0% rated, net helpful +0.00" in lines
    # forecasts 0.85 (helpful), 0.55 and 0.35 (not helpful): every pair ordered right
    assert lines[1] == "Forecast against X's verdicts (3 notes, 1 helpful): Brier 0.149, AUC 1.00"


def test_calibration_waits_for_notes_with_a_forecast_and_a_verdict() -> None:
    from pipeline.desk.outcomes import calibration

    assert calibration([sent("needs_more_ratings", net_helpful=0.5)]) == (
        "Forecast against X's verdicts: no note has both yet"
    )
    one_side = calibration([sent("currently_rated_helpful", net_helpful=1.0)])
    assert one_side.endswith("Brier 0.000, AUC needs both verdicts")


def test_the_digest_line_waits_for_a_live_note() -> None:
    assert live_outcome([sent("currently_rated_helpful", test_mode=True)]) is None
    assert live_outcome([sent("currently_rated_helpful")]) == (
        "Live notes on X: 1 sent, 100% rated, 100% of them helpful, net helpful +1.00"
    )
