"""Several processes on one database: gateways queue, workers run and edit the cards, and an
episode whose worker is killed is finished by another."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.app import build
from bot.front_ends.slack_platform import SlackReach
from bot.settings import Settings
from bot.slack.frontend import SlackFrontend
from bot.worker import CardViews
from pipeline.post import Post
from pipeline.request import NoteRequest
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.postgres import fresh_database, own_postgres
from tests.fakes.processes import evonote, free_port, slack_serving_env, wait_for_line
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import command

ROOT = Path(__file__).resolve().parents[2]
POST = "The measles vaccine causes autism, skip the MMR shot"


async def test_a_gateway_queues_and_a_worker_edits_the_card(
    app_env: ScriptedModelServer,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", "test-signing-secret")
    monkeypatch.setenv("EVONOTE_SLACK__PROGRESS_INTERVAL_S", "0")
    settings = Settings()
    async with build(settings) as app:
        client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
        gateway = SlackFrontend(
            app.cards,
            settings.slack,
            client,
            process_before_response=True,
            run_episodes=False,
        )
        await gateway.app.async_dispatch(command(POST))
        await gateway.background.drain()
        queued = (await app.store.recent(1))[0]
        assert queued.status == "queued"
        assert queued.reply_message is not None
        assert app_env.requests == [], "the gateway calls no model"
        views = CardViews(app, {"slack": SlackReach(client, settings.slack)})
        finished = await app.notes.work_once(views.progress_for)
        assert finished is not None and finished.status == "noted"
        await views.final(finished)
        update = slack_api.called("chat.update")[-1]
        assert update["ts"] == queued.reply_message  # the card the gateway posted
        final = json.dumps(update["blocks"], ensure_ascii=False)
        assert "Proposed Community Note" in final
        assert await app.notes.work_once(views.progress_for) is None


def worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # its log goes to a file: a pipe nobody reads fills and stops the worker mid-episode
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "serve", "--role", "worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=out,
        )


async def wait_for(
    store: EpisodeStore,
    episode_id: int,
    status: str,
    process: subprocess.Popen[bytes],
    log: Path,
    seconds: float = 300,
) -> None:
    """Until the episode has `status`, or the worker has died (its stderr then says why). The
    bound is a backstop, not the measure: a worker that starts in 5 s alone took over 60 under
    a loaded CI machine (the suite failed once that way)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = await store.get(episode_id)
        if row is not None and row.status == status:
            return
        if process.poll() is not None:
            why = (await asyncio.to_thread(log.read_text, errors="replace"))[-2000:]
            raise AssertionError(f"the worker exited {process.returncode}: {why}")
        await asyncio.sleep(0.2)
    raise AssertionError(f"episode {episode_id} did not become {status} in {seconds} s")


async def test_a_killed_worker_s_episode_is_finished_by_another(
    postgres_server: int | None,
    network_guard: NetworkGuard,
    corpus_file: Path,
    model_server: ScriptedModelServer,
    tmp_path: Path,
) -> None:
    if postgres_server is None:
        pytest.skip("PostgreSQL is not installed on this machine")
    network_guard.allow(postgres_server)
    url = await fresh_database(postgres_server)
    await upgrade(url)
    engine = make_engine(url)
    store = EpisodeStore(engine)
    row = await store.create(NoteRequest(post_ref="p"), Post(text=POST), "off")
    assert row.id is not None
    assert await store.record_vote(row.id, platform="slack", user="U1", vote=1)
    model_server.delay_s = 1.0  # slow enough to be killed in the middle
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update(
        {
            "EVONOTE_DB__URL": url,
            "EVONOTE_LLM__BASE_URL": model_server.base_url,
            "EVONOTE_SEARCH__CORPUS": str(corpus_file),
            "EVONOTE_DATA_DIR": str(tmp_path / "w"),
            "EVONOTE_MEMORY__MODE": "off",
            "EVONOTE_FORECAST__ENABLED": "false",
            "EVONOTE_OPS__LEASE_S": "3",
            "EVONOTE_OPS__RECOVER_EVERY_S": "0.5",
            "EVONOTE_OPS__WORKERS": "1",
            "PYTHONPATH": str(ROOT),
        }
    )
    log = tmp_path / "workers.log"
    first = worker(env, log)
    try:
        await wait_for(store, row.id, "running", first, log)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    second = worker(env, log)
    try:
        await wait_for(store, row.id, "noted", second, log)
    finally:
        second.terminate()
        second.wait(10)
    finished = await store.get(row.id)
    assert finished is not None and finished.attempts == 2
    assert [v.user for v in await store.votes(row.id)] == ["U1"], "no vote is lost"
    await engine.dispose()


async def test_a_hung_model_server_delays_the_episode_instead_of_failing_it(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    monkeypatch.setenv("EVONOTE_LLM__CALL_TIMEOUT_S", "1")
    async with build(Settings()) as app:
        row = await app.notes.enqueue(NoteRequest(post_ref=POST))
        app_env.delay_s = 3  # every answer comes after the call's time limit
        delayed = await app.notes.work_once()
        assert delayed is not None and delayed.id == row.id and delayed.status == "queued"
        assert "did not answer within 1 s" in (delayed.delay_reason or "")
        app_env.delay_s = 0
        done = await app.notes.work_once()
        assert done is not None and done.id == row.id and done.status == "noted"


async def test_workers_delay_episodes_while_the_model_server_is_down(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    async with build(Settings()) as app:
        row = await app.notes.enqueue(NoteRequest(post_ref=POST))
        app_env.down = True
        delayed = await app.notes.work_once()
        assert delayed is not None and delayed.status == "queued"
        assert "model server" in (delayed.delay_reason or "")
        from pipeline.desk.cards import card_for

        assert (card_for(delayed).progress or "").startswith("Delayed: ")
        app_env.down = False
        done = await app.notes.work_once()
        assert done is not None and done.id == row.id and done.status == "noted"
        assert done.delay_reason is None
        assert done.attempts == 2


async def test_a_user_removed_from_the_moderator_group_loses_it_within_the_ttl(
    slack_api: MockSlackApi,
) -> None:
    from slack_sdk.web.async_client import AsyncWebClient

    from bot.settings import SlackSettings
    from bot.slack.moderators import SlackModerators

    now = [0.0]
    client = AsyncWebClient(token="xoxb-test", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
    settings = SlackSettings(moderators="SMODS", moderators_ttl_s=300)
    moderators = SlackModerators(settings, client, clock=lambda: now[0])
    assert await moderators.is_moderator("UMOD")
    slack_api.group_members["SMODS"] = []  # an admin removes UMOD from the group
    now[0] = 299.0
    assert await moderators.is_moderator("UMOD")  # within the TTL: the group as read
    now[0] = 300.0
    assert not await moderators.is_moderator("UMOD")  # read again: no longer a moderator
    assert len(slack_api.called("usergroups.users.list")) == 2


async def test_concurrent_deliveries_of_one_request_show_one_card(
    app_env: ScriptedModelServer,
) -> None:
    """A platform that delivers one command 8 times at once: one episode, one card, run once."""
    from pipeline.card import NoteCard
    from pipeline.desk.note_desk import NoteDesk

    placed: list[NoteCard] = []
    shown: list[NoteCard] = []

    class View:
        async def show(self, card: NoteCard, force: bool = False) -> None:
            shown.append(card)

    async def place(card: NoteCard) -> tuple[View, str | None]:
        placed.append(card)
        return View(), None

    async with build(Settings()) as app:
        cards = NoteDesk(app.notes, app.desk)
        request = NoteRequest(post_ref=POST, source="slack", requester="U1", key="slack:cmd:T1")
        await asyncio.gather(*(cards.request(request, place) for _ in range(8)))
        assert len(placed) == 1
        assert len(await app.store.recent(10)) == 1
        assert shown and shown[-1].status == "noted"


async def test_recovery_runs_requeued_episodes_at_once_and_finishes_their_cards(
    app_env: ScriptedModelServer,
) -> None:
    """After a restart: every episode requeued at shutdown runs at once, side by side, and
    each one's card (asked in chat before the restart) is edited to its end."""
    from pipeline.desk.episode import Episode
    from pipeline.trajectory import Progress, ProgressListener

    app_env.delay_s = 0.2
    running: set[int] = set()
    most_at_once = 0
    finished: list[int] = []

    def progress_for(row: Episode) -> ProgressListener:
        async def progress(event: Progress) -> None:
            nonlocal most_at_once
            running.add(row.id or 0)
            most_at_once = max(most_at_once, len(running))

        return progress

    async def final(row: Episode) -> None:
        running.discard(row.id or 0)
        finished.append(row.id or 0)

    async with build(Settings()) as app:
        ids = []
        for n in range(4):
            row = await app.notes.enqueue(NoteRequest(post_ref=f"{POST} ({n})", source="slack"))
            assert row.id is not None
            await app.store.claim(row.id, "old-process", 60)
            await app.store.delay(row.id, "requeued: EvoNote was stopped")  # as at shutdown
            ids.append(row.id)
        done = await app.notes.recover(
            3, queued_for_s=120, progress_for=progress_for, finished=final
        )
    assert sorted(done) == sorted(ids) == sorted(finished)
    assert most_at_once >= 2  # side by side, not one after another


async def test_a_postgresql_restart_mid_run_loses_no_episode_and_wedges_no_worker(
    app_env: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    network_guard: NetworkGuard,
) -> None:
    """The database stops while a worker runs two episodes and comes back: the worker hands
    those back to the queue as soon as it can, runs them again, and claims new ones."""
    from bot.worker import run_workers

    async with own_postgres(network_guard, monkeypatch, "blip") as server:
        monkeypatch.setenv("EVONOTE_OPS__WORKERS", "2")
        app_env.delay_s = 0.5  # each episode takes a few seconds: the outage lands mid-run
        async with build(Settings()) as app:
            first = [await app.notes.enqueue(NoteRequest(post_ref=f"{POST} {n}")) for n in range(2)]
            workers = asyncio.create_task(run_workers(app, CardViews(app, {}), 0.2))
            try:
                async with asyncio.timeout(60):
                    while True:
                        if (await app.store.count_by_status()).get("running", 0) == 2:
                            break
                        await asyncio.sleep(0.2)
                server.pause()
                await asyncio.sleep(3)
                server.resume()
                later = [
                    await app.notes.enqueue(NoteRequest(post_ref=f"{POST} later {n}"))
                    for n in range(2)
                ]
                ids = [row.id for row in first + later]
                async with asyncio.timeout(120):
                    while True:
                        rows = [await app.store.get(i or 0) for i in ids]
                        if all(r is not None and r.status == "noted" for r in rows):
                            break
                        await asyncio.sleep(0.5)
                assert not workers.done()  # the workers outlived the outage
            finally:
                workers.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await workers
        rows = [r for r in rows if r is not None]
        # run again: once on an idle machine; on a loaded one (the suite beside a CPU-bound
        # model server) a claim cut by the outage can count once more, within the attempts
        # an episode has (EVONOTE_OPS__MAX_ATTEMPTS, 3) — it failed CI at random as `== [2, 2]`
        assert all(2 <= r.attempts <= 3 for r in rows[:2]), [r.attempts for r in rows[:2]]


async def test_a_worker_takes_its_next_episode_while_the_last_note_is_forecast(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One worker, two episodes, and a forecast that does not finish: the second note is
    still written (the forecast has its own lane), and the forecast edits its card later."""
    from bot.worker import run_workers
    from pipeline.desk.episode import Episode

    monkeypatch.setenv("EVONOTE_OPS__WORKERS", "1")
    monkeypatch.setenv("EVONOTE_FORECAST__ENABLED", "true")
    release = asyncio.Event()
    forecast_for: list[int] = []

    async with build(Settings()) as app:
        assert app.notes.panel is not None

        async def slow_forecast(row: Episode) -> Episode:
            forecast_for.append(row.id or 0)
            await release.wait()
            return row

        monkeypatch.setattr(app.notes, "forecast", slow_forecast)
        rows = [await app.notes.enqueue(NoteRequest(post_ref=f"{POST} {n}")) for n in range(2)]
        workers = asyncio.create_task(run_workers(app, CardViews(app, {}), 0.1))
        try:
            async with asyncio.timeout(60):
                while True:
                    second = await app.store.get(rows[1].id or 0)
                    if second is not None and second.status == "noted":
                        break
                    await asyncio.sleep(0.2)
            assert forecast_for[0] == rows[0].id and not release.is_set()
            release.set()
            async with asyncio.timeout(10):
                while True:
                    if len(forecast_for) == 2:  # the second note's forecast followed
                        break
                    await asyncio.sleep(0.1)
        finally:
            workers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await workers


async def test_slack_requests_while_postgresql_is_down_for_20_s_are_all_stored(
    app_env: ScriptedModelServer,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
    network_guard: NetworkGuard,
) -> None:
    """PostgreSQL stops for 20 s under the Slack gateway while a burst of /note requests comes
    in (4 arrived in such an outage and were lost, their cards labelled "episode 0"): each is
    held and stored once the database answers, and none is answered "not stored"."""
    async with own_postgres(network_guard, monkeypatch, "outage") as server:
        monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", "test-signing-secret")
        settings = Settings()
        async with build(settings) as app:
            client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
            gateway = SlackFrontend(
                app.cards, settings.slack, client, run_episodes=False
            )  # as `serve --role gateway` builds it: the answer before the work
            server.pause()
            asked = [f"{POST} {n}" for n in range(8)]
            for n, text in enumerate(asked):
                response = await gateway.app.async_dispatch(command(text, trigger=f"T-{n}"))
                assert response.status == 200  # acknowledged at once, whatever the database
            await asyncio.sleep(20)
            server.resume()
            await asyncio.wait_for(gateway.background.drain(), 90)
            stored = await app.store.recent(20)
        cards = json.dumps([c.get("blocks") for c in slack_api.called("chat.postMessage")])
        assert sorted(r.post.text for r in stored) == sorted(asked)  # every request stored
        assert "not stored" not in cards and "episode 0" not in cards


async def test_serve_stores_every_slack_request_that_came_while_postgresql_was_down(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
    network_guard: NetworkGuard,
) -> None:
    """The same outage under a real `serve --role gateway` process, its requests signed and
    sent over HTTP: the 8 that come while PostgreSQL is stopped for 20 s are all stored once it
    answers, and no card says "not stored" or "episode 0" (counted: stored, refused)."""
    async with own_postgres(network_guard, monkeypatch, "serve_outage") as server:
        url = os.environ["EVONOTE_DB__URL"]
        await upgrade(url)
        port = free_port()
        network_guard.allow(port)
        env = slack_serving_env(url, tmp_path, model_server, corpus_file, port, slack_api)
        log = tmp_path / "gateway.log"
        gateway = evonote(env, "serve", "--role", "gateway", log=log)
        engine = make_engine(url)
        try:
            await asyncio.to_thread(wait_for_line, log, b"serving", 120)
            server.pause()
            asked = [f"{POST} {n}" for n in range(8)]
            async with aiohttp.ClientSession() as http:
                for n, text in enumerate(asked):
                    request = command(text, trigger=f"T-{n}")
                    headers = {k: v[0] for k, v in request.headers.items()}
                    events = f"http://127.0.0.1:{port}/slack/events"
                    async with http.post(events, data=request.body, headers=headers) as answer:
                        assert answer.status == 200  # acknowledged at once
            await asyncio.sleep(20)
            server.resume()
            store = EpisodeStore(engine)
            stored: list[str] = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and len(stored) < len(asked):
                with contextlib.suppress(Exception):  # the database is still starting
                    stored = [r.post.text for r in await store.recent(20)]
                await asyncio.sleep(0.5)
            assert gateway.poll() is None, log.read_text(errors="replace")[-2000:]
        finally:
            gateway.terminate()
            await asyncio.to_thread(gateway.wait, 30)
            await engine.dispose()
        cards = json.dumps([c.get("blocks") for c in slack_api.called("chat.postMessage")])
        refused = cards.count("not stored")
        assert (sorted(stored), refused) == (sorted(asked), 0)
        assert "episode 0" not in cards
