"""`doctor` tests what it says it tested (issue 58: a data folder that exists but cannot be
written was "✓", and the database was blamed on EVONOTE_DB__URL, not set), and lists which
periodic jobs run and why the others do not (a watchlist without its token was silent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.doctor import check_data_dir, check_database, check_schedule
from bot.settings import Settings

UNWRITABLE = Path("/sys/kernel")  # exists; no one writes a file there, root included


@pytest.mark.skipif(not UNWRITABLE.is_dir(), reason="no /sys/kernel on this system")
async def test_a_folder_that_exists_but_cannot_be_written_is_refused_and_blamed_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(UNWRITABLE))
    settings = Settings()
    folder = await check_data_dir(settings)
    assert not folder.ok and "EVONOTE_DATA_DIR: /sys/kernel cannot be used" in folder.detail
    database = await check_database(settings)
    assert not database.ok and "EVONOTE_DB__URL" not in database.line()
    assert "EVONOTE_DATA_DIR" in database.line()


async def test_a_writable_folder_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(tmp_path / "new"))
    assert (await check_data_dir(Settings())).ok
    assert list((tmp_path / "new").iterdir()) == []  # the probe left nothing


def test_the_schedule_says_what_runs_and_why_the_rest_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVONOTE_X__BEARER_TOKEN", "a-bearer-token")
    monkeypatch.setenv("EVONOTE_X__WATCH_ACCOUNTS", "cdcgov")
    monkeypatch.setenv("EVONOTE_MEMORY__MODE", "off")
    lines = {c.name: c.line() for c in check_schedule(Settings())}
    assert lines["job scan_watchlists"].startswith("✓ job scan_watchlists: every 900 s: account:")
    assert "run without a card (set EVONOTE_X__WATCH_CHANNEL" in lines["job scan_watchlists"]
    assert lines["job evolve"] == (
        "· job evolve: not scheduled: the memory is off (EVONOTE_MEMORY__MODE=off)"
    )
    assert "EVONOTE_X__CONSUMER_KEY" in lines["job sync_note_status"]
    assert lines["job recover_episodes"].startswith("✓")


def test_with_no_watch_the_scan_is_listed_as_not_scheduled() -> None:
    line = next(c.line() for c in check_schedule(Settings()) if "scan_watchlists" in c.name)
    assert line.startswith("· job scan_watchlists: not scheduled: no watch set")


def test_the_late_revisions_are_listed_with_their_windows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "a-secret")

    def line() -> str:
        return next(c.line() for c in check_schedule(Settings()) if "revise_sent_notes" in c.name)

    assert line() == "✓ job revise_sent_notes: every 600 s: notes 1 h, 3 h after sending"
    monkeypatch.setenv("EVONOTE_X__REVISE_AFTER_H", "[]")
    assert line() == (
        "· job revise_sent_notes: not scheduled: no revision window (EVONOTE_X__REVISE_AFTER_H=[])"
    )
