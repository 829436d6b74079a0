"""`bench.feed_day`: every policy over the same simulated days, in worlds whose outcomes follow
published figures only; with every effect off the policies come out equal, and a forecast that
knows the verdict shows as a gain, so the benchmark can tell the two apart."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.feed_day import POLICIES, TOLERANCE_SE, first_come, main, paired_se, run_day, run_world
from bench.feed_world import BASE_RATED, RecordedForecasts, World, feed
from bench.forecast_real import RECORDING


def test_every_policy_and_world_is_printed_with_newest_first_beside_the_new_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--days", "3", "--posts", "40"]) == 0
    out = capsys.readouterr().out
    for world in ("every effect on", "age off", "forecast off", "every effect off"):
        for policy in POLICIES:
            assert f"| {world} | {policy} |" in out
    assert "| every effect on | newest post first | 40 |" in out


def test_with_every_effect_off_the_policies_are_equal_within_noise() -> None:
    """No effect, no win: every policy's share rated is the base rate exactly, and its net
    helpful per note sent is within `TOLERANCE_SE` paired standard errors of the new one's."""
    runs = run_world(World(on=frozenset()), RecordedForecasts.load(RECORDING), 60, 120, 10, 1)
    new = runs[POLICIES[0]]
    for name, run in runs.items():
        assert run.rated_share == pytest.approx(BASE_RATED), name
        gap = abs(new.net_per_note - run.net_per_note)
        assert gap <= TOLERANCE_SE * paired_se(new, run) or run is new, name


def test_a_forecast_that_knows_the_verdict_is_a_gain_the_benchmark_sees(tmp_path: Path) -> None:
    path = tmp_path / "perfect.jsonl"
    lines = []
    for n, helpful in enumerate([True, False] * 3):
        level = "helpful" if helpful else "not_helpful"
        for persona in (4, 12):
            form = {"helpfulness": level, "agree": True, "confidence": 3, "understanding": 3}
            lines.append(
                {"note": f"healthnotes:{n}", "helpful": helpful, "persona": persona, "answer": form}
            )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    only_forecast = World(on=frozenset({"forecast"}))
    runs = run_world(only_forecast, RecordedForecasts.load(path), 60, 120, 10, 1)
    new, newest = runs[POLICIES[0]], runs["newest post first"]
    assert new.net_per_note - newest.net_per_note > TOLERANCE_SE * paired_se(new, newest)


def test_the_new_policy_drafts_fewer_posts_and_keeps_the_limit() -> None:
    day = feed(random.Random(5), 80, RecordedForecasts.load(RECORDING))
    world = World()
    old = run_day(day, world, False, first_come, 4)
    new = run_day(day, world, True, first_come, 4)
    assert old.drafted == 80 and new.drafted < 80  # the old posts are never drafted
    assert old.sent <= 4 and new.sent <= 4


def test_a_recording_without_both_verdicts_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    assert main(["--days", "1", "--recording", str(empty)]) == 3
    assert "--recording" in capsys.readouterr().out
