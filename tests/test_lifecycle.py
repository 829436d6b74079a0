"""Processes are killed and restarted: nothing is lost or left `running`.

Real subprocesses (`python -m bot.cli …`) against the scripted model server and real databases.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.cli import main
from pipeline.post import Post
from pipeline.request import NoteRequest
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.postgres import fresh_database

ROOT = Path(__file__).resolve().parents[1]
POST = "The measles vaccine causes autism. Skip the MMR shot."


def evonote(env: dict[str, str], *argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def child_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update({"PYTHONPATH": str(ROOT), "EVONOTE_FORECAST__ENABLED": "false", **extra})
    return env


async def database_url(kind: str, tmp_path: Path, port: int | None, guard: NetworkGuard) -> str:
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'fresh' / 'evonote.db'}"
    if port is None:
        pytest.skip("PostgreSQL is not installed on this machine")
    guard.allow(port)
    return await fresh_database(port, "life")


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_migrations_run_once_when_processes_start_together(
    kind: str, tmp_path: Path, postgres_server: int | None, network_guard: NetworkGuard
) -> None:
    url = await database_url(kind, tmp_path, postgres_server, network_guard)
    env = child_env({"EVONOTE_DB__URL": url, "EVONOTE_DATA_DIR": str(tmp_path / "d")})
    processes = [evonote(env, "db", "upgrade") for _ in range(4)]
    results = [await asyncio.to_thread(p.communicate, timeout=120) for p in processes]
    codes = [p.returncode for p in processes]
    assert codes == [0, 0, 0, 0], [err.decode()[-400:] for _, err in results]
    assert all(b"newest schema" in out for out, _ in results)


async def wait_for_status(store: EpisodeStore, status: str, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = await store.recent(5)
        for row in rows:
            if row.status == status and row.id is not None:
                return row.id
        await asyncio.sleep(0.1)
    raise AssertionError(f"no episode became {status} in {seconds} s")


async def test_a_killed_check_is_failed_by_the_next_command(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    settings = {
        "EVONOTE_DB__URL": url,
        "EVONOTE_LLM__BASE_URL": model_server.base_url,
        "EVONOTE_SEARCH__CORPUS": str(corpus_file),
        "EVONOTE_MEMORY__MODE": "off",
    }
    model_server.delay_s = 2.0  # the check is mid-episode when it is killed
    check = evonote(child_env({**settings, "EVONOTE_DATA_DIR": str(tmp_path)}), "check", POST)
    engine = make_engine(url)
    try:
        assert check.stderr is not None
        first = await asyncio.wait_for(asyncio.to_thread(check.stderr.readline), 60)
        assert first.startswith("· ".encode()), first  # its first progress line: running
        store = EpisodeStore(engine)
        episode = await wait_for_status(store, "running", 60)
        check.send_signal(signal.SIGKILL)
        check.wait(10)
        for name, value in settings.items():
            monkeypatch.setenv(name, value)
        assert await asyncio.to_thread(main, ["episodes", "list"]) == 0  # any later command
        out = capsys.readouterr().out
        row = await store.get(episode)
        assert row is not None and row.status == "failed"
        assert f"process {check.pid} on " in (row.failure_reason or "")
        assert "stopped before the episode finished" in (row.failure_reason or "")
        assert "failed" in out
    finally:
        if check.poll() is None:
            check.kill()
        await engine.dispose()


async def test_an_orphan_of_a_serving_process_is_requeued_not_failed(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'o.db'}"
    await upgrade(url)
    engine = make_engine(url)
    store = EpisodeStore(engine)
    try:
        chat = await store.create(NoteRequest(post_ref="p", source="slack"), Post(text="p"), "off")
        cli = await store.create(NoteRequest(post_ref="q"), Post(text="q"), "off")
        other = await store.create(NoteRequest(post_ref="r"), Post(text="r"), "off")
        dead = "this-host:999999:1"
        for row, owner in ((chat, dead), (cli, dead), (other, "other-host:1:1")):
            assert row.id is not None
            assert await store.claim(row.id, owner, 300) is not None
        requeued, failed = await store.reclaim_orphans(
            lambda owner: owner.startswith("this-host:"), lambda owner: "process 999999"
        )
        assert (requeued, failed) == ([chat.id], [cli.id])
        assert chat.id is not None and other.id is not None
        back = await store.get(chat.id)
        assert back is not None and back.status == "queued" and back.attempts == 1
        assert "requeued: process 999999 stopped" in (back.delay_reason or "")
        untouched = await store.get(other.id)
        assert untouched is not None and untouched.status == "running"  # its lease decides
    finally:
        await engine.dispose()
