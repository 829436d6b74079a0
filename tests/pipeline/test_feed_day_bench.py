"""`bench.feed_day` runs both policies over the same simulated days and prints their numbers;
the new policy drafts no post past the age limit and sends no more than the writing limit."""

from __future__ import annotations

import random

import pytest

from bench.feed_day import feed, main, run_day


def test_both_policies_run_on_the_same_days(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--days", "3", "--posts", "40"]) == 0
    out = capsys.readouterr().out
    assert "| first come (old) | 40 |" in out
    assert "| chosen and forecast-ordered (new) |" in out


def test_the_new_policy_drafts_fewer_posts_and_keeps_the_limit() -> None:
    day = feed(random.Random(5), 80)
    old, new = run_day(day, False, 4), run_day(day, True, 4)
    assert old.drafted == 80 and new.drafted < 80  # the old posts are never drafted
    assert old.sent <= 4 and new.sent <= 4
