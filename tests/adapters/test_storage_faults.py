"""The database blinks: another process holds SQLite's lock, the disk fills. Each is waited
for or one clear `StorageUnavailable` (and a clear line with its exit code from the CLI),
nothing half-written, and everything works again once the cause is gone."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from pipeline.card import NoteCard
from pipeline.desk.note_desk import MAX_HELD, NoteDesk
from pipeline.errors import StorageUnavailable
from pipeline.post import Post
from pipeline.request import NoteRequest

ROOT = Path(__file__).resolve().parents[2]


def hold_lock(path: Path, seconds: float) -> threading.Event:
    """Another process's exclusive transaction on the database for `seconds`; set once held."""
    held = threading.Event()

    def hold() -> None:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        held.set()
        time.sleep(seconds)
        other.execute("ROLLBACK")
        other.close()

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(5)
    return held


async def migrated(tmp_path: Path) -> tuple[str, Path]:
    path = tmp_path / "evonote.db"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade(url)
    return url, path


async def test_a_lock_held_for_a_while_is_waited_for(tmp_path: Path) -> None:
    url, path = await migrated(tmp_path)
    engine = make_engine(url, busy_timeout_s=10)
    try:
        hold_lock(path, 1.5)
        row = await EpisodeStore(engine).create(
            NoteRequest(post_ref="a claim"), Post(text="a claim"), "off"
        )
        assert row.id is not None
    finally:
        await engine.dispose()


async def test_a_lock_held_past_the_wait_is_one_clear_error_and_nothing_stored(
    tmp_path: Path,
) -> None:
    url, path = await migrated(tmp_path)
    engine = make_engine(url, busy_timeout_s=0.3)
    store = EpisodeStore(engine)
    try:
        hold_lock(path, 2)
        with pytest.raises(StorageUnavailable, match="locked by another process"):
            await store.create(NoteRequest(post_ref="a claim"), Post(text="a claim"), "off")
        await asyncio.sleep(2)
        assert await store.recent(10) == []  # nothing half-written
        row = await store.create(NoteRequest(post_ref="a claim"), Post(text="a claim"), "off")
        assert row.id is not None  # and all is well once the lock is gone
    finally:
        await engine.dispose()


async def test_a_chat_request_the_database_cannot_take_is_answered_not_dropped(
    tmp_path: Path,
) -> None:
    shown: list[NoteCard] = []

    class Notes:
        async def enqueue_once(self, request: NoteRequest) -> None:
            raise StorageUnavailable(
                "the database's disk is full: free some space; nothing was stored"
            )

    async def place(card: NoteCard) -> tuple[object, str | None]:
        shown.append(card)
        return object(), None

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    desk = NoteDesk(Notes(), None, sleep=sleep)  # type: ignore[arg-type]
    await desk.request(NoteRequest(post_ref="MMR causes autism"), place)
    (card,) = shown
    assert card.status == "failed" and card.actions() == []
    assert "not stored" in (card.failure_reason or "") and "disk is full" in (
        card.failure_reason or ""
    )
    assert card.episode_label == "not stored"  # no "episode 0" to ask about
    assert 50 < sum(slept) <= 60  # held for the minute first


async def test_requests_that_arrive_while_the_database_is_down_are_held_then_stored() -> None:
    """The database is down for 20 s while 30 requests arrive (PostgreSQL restarting under
    `serve`): every one is stored once it answers, and none is refused; 150 more at once are
    held up to `MAX_HELD`, the rest answered at once that they were not stored."""
    clock = [0.0]
    stored: list[str] = []

    class Notes:
        async def enqueue_once(self, request: NoteRequest) -> None:
            if clock[0] < 20:
                raise StorageUnavailable("cannot reach the database; nothing was stored")
            stored.append(request.post_ref)

    peak = [0]

    async def sleep(seconds: float) -> None:
        peak[0] = max(peak[0], desk.held)
        clock[0] += seconds / 30  # thirty requests sleep side by side: time passes once
        await asyncio.sleep(0)

    shown: list[NoteCard] = []

    async def place(card: NoteCard) -> tuple[object, str | None]:
        shown.append(card)
        return object(), None

    desk = NoteDesk(Notes(), None, sleep=sleep)  # type: ignore[arg-type]
    asks = [NoteRequest(post_ref=f"claim {i}") for i in range(30)]
    await asyncio.gather(*(desk.request(r, place, run=False) for r in asks))
    assert sorted(stored) == sorted(r.post_ref for r in asks)
    assert not any("not stored" in (c.failure_reason or "") for c in shown)

    clock[0], stored[:], shown[:] = -1e9, [], []  # down for good now
    burst = [NoteRequest(post_ref=f"more {i}") for i in range(150)]
    await asyncio.gather(*(desk.request(r, place, run=False) for r in burst))
    refused = [c for c in shown if "not stored" in (c.failure_reason or "")]
    assert len(refused) == 150 and not stored  # each told, after the hold or at once
    assert peak[0] == MAX_HELD  # never more held than the bound


def _small_files() -> None:
    """The child may not grow any file past 64 kB (a full disk, as SQLite sees it)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (65_536, 65_536))


async def test_a_full_disk_is_one_line_and_an_exit_code(tmp_path: Path, corpus_file: Path) -> None:
    url, path = await migrated(tmp_path)
    engine = make_engine(url)
    try:
        store = EpisodeStore(engine)
        await store.create(NoteRequest(post_ref="seed"), Post(text="seed"), "off")
    finally:
        await engine.dispose()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "EVONOTE_DB__URL": url,
            "EVONOTE_DATA_DIR": str(tmp_path),
            "EVONOTE_LLM__BASE_URL": "http://127.0.0.1:9/v1",
            "EVONOTE_MEMORY__MODE": "off",
            "EVONOTE_FORECAST__ENABLED": "false",
            "EVONOTE_SEARCH__CORPUS": str(corpus_file),
        }
    )
    long_post = "Vaccines cause autism. " * 1_000  # 23 kB: more pages than the WAL may grow by
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot.cli", "check", long_post],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_small_files,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("evonote:")]
    assert done.returncode == 5, done.stderr[-2000:]
    assert lines == [lines[-1]] and "disk" in lines[0], done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert [r[0] for r in check.execute("SELECT post_ref FROM episode")] == ["seed"]
