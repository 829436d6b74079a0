"""Processes are killed and restarted: nothing is lost or left `running`.

Real subprocesses (`python -m bot.cli …`) against the scripted model server and real databases.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
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
from tests.fakes.processes import (
    child_env,
    evonote,
    free_port,
    running_env,
    slack_serving_env,
    wait_for_line,
)
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import command

POST = "The measles vaccine causes autism. Skip the MMR shot."


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


async def check_mid_episode(
    model_server: ScriptedModelServer, corpus_file: Path, tmp_path: Path
) -> tuple[dict[str, str], subprocess.Popen[bytes]]:
    """`evonote check` in a subprocess, returned once its episode is running ("· analysing")
    with the settings it runs with (the CLI's memory off, a SQLite file of its own)."""
    settings = {
        "EVONOTE_DB__URL": f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}",
        "EVONOTE_LLM__BASE_URL": model_server.base_url,
        "EVONOTE_SEARCH__CORPUS": str(corpus_file),
        "EVONOTE_MEMORY__MODE": "off",
    }
    model_server.delay_s = 2.0  # each model call takes a while: the check is mid-episode
    check = evonote(child_env({**settings, "EVONOTE_DATA_DIR": str(tmp_path)}), "check", POST)
    assert check.stderr is not None
    # a backstop, not the measure: the CLI starting under a loaded machine (the suite beside a
    # CPU-bound model server) once took over 60 s and failed the suite at random
    async with asyncio.timeout(240):
        while not (line := await asyncio.to_thread(check.stderr.readline)).startswith(
            "· analysing".encode()
        ):
            assert line, f"evonote check exited {check.wait()} before its episode ran"
    return settings, check


async def test_a_killed_check_is_failed_by_the_next_command(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    settings, check = await check_mid_episode(model_server, corpus_file, tmp_path)
    url = settings["EVONOTE_DB__URL"]
    engine = await asyncio.to_thread(make_engine, url)
    try:
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


async def test_orphans_of_a_serving_process_are_requeued_and_a_cli_s_failed(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'o.db'}"
    await upgrade(url)
    engine = await asyncio.to_thread(make_engine, url)
    store = EpisodeStore(engine)
    try:
        chat = await store.create(NoteRequest(post_ref="p", source="slack"), Post(text="p"), "off")
        cli = await store.create(NoteRequest(post_ref="q"), Post(text="q"), "off")
        other = await store.create(NoteRequest(post_ref="r"), Post(text="r"), "off")
        served, checked = "serve@this-host:999999:1", "cli@this-host:999998:1"
        for row, owner in ((chat, served), (cli, checked), (other, "serve@other-host:1:1")):
            assert row.id is not None
            assert await store.claim(row.id, owner, 300) is not None
        requeued, failed = await store.reclaim_orphans(
            lambda owner: "@this-host:" in owner,
            lambda owner: "process 999999",
            lambda owner: owner.startswith("cli@"),
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


async def stop_with_sigterm(process: subprocess.Popen[bytes], within_s: float) -> float:
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    await asyncio.to_thread(process.wait, within_s)
    return time.monotonic() - started


async def test_sigterm_on_serve_requeues_what_the_grace_period_cannot_finish(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    slack_api: MockSlackApi,
    network_guard: NetworkGuard,
) -> None:
    """`serve --role all` on SQLite, a /note in flight, SIGTERM with a 1 s grace: exit 0, the
    episode back in the queue with its attempt counted, its card saying so."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'serve.db'}"
    port = free_port()
    network_guard.allow(port)
    model_server.delay_s = 3.0  # far longer than the grace period
    env = slack_serving_env(
        url,
        tmp_path,
        model_server,
        corpus_file,
        port,
        slack_api,
        EVONOTE_SLACK__PROGRESS_INTERVAL_S="0",
        EVONOTE_OPS__SHUTDOWN_GRACE_S="1",
    )
    log = tmp_path / "serve.log"
    server = evonote(env, "serve", log=log)
    engine = await asyncio.to_thread(make_engine, url)
    try:
        await asyncio.to_thread(wait_for_line, log, b"serving", 60)
        request = command(POST)
        headers = {k: v[0] for k, v in request.headers.items()}
        import aiohttp

        async with aiohttp.ClientSession() as http:
            url_ = f"http://127.0.0.1:{port}/slack/events"
            async with http.post(url_, data=request.body, headers=headers) as response:
                assert response.status == 200
        store = EpisodeStore(engine)
        episode = await wait_for_status(store, "running", 30)
        took = await stop_with_sigterm(server, 30)
        assert server.returncode == 0
        assert took < 1 + 10  # the grace period, and a little to close down
        row = await store.get(episode)
        assert row is not None and row.status == "queued" and row.attempts == 1
        assert "requeued" in (row.delay_reason or "")
        cards = [json.dumps(c.get("blocks")) for c in slack_api.called("chat.update")]
        assert any("Requeued" in c for c in cards)
    finally:
        if server.poll() is None:
            server.kill()
        await engine.dispose()


async def test_sigterm_on_a_worker_lets_the_running_episode_finish(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    postgres_server: int | None,
    network_guard: NetworkGuard,
) -> None:
    """`serve --role worker` on PostgreSQL: SIGTERM mid-episode, a generous grace: the
    episode finishes as noted, then the worker exits 0 with nothing left running."""
    url = await database_url("postgresql", tmp_path, postgres_server, network_guard)
    await upgrade(url)
    engine = await asyncio.to_thread(make_engine, url)
    store = EpisodeStore(engine)
    row = await store.create(NoteRequest(post_ref="p", source="slack"), Post(text=POST), "off")
    assert row.id is not None
    model_server.delay_s = 0.5
    env = running_env(
        url,
        tmp_path,
        model_server,
        corpus_file,
        EVONOTE_OPS__SHUTDOWN_GRACE_S="30",
        EVONOTE_OPS__WORKERS="1",
    )
    worker = evonote(env, "serve", "--role", "worker", log=tmp_path / "worker.log")
    try:
        await wait_for_status(store, "running", 60)
        await stop_with_sigterm(worker, 60)
        assert worker.returncode == 0
        done = await store.get(row.id)
        assert done is not None and done.status == "noted" and done.attempts == 1
        assert (await store.count_by_status()).get("running", 0) == 0
    finally:
        if worker.poll() is None:
            worker.kill()
        await engine.dispose()


@pytest.mark.parametrize(
    ("how", "code", "says"),
    [(signal.SIGINT, 130, "evonote: interrupted (Ctrl-C)"), (signal.SIGTERM, 143, "(SIGTERM)")],
    ids=["ctrl-c", "sigterm"],
)
async def test_a_stopped_check_says_which_signal_and_fails_its_episode(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    how: signal.Signals,
    code: int,
    says: str,
) -> None:
    settings, check = await check_mid_episode(model_server, corpus_file, tmp_path)
    engine = await asyncio.to_thread(make_engine, settings["EVONOTE_DB__URL"])
    try:
        check.send_signal(how)
        _, err = await asyncio.to_thread(check.communicate, timeout=60)
        assert check.returncode == code
        assert says in err.decode()
        rows = await EpisodeStore(engine).recent(5)
        assert [row.status for row in rows] == ["failed"]  # nothing left running
    finally:
        if check.poll() is None:
            check.kill()
        await engine.dispose()
