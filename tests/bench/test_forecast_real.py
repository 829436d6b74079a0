"""`bench.forecast_real`: the persona forecast's recorded real-model answers replay without the
model, and its figures (AUC, balanced accuracy, Brier) are computed as they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.forecast_real import RECORDING, benchmark
from bench.forecast_recording import both_sides, net_by_verdict, recorded, replayed_votes
from bench.verdict_metrics import auc, balanced_accuracy, scores
from pipeline.forecast.personas import PersonaSet
from tests.conftest import SHARED_DATA


def test_auc_counts_pairs_and_ties_half() -> None:
    assert auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert auc([0.1, 0.9], [True, False]) == 0.0
    assert auc([0.5, 0.5], [True, False]) == 0.5


def test_balanced_accuracy_weighs_each_verdict_alike() -> None:
    # every note called Helpful: all Helpful right, no Not Helpful right
    assert balanced_accuracy([True] * 4, [True, True, True, False]) == 0.5


def test_a_score_that_knows_nothing_is_scored_as_chance() -> None:
    truth = [n % 2 == 0 for n in range(40)]
    flat = scores("flat", [1.0] * 40, truth)
    assert flat.auc == 0.5 and flat.balanced_accuracy == 0.5
    assert flat.brier == pytest.approx(0.25, abs=0.02)
    perfect = scores("perfect", [float(t) for t in truth], truth)
    assert perfect.auc == 1.0 and perfect.balanced_accuracy == 1.0 and perfect.brier < 0.05


def test_the_recorded_real_model_run_replays_without_the_model() -> None:
    """Every recorded note rebuilds its forecast from its answers alone; each line carries the
    note's real verdict, and the replay splits the forecasts by it."""
    personas = both_sides(PersonaSet.load(), 1)
    lines = recorded(RECORDING)
    assert lines, "the recording is empty"
    rebuilt = {key: replayed_votes(by_persona, personas) for key, by_persona in lines.items()}
    assert all(rebuilt.values())
    rows = [json.loads(line) for line in RECORDING.read_text("utf-8").splitlines()]
    assert all(isinstance(row["helpful"], bool) for row in rows)
    helpful, not_helpful = net_by_verdict(RECORDING)
    healthnotes = [k for k in lines if k.startswith("healthnotes:")]
    assert len(helpful) + len(not_helpful) == len(healthnotes)
    assert helpful and not_helpful
    assert all(-1.0 <= v <= 1.0 for v in helpful + not_helpful)


def test_a_recording_answer_that_failed_is_no_vote(tmp_path: Path) -> None:
    personas = both_sides(PersonaSet.load(), 1)
    path = tmp_path / "r.jsonl"
    form = {"helpfulness": "helpful", "agree": True, "confidence": 3, "understanding": 4}
    path.write_text(
        json.dumps({"note": "healthnotes:1", "helpful": True, "persona": personas[0].id,
                    "answer": form}) + "\n"
        + json.dumps({"note": "healthnotes:1", "helpful": True, "persona": personas[1].id,
                      "error": "ModelTimeout"}) + "\n"
    )  # fmt: skip
    votes = replayed_votes(recorded(path)["healthnotes:1"], personas)
    assert [v.persona for v in votes] == [personas[0].id]
    assert net_by_verdict(path) == ([1.0], [])


def test_the_benchmark_prints_the_forecast_beside_the_baselines_and_multicom(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not (SHARED_DATA / "healthnotes_dev" / "posts.jsonl").is_file():
        pytest.skip(f"the real notes are not under {SHARED_DATA}")
    benchmark(SHARED_DATA, RECORDING)
    out = capsys.readouterr().out
    assert "healthnotes_dev (X's verdicts): 40 notes (20 Helpful)" in out
    assert "persona forecast, net ≥ 0 (as the queue reads it)" in out
    assert "note length (characters), same notes" in out
    assert "birdwatch_2021 sample (our scorer's statuses)" in out
    assert "MultiCom reports accuracy 0.847, balanced accuracy 0.683" in out


def test_recording_asks_again_only_the_personas_whose_call_failed(tmp_path: Path) -> None:
    """A note with one persona answered and one timed out: a second run asks the second one
    only, and its answer replaces the failure."""
    import asyncio

    from bench.forecast_recording import record
    from tests.fakes.replay import ReplayedModel

    personas = both_sides(PersonaSet.load(), 1)
    path = tmp_path / "r.jsonl"
    form = {"helpfulness": "not_helpful", "agree": False, "confidence": 4, "understanding": 1}
    path.write_text(
        json.dumps({"note": "healthnotes:7", "helpful": False, "persona": personas[0].id,
                    "answer": form}) + "\n"
        + json.dumps({"note": "healthnotes:7", "helpful": False, "persona": personas[1].id,
                      "error": "ModelTimeout"}) + "\n"
    )  # fmt: skip
    model = ReplayedModel([{"schema": "RatingForm", "answer": form}])
    notes = [("healthnotes:7", "a post", "a note", False)]
    done = asyncio.run(
        record(model, notes, personas, path, deadline_s=60, timeout_s=5, concurrency=2)
    )
    assert done == 1 and model.asked == ["RatingForm"]
    votes = replayed_votes(recorded(path)["healthnotes:7"], personas)
    assert [v.persona for v in votes] == [p.id for p in personas]
    assert net_by_verdict(path) == ([], [-1.0])
    again = asyncio.run(
        record(model, notes, personas, path, deadline_s=60, timeout_s=5, concurrency=2)
    )
    assert again == 0 and model.asked == ["RatingForm"]  # nothing left to ask
