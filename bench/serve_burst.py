"""A burst of requests through `serve`'s own path, from request to note on its card. Prints
numbers; asserts nothing.

    python -m bench.serve_burst [--requests 30] [--workers 8 32] [--profile h200-27b]
                                [--rounds 6] [--forecast] [--personas-per-note N]

What a moderator waits for is more than the episode: each request is accepted (stored as
queued, as a chat front end does), then `serve --role worker`'s loops (`bot.worker.run_workers`:
admission, the queue, the forecast lanes) take it; the clock stops when the note is on its card
and, with `--forecast`, again when its rater forecast is. Against the simulated model server
with a profile (prefill first-come, decoding that slows with the batch, realistic output
lengths) and the local corpus. For each `--workers` value: noted / abstained (for lack of time)
/ failed, request → note p50/p95, its queue wait and run time, the forecast's lag behind the
note, and the admission limit at the end with its reason.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path

from bench.burst import percentile, write_corpus
from bot.app import App, build
from bot.settings import Settings
from bot.simulator.model import ResearchPolicy
from bot.simulator.profile import PROFILES
from bot.simulator.server import SimulatedModelServer
from bot.worker import CardViews, run_workers
from pipeline.desk.episode import Episode
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus


class StopWatchViews(CardViews):
    """No chat platform: the moment each note, then its forecast, would be on the card."""

    def __init__(self, app: App) -> None:
        super().__init__(app, {})
        self.note_at: dict[int, float] = {}
        self.forecast_at: dict[int, float] = {}

    async def final(self, row: Episode) -> None:
        self.note_at.setdefault(row.id, time.perf_counter())

    async def forecast(self, row: Episode) -> Episode:
        forecasted = await super().forecast(row)
        if forecasted.forecast is not None:
            self.forecast_at.setdefault(row.id, time.perf_counter())
        return forecasted


def spread(values: list[float]) -> str:
    if not values:
        return "—"
    return f"p50 {statistics.median(values):5.1f} s p95 {percentile(values, 0.95):5.1f} s"


async def burst(
    folder: Path, server: SimulatedModelServer, args: argparse.Namespace, workers: int
) -> str:
    os.environ.update(
        {
            "EVONOTE_DATA_DIR": str(folder / f"w{workers}"),
            "EVONOTE_LLM__BASE_URL": server.base_url,
            "EVONOTE_SEARCH__CORPUS": str(folder / "corpus.jsonl"),
            "EVONOTE_MEMORY__MODE": "off",
            "EVONOTE_FORECAST__ENABLED": str(args.forecast).lower(),
            "EVONOTE_OPS__WORKERS": str(workers),
        }
    )
    if args.personas_per_note:
        os.environ["EVONOTE_FORECAST__PERSONAS_PER_NOTE"] = str(args.personas_per_note)
    settings = Settings()
    async with build(settings) as app:
        views = StopWatchViews(app)
        accepted: dict[int, float] = {}
        for i in range(args.requests):
            row = await app.notes.enqueue(
                NoteRequest(post_ref=f"The MMR vaccine causes autism ({i})")
            )
            accepted[row.id or 0] = time.perf_counter()
        workers_task = asyncio.create_task(run_workers(app, views, poll_s=0.2))
        try:
            while True:
                rows = [await app.store.get(i) for i in accepted]
                done = [r for r in rows if r is not None and r.status not in ("queued", "running")]
                noted = [r for r in done if r.status == EpisodeStatus.NOTED]
                forecasts_due = args.forecast and any(r.id not in views.forecast_at for r in noted)
                if len(done) == len(accepted) and not forecasts_due:
                    break
                await asyncio.sleep(0.5)
        finally:
            workers_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await workers_task
        gate = app.notes.gate
        limit = f"admission limit {gate.limit} at the end ({gate.why})"
    status = {s: sum(r.status == s for r in done) for s in ("noted", "abstained", "failed")}
    out_of_time = sum(
        r.status == "abstained" and "deadline" in (r.abstain_reason or "") for r in done
    )
    to_note = [views.note_at[i] - accepted[i] for i in views.note_at if i in accepted]
    waits = [(r.started_at - r.created_at).total_seconds() for r in done if r.started_at]
    runs = [
        (r.finished_at - r.started_at).total_seconds()
        for r in done
        if r.started_at and r.finished_at
    ]
    lag = [views.forecast_at[i] - views.note_at[i] for i in views.forecast_at if i in views.note_at]
    lines = [
        f"workers {workers:>3}: noted {status['noted']}, abstained {status['abstained']} "
        f"({out_of_time} for lack of time), failed {status['failed']}; {limit}",
        f"  request → note on its card {spread(to_note)}",
        f"  queue wait {spread(waits)}; run {spread(runs)} (deadline "
        f"{settings.budget.deadline_s:.0f} s)",
    ]
    if args.forecast:
        lines.append(f"  forecast lag behind the note {spread(lag)}")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    profile = PROFILES[args.profile]
    policy = ResearchPolicy(rounds=args.rounds)
    server = SimulatedModelServer(policy, profile=profile).start()
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            write_corpus(folder)
            forecast = "with" if args.forecast else "without"
            print(
                f"{args.requests} requests at once through serve's workers; model server "
                f"profile {profile.name}; {args.rounds} search round(s); {forecast} the forecast"
            )
            for workers in args.workers:
                print(await burst(folder, server, args, workers), flush=True)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--workers", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="h200-27b")
    parser.add_argument("--forecast", action="store_true", help="run the persona panel too")
    parser.add_argument(
        "--rounds", type=int, default=1, help="searches before the note (6: paper-like research)"
    )
    parser.add_argument("--personas-per-note", type=int, help="personas rating each note")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
