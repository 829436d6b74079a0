"""`evonote serve`: the scheduler and the chat front ends in one process, until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
from collections.abc import Awaitable
from contextlib import AsyncExitStack

import aiohttp
import discord
from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import (
    App,
    build,
    make_discord_frontend,
    make_discord_rest_client,
    make_evolver,
    make_memory_store,
    make_scanner,
    make_scheduler,
    make_slack_frontend,
)
from bot.background import BackgroundTasks
from bot.connecting import ServiceRefused, ServiceState, say
from bot.digest import build_digest, post_to_discord, post_to_slack
from bot.discord.frontend import DiscordFrontend
from bot.metrics import configure_logging
from bot.replay import start_replay
from bot.settings import ConfigurationError, Settings
from bot.slack.frontend import SlackFrontend
from bot.worker import CardViews, run_workers
from memory.models import LessonStatus
from pipeline.trajectory import EpisodeStatus
from pipeline.vocabulary import load_word_lists
from scheduler.jobs import Job, JobScheduler

log = logging.getLogger(__name__)


def scheduled_jobs(app: App) -> list[Job]:
    """The periodic jobs this configuration calls for (run behind the scheduler lease)."""
    jobs: list[Job] = []
    memory, m = app.memory, app.settings.memory
    if memory is not None:
        evolver = make_evolver(app.settings, app.engine, memory, app.client)

        async def evolve() -> None:
            await evolver.run_once()
            await memory.persist()

        async def upkeep() -> None:
            await memory.retire_unused("upkeep")
            await memory.persist()

        jobs += [
            Job("evolve", evolve, m.evolve_every_s),
            Job("upkeep_memory", upkeep, m.upkeep_every_s),
        ]
    submitter = app.submitter
    if submitter is not None:
        x = app.settings.x

        async def sync_note_status() -> None:
            await submitter.sync()

        async def submit_queued() -> None:
            # what waited for the writing limit goes as soon as a slot opens
            for outcome in await submitter.send_queued():
                log.info("queued submission: %s", outcome.message)

        jobs += [
            Job("sync_note_status", sync_note_status, x.sync_every_s),
            Job("submit_queued", submit_queued, x.sync_every_s),
        ]
    return jobs


async def refresh_gauges(app: App) -> None:
    """Queue depth and lessons by status, read from the database for the next scrape."""
    assert app.metrics is not None
    counts = await app.store.count_by_status()
    for waiting in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        app.metrics.queue.labels(waiting.value).set(counts.get(waiting, 0))
    gate = app.notes.gate
    for kind, value in (
        ("limit", gate.limit),
        ("ceiling", gate.ceiling),
        ("running", gate.active),
        ("waiting", gate.waiting),
    ):
        app.metrics.admission.labels(kind).set(value)
    if app.memory is not None:
        items = await app.memory.store.items()
        for status in LessonStatus:
            app.metrics.lessons.labels(status.value).set(
                sum(1 for i in items if i.status == status)
            )


async def start_metrics(app: App, stack: AsyncExitStack) -> int | None:
    port = app.settings.ops.metrics_port
    if not port or app.metrics is None:
        return None
    runner = web.AppRunner(app.metrics.app())
    await runner.setup()
    stack.push_async_callback(runner.cleanup)
    ops = app.settings.ops
    await listen(runner, ops.metrics_address, port, "EVONOTE_OPS__METRICS_PORT")
    await refresh_gauges(app)
    return port


async def listen(runner: web.AppRunner, address: str, port: int, variable: str) -> None:
    """Serve `runner` on address:port, or one line naming the variable when it cannot."""
    try:
        await web.TCPSite(runner, address, port).start()
    except OSError as e:
        raise ConfigurationError(
            f"{variable}: cannot listen on {address}:{port} ({e.strerror or e}): another "
            "process holds the port, or the address is not this machine's; choose another"
        ) from e


def digest_job(
    app: App, slack: AsyncWebClient | None, discord_client: discord.Client | None
) -> Job | None:
    slack_channel = app.settings.slack.digest_channel if slack is not None else None
    discord_channel = app.settings.discord.digest_channel if discord_client is not None else None
    if not slack_channel and not discord_channel:
        return None
    memory_store = make_memory_store(app)

    async def post_digest() -> None:
        standing = await app.desk.standing()
        outcome = await app.desk.live_outcome()
        built = await build_digest(app.store, memory_store, standing=standing, on_x=outcome)
        if slack is not None and slack_channel:
            await post_to_slack(slack, slack_channel, built)
        if discord_client is not None and discord_channel:
            await post_to_discord(discord_client, int(discord_channel), built)

    return Job("post_digest", post_digest, 24 * 3600)


async def start_scheduler(
    app: App,
    stack: AsyncExitStack,
    slack: SlackFrontend | None,
    discord_bot: DiscordFrontend | None = None,
    *,
    run_episodes: bool = True,
) -> JobScheduler | None:
    """The periodic jobs. `run_episodes`: this process also runs episodes (role all); with
    separate workers, new episodes are only queued here."""
    jobs = scheduled_jobs(app)
    digest = digest_job(
        app, slack.client if slack else None, discord_bot.client if discord_bot else None
    )
    if digest is not None:
        jobs.append(digest)
    ops = app.settings.ops
    if run_episodes:
        views = CardViews(
            app, slack.client if slack else None, discord_bot.client if discord_bot else None
        )

        async def recover_episodes() -> None:
            # Episodes queued for two minutes are nobody's: their front end or worker is gone.
            await app.notes.recover(
                ops.max_attempts,
                queued_for_s=120,
                progress_for=views.progress_for,
                finished=views.finished,
            )

        jobs.append(Job("recover_episodes", recover_episodes, ops.recover_every_s, at_start=True))
    if app.metrics is not None and app.settings.ops.metrics_port:
        jobs.append(Job("refresh_gauges", lambda: refresh_gauges(app), 30))
    scanner = make_scanner(app)
    if scanner is not None:
        stack.push_async_callback(scanner.close)  # its HTTP session
        channel = app.settings.x.watch_channel

        background = BackgroundTasks("watchlist")

        desk = app.cards

        async def run_quietly(episode_id: int) -> None:
            await desk.run_behind(episode_id, None)  # no card to edit; a failure is stored

        async def scan_watchlists() -> None:
            for episode_id in await scanner.run_once():
                if slack is not None and channel:
                    slack.background.spawn(slack.follow(episode_id, channel))
                elif run_episodes:
                    background.spawn(run_quietly(episode_id))

        jobs.append(Job("scan_watchlists", scan_watchlists, app.settings.x.watch_every_s))
    if not jobs:
        return None
    scheduler = make_scheduler(app, jobs)
    scheduler.start()
    stack.push_async_callback(scheduler.stop)
    return scheduler


def slack_http_app(frontend: SlackFrontend) -> web.Application:
    """POST /slack/events takes events, commands and interactivity (Bolt checks signatures)."""

    async def events(request: web.Request) -> web.Response:
        # Bolt parses the body before it checks the signature and raises on a malformed one.
        try:
            bolt_request = await to_bolt_request(request)
        except (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError):
            return web.Response(status=400, text="malformed request body")
        stamp = bolt_request.headers.get("x-slack-request-timestamp", [""])
        if not isinstance(bolt_request.body, dict) or not (stamp and stamp[0].isdigit()):
            return web.Response(status=400, text="malformed request")
        response = await frontend.app.async_dispatch(bolt_request)
        if response.status >= 500:
            # Listeners answer after the ack, so a 5xx here is Bolt failing to read a signed
            # but malformed body (it has logged why): the sender's fault, not the server's.
            return web.Response(status=400, text="this request could not be processed")
        return await to_aiohttp_response(response)

    application = web.Application()
    application.router.add_post("/slack/events", events)
    return application


def connecting(stack: AsyncExitStack, name: str) -> BackgroundTasks:
    """Background connection attempts, cancelled when the process stops."""
    tasks = BackgroundTasks(name)

    async def cancel() -> None:
        for task in list(tasks.tasks):
            task.cancel()
        await tasks.drain()

    stack.push_async_callback(cancel)
    return tasks


async def slack_refusal(check: Awaitable[object], variable: str) -> None:
    """A Web API call that must succeed before connecting; a refused token is final."""
    try:
        await check
    except SlackApiError as e:
        error = e.response.get("error", "an error") if e.response is not None else "an error"
        raise ServiceRefused(f"Slack refused the token ({error}): check {variable}") from e


async def start_slack(
    app: App, stack: AsyncExitStack, state: ServiceState, run_episodes: bool = True
) -> SlackFrontend | None:
    frontend = make_slack_frontend(app, run_episodes)
    if frontend is None:
        return None
    s = app.settings.slack
    stack.push_async_callback(frontend.background.drain)
    if s.mode == "socket":
        if s.app_token is None:
            raise ConfigurationError(
                "EVONOTE_SLACK__APP_TOKEN is not set (socket mode needs "
                "an xapp- token; or set EVONOTE_SLACK__MODE=http)"
            )
        app_token = s.app_token.get_secret_value()
        handler = AsyncSocketModeHandler(frontend.app, app_token)
        stack.push_async_callback(handler.close_async)

        async def connect() -> None:
            # The socket-mode client retries forever with a traceback each time; it is
            # started only once Slack has answered both tokens.
            client = frontend.client
            await slack_refusal(client.auth_test(), "EVONOTE_SLACK__BOT_TOKEN")
            opened = client.apps_connections_open(app_token=app_token)
            await slack_refusal(opened, "EVONOTE_SLACK__APP_TOKEN")
            await handler.connect_async()  # type: ignore[no-untyped-call]

    else:
        if s.signing_secret is None:
            raise ConfigurationError(
                "EVONOTE_SLACK__SIGNING_SECRET is not set (HTTP mode verifies every request)"
            )
        runner = web.AppRunner(slack_http_app(frontend))
        await runner.setup()
        stack.push_async_callback(runner.cleanup)
        await listen(runner, "0.0.0.0", s.port, "EVONOTE_SLACK__PORT")

        async def connect() -> None:  # requests come in already; cards need the Web API
            await slack_refusal(frontend.client.auth_test(), "EVONOTE_SLACK__BOT_TOKEN")

    state.connect_in(connecting(stack, "slack connection"), "Slack", connect)
    return frontend


async def discord_login(client: discord.Client, token: str) -> None:
    """Log in once Discord answers at all: a failed login leaves discord.py's HTTP session
    half made, so reachability is tested first with a plain request."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{discord.http.Route.BASE}/gateway"),
    ):
        pass
    try:
        await client.login(token)
    except discord.LoginFailure as e:
        raise ServiceRefused("Discord refused the token: check EVONOTE_DISCORD__BOT_TOKEN") from e


async def start_discord(
    app: App, stack: AsyncExitStack, state: ServiceState, run_episodes: bool = True
) -> DiscordFrontend | None:
    frontend = make_discord_frontend(app, run_episodes)
    token = app.settings.discord.bot_token
    if frontend is None or token is None:
        return None
    stack.push_async_callback(frontend.client.close)
    stack.push_async_callback(frontend.background.drain)

    async def connect() -> None:
        await discord_login(frontend.client, token.get_secret_value())
        # discord.py reconnects by itself from here on, with its own backoff.
        frontend.background.spawn(frontend.client.connect())

    state.connect_in(connecting(stack, "discord connection"), "Discord", connect)
    return frontend


async def start_worker(app: App, stack: AsyncExitStack, state: ServiceState) -> None:
    slack = make_slack_frontend(app, run_episodes=False)
    discord_client = make_discord_rest_client(app.settings)
    if discord_client is not None:  # REST only: a worker edits messages, it does not listen
        token = app.settings.discord.bot_token
        assert token is not None
        stack.push_async_callback(discord_client.close)
        secret = token.get_secret_value()

        async def login() -> None:
            await discord_login(discord_client, secret)

        state.connect_in(connecting(stack, "discord login"), "Discord", login)
    views = CardViews(app, slack.client if slack else None, discord_client)
    task = asyncio.create_task(run_workers(app, views))

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    stack.push_async_callback(stop)


async def serve(settings: Settings, ready: asyncio.Event | None = None, role: str = "all") -> int:
    """Run the parts of EvoNote this process's role calls for, until SIGTERM or Ctrl-C (exit
    0, at any moment, start-up included) or cancellation."""
    configure_logging(settings.ops.log_format, settings.ops.log_level)
    with StopSignals() as stop:
        try:
            async with AsyncExitStack() as stack:
                await start_role(settings, stack, role, stop)
                if ready is not None:
                    ready.set()
                stop.serving = True
                await stop.event.wait()
                # Stop taking work, let running episodes finish for the grace period, requeue
                # the rest; then the stack closes the front ends (their cards show what became
                # of each episode).
                grace = settings.ops.shutdown_grace_s
                say(f"stopping ({stop.name}; up to {grace:.0f} s for running episodes)")
                app = stop.app
                assert app is not None
                await app.notes.shutdown(grace)
        except asyncio.CancelledError:
            if not stop.name:
                raise
            say(f"stopping ({stop.name}, while starting)")
    say("stopped")
    return 0


async def start_role(
    settings: Settings, stack: AsyncExitStack, role: str, stop: StopSignals
) -> None:
    app = stop.app = await stack.enter_async_context(build(settings, role="serve"))
    # The draft checks' and the lesson filter's word lists, before any request: 2.6 s of CPU
    # that, read by the first episode, held the interpreter while a burst's first episodes
    # and its chat acks waited (#47: on the stand-in, 30 at once, p50 81.6 s → see
    # docs/benchmarks.md).
    await load_word_lists()
    state = ServiceState()
    metrics_port = await start_metrics(app, stack)
    run_here = role == "all"
    slack = discord_bot = scheduler = None
    if role in ("all", "gateway"):
        slack = await start_slack(app, stack, state, run_episodes=run_here)
        discord_bot = await start_discord(app, stack, state, run_episodes=run_here)
        start_replay(app, stack, slack, discord_bot, run_episodes=run_here)  # the spool
    if role == "scheduler":
        slack = make_slack_frontend(app, run_episodes=False)  # digest and watch cards only
    if role in ("all", "scheduler"):
        scheduler = await start_scheduler(app, stack, slack, discord_bot, run_episodes=run_here)
    if role == "worker":
        await start_worker(app, stack, state)
    parts = [
        f"role {role}",
        f"scheduler ({', '.join(j.name for j in scheduler.jobs)})" if scheduler else "no scheduler",
        f"Slack ({settings.slack.mode} mode, {state.describe('Slack')})"
        if slack and role != "scheduler"
        else "no Slack app",
        f"Discord ({state.describe('Discord')})" if discord_bot else "no Discord bot",
        f"{settings.ops.workers} workers" if role == "worker" else "no queue workers",
        f"metrics on {settings.ops.metrics_address}:{metrics_port}/metrics"
        if metrics_port
        else "no metrics endpoint",
    ]
    say(f"serving: {', '.join(parts)}; Ctrl-C stops it")


class StopSignals:
    """SIGTERM and SIGINT (Ctrl-C) stop `serve` cleanly: once serving, they end the wait;
    while starting, they cancel the start-up, whose stack closes whatever had started."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.name = ""  # the signal that stopped it
        self.serving = False
        self.app: App | None = None
        self.task: asyncio.Task[object] | None = None
        # Signal handlers belong to the main thread (tests call serve() from others).
        self.handled = threading.current_thread() is threading.main_thread()

    def _stop(self, name: str) -> None:
        if self.name:
            return  # a second Ctrl-C while stopping changes nothing
        self.name = name
        self.event.set()
        if not self.serving and self.task is not None:
            self.task.cancel()

    def __enter__(self) -> StopSignals:
        self.task = asyncio.current_task()
        if self.handled:
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, self._stop, "SIGTERM")
            loop.add_signal_handler(signal.SIGINT, self._stop, "Ctrl-C")
        return self

    def __exit__(self, *_: object) -> None:
        if self.handled:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
