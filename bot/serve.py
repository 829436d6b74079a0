"""`evonote serve`: the scheduler and the chat front ends in one process, until stopped."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from functools import partial

from aiohttp import web

from bot.app import (
    App,
    build,
    make_evolver,
    make_late_revisions,
    make_memory_store,
    make_scanner,
    make_scheduler,
)
from bot.background import BackgroundTasks
from bot.connecting import ServiceState, listen, say
from bot.digest import Digest, build_digest
from bot.front_ends.platform import HeldFrontEnd
from bot.front_ends.registry import PLATFORMS
from bot.metrics import configure_logging
from bot.replay import start_replay
from bot.settings import Settings
from bot.worker import CardViews, run_workers
from pipeline.desk.standing import WriterStanding
from pipeline.drafting.vocabulary import load_word_lists
from scheduler.digest import DIGEST_EVERY_S, post_digest
from scheduler.gauges import refresh_gauges as refresh_gauges_job
from scheduler.jobs import Job, JobScheduler
from scheduler.memory_upkeep import evolve, upkeep_memory
from scheduler.notes_sent import revise_sent_notes, submit_queued, sync_note_status
from scheduler.recovery import recover_episodes
from scheduler.watchlist import scan_watchlists


def scheduled_jobs(app: App) -> list[Job]:
    """The periodic jobs this configuration calls for (run behind the scheduler lease)."""
    jobs: list[Job] = []
    memory, m = app.memory, app.settings.memory
    if memory is not None:
        evolver = make_evolver(app.settings, app.engine, memory, app.client)
        jobs += [
            Job("evolve", partial(evolve, evolver, memory), m.evolve_every_s),
            Job("upkeep_memory", partial(upkeep_memory, memory), m.upkeep_every_s),
        ]
    submitter = app.submitter
    if submitter is not None:
        x = app.settings.x
        jobs += [
            Job("sync_note_status", partial(sync_note_status, submitter), x.sync_every_s),
            Job("submit_queued", partial(submit_queued, submitter), x.sync_every_s),
        ]
        if (reviser := make_late_revisions(app)) is not None:
            jobs.append(
                Job("revise_sent_notes", partial(revise_sent_notes, reviser), x.revise_every_s)
            )
    return jobs


async def refresh_gauges(app: App) -> None:
    """Queue depth and lessons by status, read from the database for the next scrape."""
    assert app.metrics is not None
    lessons = app.memory.store if app.memory is not None else None
    await refresh_gauges_job(app.metrics, app.store, app.notes.gate, lessons)


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


def digest_job(app: App, front_ends: Mapping[str, HeldFrontEnd]) -> Job | None:
    posters = [p for f in front_ends.values() if (p := f.digest_poster()) is not None]
    if not posters:
        return None
    memory_store = make_memory_store(app)

    def build(standing: WriterStanding | None, on_x: str | None) -> Awaitable[Digest]:
        return build_digest(app.store, memory_store, standing=standing, on_x=on_x)

    return Job("post_digest", partial(post_digest, app.desk, build, posters), DIGEST_EVERY_S)


def watch_follower(
    app: App, front_ends: Mapping[str, HeldFrontEnd], run_episodes: bool
) -> Callable[[int], None] | None:
    """Where a watchlist find goes: its card on the first front end that shows watch cards;
    else, where this process runs episodes, run without a card (a failure is stored)."""
    followers = (f for held in front_ends.values() if (f := held.watch_follower()) is not None)
    if (follow := next(followers, None)) is not None or not run_episodes:
        return follow
    background, desk = BackgroundTasks("watchlist"), app.cards

    async def run_quietly(episode_id: int) -> None:
        await desk.run_behind(episode_id, None)  # no card to edit; a failure is stored

    return lambda episode_id: background.spawn(run_quietly(episode_id))


async def start_scheduler(
    app: App,
    stack: AsyncExitStack,
    front_ends: Mapping[str, HeldFrontEnd],
    *,
    run_episodes: bool = True,
) -> JobScheduler | None:
    """The periodic jobs. `run_episodes`: this process also runs episodes (role all); with
    separate workers, new episodes are only queued here."""
    jobs = scheduled_jobs(app)
    digest = digest_job(app, front_ends)
    if digest is not None:
        jobs.append(digest)
    ops = app.settings.ops
    if run_episodes:
        recover = partial(recover_episodes, app.notes, CardViews(app, front_ends), ops.max_attempts)
        jobs.append(Job("recover_episodes", recover, ops.recover_every_s, at_start=True))
    if app.metrics is not None and app.settings.ops.metrics_port:
        jobs.append(Job("refresh_gauges", partial(refresh_gauges, app), 30))
    scanner = make_scanner(app)
    if scanner is not None:
        stack.push_async_callback(scanner.close)  # its HTTP session
        follow = watch_follower(app, front_ends, run_episodes)
        scan = partial(scan_watchlists, scanner, follow)
        jobs.append(Job("scan_watchlists", scan, app.settings.x.watch_every_s))
    if not jobs:
        return None
    scheduler = make_scheduler(app, jobs)
    scheduler.start()
    stack.push_async_callback(scheduler.stop)
    return scheduler


async def start_worker(app: App, stack: AsyncExitStack, state: ServiceState) -> None:
    front_ends = {}
    for platform in PLATFORMS.values():
        if (held := await platform.reach(app, stack, state)) is not None:
            front_ends[platform.name] = held
    views = CardViews(app, front_ends)
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
    listening: dict[str, HeldFrontEnd] = {}
    held: dict[str, HeldFrontEnd] = {}
    scheduler = None
    if role in ("all", "gateway"):
        for platform in PLATFORMS.values():
            if (front_end := await platform.listen(app, stack, state, run_here)) is not None:
                listening[platform.name] = front_end
        held = listening
        start_replay(app, stack, listening, run_episodes=run_here)  # the spool
    if role == "scheduler":  # digest and watch cards only
        held = {p.name: f for p in PLATFORMS.values() if (f := p.schedule(app)) is not None}
    if role in ("all", "scheduler"):
        scheduler = await start_scheduler(app, stack, held, run_episodes=run_here)
    if role == "worker":
        await start_worker(app, stack, state)
    parts = [
        f"role {role}",
        f"scheduler ({', '.join(j.name for j in scheduler.jobs)})" if scheduler else "no scheduler",
        *(
            listening[p.name].describe(state) if p.name in listening else p.absent
            for p in PLATFORMS.values()
        ),
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
