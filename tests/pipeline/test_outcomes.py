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
    explored = "  explore share (under the forecast's bar): 1 sent, 100% rated, 0% of them helpful"
    assert f"{explored}, net helpful -1.00" in lines
    assert "  first come (no forecast order): 1 sent, 0% rated, net helpful +0.00" in lines
    assert "  post over 24 h old: 1 sent, 0% rated, net helpful +0.00" in lines
    assert "  post age unknown: 1 sent, 0% rated, net helpful +0.00" in lines
    # forecasts 0.85 (helpful), 0.55 and 0.35 (not helpful): every pair ordered right
    assert lines[1] == "Forecast against X's verdicts (3 notes, 1 helpful): Brier 0.149, AUC 1.00"
    assert not any(line.startswith("Gaussian") for line in lines)  # no note has its score
    assert not any(line.startswith("X's evaluator") for line in lines)


def test_the_report_judges_the_evaluators_score_recorded_live() -> None:
    notes = [
        sent("currently_rated_helpful", net_helpful=0.2, evaluator_score=0.3),
        sent("currently_rated_not_helpful", net_helpful=-0.2, evaluator_score=0.9),
        sent("currently_rated_helpful", net_helpful=0.5, evaluator_score=0.8),
    ]
    lines = outcome_report(notes)
    # 0.3 and 0.8 against 0.9: the not-helpful note scored above both
    assert "X's evaluator's score against X's verdicts (3 notes, 2 helpful): AUC 0.00" in lines


def test_the_report_judges_the_gaussian_aggregation_beside_the_forecast() -> None:
    notes = [
        sent("currently_rated_helpful", net_helpful=0.2, gaussian_intercept=0.4),
        sent("currently_rated_not_helpful", net_helpful=0.6, gaussian_intercept=0.12),
        sent("firm_reject", net_helpful=0.1, gaussian_intercept=0.35),
        sent("needs_more_ratings", net_helpful=0.9, gaussian_intercept=0.5),  # no verdict
    ]
    lines = outcome_report(notes)
    assert lines[1].endswith("AUC 0.50")  # the forecast put one not-helpful note above
    # the Gaussian intercept put the helpful note above both
    assert lines[2] == (
        "Gaussian aggregation of the personas against X's verdicts (3 notes, 1 helpful): AUC 1.00"
    )


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


def test_tokens_per_note_count_every_token_of_the_run_over_its_notes() -> None:
    from pipeline.evaluation.report import tokens_per_outcome

    rows = [
        {"status": "noted", "times": {"tokens": 3000}},
        {"status": "noted", "times": {"tokens": 5000}},
        {"status": "abstained", "times": {"tokens": 4000}},
        {"status": "failed", "times": {"tokens": 2000}},
    ]
    assert tokens_per_outcome(rows) == {
        "total": 14000,
        "notes": 2,
        "per_note": 7000.0,  # the abstention and the failure are paid for by the notes
        "per_abstention": 4000.0,
    }
    assert tokens_per_outcome([{"status": "abstained", "times": {}}])["per_note"] is None


def test_the_digest_prices_a_note_in_tokens_and_gpu_seconds() -> None:
    from datetime import UTC, datetime

    from bot.digest import Digest

    day = Digest(since=datetime(2026, 12, 1, tzinfo=UTC), noted=2)
    assert day.tokens_line() is None  # nothing spent, nothing said
    day.prompt_tokens, day.completion_tokens = 60_000, 4_000
    # per note 30,000 prompt (4 s at 7,500/s) and 2,000 completion (4 s in a full batch of
    # 30 at 15/s each, 50 s alone at 40/s)
    assert day.tokens_line() == (
        "Model tokens: 64,000 (60,000 prompt, 4,000 completion) · per note drafted: 32,000, "
        "about 8–54 GPU-seconds on one H200 serving a 27B model (in a full batch – alone)"
    )
    assert day.tokens_line() in day.text()


def test_what_raters_found_and_whether_the_moderators_disagree() -> None:
    from datetime import UTC, datetime

    from pipeline.desk.cards import crowd_line
    from pipeline.desk.episode import CROWD_PLATFORM, Vote

    def vote(platform: str, value: int, reason: str | None = None) -> Vote:
        at = datetime(2026, 12, 1, tzinfo=UTC)
        return Vote(
            episode_id=1, platform=platform, user="u", vote=value, reason=reason, created_at=at
        )

    raters = vote(CROWD_PLATFORM, -1, "raters across perspectives on X found it not helpful")
    assert crowd_line([vote("slack", 1)]) is None  # no verdict yet
    assert crowd_line([raters, vote("slack", -1)]) == raters.reason
    assert crowd_line([raters, vote("slack", 1), vote("discord", 1)]) == (
        f"{raters.reason} — the moderators' votes say otherwise"
    )


def test_tokens_per_live_note_come_from_their_episodes() -> None:
    from pipeline.desk.outcomes import tokens_per_note

    notes = [sent("currently_rated_helpful"), sent(None, test_mode=True)]
    assert tokens_per_note(notes, {1: 12_000}) == "Model tokens per live note sent: 12,000 (1 note)"
    assert tokens_per_note(notes, {}) is None


def test_forecast_bands_sort_by_number_and_notes_group_by_the_briefs_reason() -> None:
    """The bands in numeric order (as text, "-0.4" sorted after "+0.6"), the notes without a
    forecast last; by the brief's word on the need for a note, with the posts it declined;
    the explore share beside the forecast's own choice."""
    notes = [
        sent("currently_rated_helpful", order="forecast", net_helpful=0.65),
        sent("currently_rated_not_helpful", order="forecast", explore=True, net_helpful=-0.35),
        sent("currently_rated_helpful", order="forecast", net_helpful=1.0),
        sent("needs_more_ratings", order="forecast", net_helpful=-0.9),
        sent(None, order="first_come"),
    ]
    for n, note in enumerate(notes):
        note.episode_id = n
    needs = {0: "needed", 1: "opinion_or_prediction", 2: "needed"}
    lines = outcome_report(notes, needs, {"joke_satire_or_hyperbole": 3})
    start = lines.index("By the forecast's net helpfulness (ten bands over -1 … +1)")
    bands = [line.split(":")[0].strip() for line in lines[start + 1 : start + 6]]
    assert bands == [
        "forecast -1.0 to -0.8",
        "forecast -0.4 to -0.2",
        "forecast +0.6 to +0.8",
        "forecast +0.8 to +1.0",
        "no forecast",
    ]
    start = lines.index("By what chose them (the explore share against the forecast's choice)")
    assert lines[start + 1].startswith("  chosen by the forecast: 3 sent")
    assert lines[start + 2].startswith("  explore share (under the forecast's bar): 1 sent")
    start = lines.index("By the brief's word on the post's need for a note")
    assert lines[start + 1 : start + 5] == [
        "  brief: needed: 2 sent, 100% rated, 100% of them helpful, net helpful +1.00",
        "  brief: opinion_or_prediction: 1 sent, 100% rated, 0% of them helpful, net helpful -1.00",
        "  brief unknown: 2 sent, 0% rated, net helpful +0.00",
        "  brief: joke_satire_or_hyperbole: 3 declined, none sent (no note needed)",
    ]
