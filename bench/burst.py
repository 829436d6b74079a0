"""A burst of requests against a model server that saturates. Prints numbers; asserts nothing.

    python -m bench.burst [--requests 200] [--delay 2] [--capacity 8] [--workers 8 ...]
                          [--profile h200-27b] [--forecast]

The whole application (`bot.app.build`: real openai client, SQLite, the local corpus) against
the simulated OpenAI-compatible server, whose calls take `--delay` seconds while at most
`--capacity` run at once and slow down in proportion beyond it — as a GPU server's batch does.
For each `--workers` value (episodes one process admits at once; a value ≥ the burst size is
"no admission control") it reports noted / abstained / failed, how many abstained for lack of
time, queue wait p50/p95 (submitted → running) and run time p50/p95 (running → finished),
against the episode deadline. `--profile` replaces the fixed delay with a model-server
profile (prefill, contended decoding, realistic output lengths); `--forecast` runs the persona
panel after each note, as `serve` does, and the wall time then includes it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from bot.app import build
from bot.settings import Settings
from bot.simulator.model import ResearchPolicy
from bot.simulator.profile import PROFILES
from bot.simulator.server import SimulatedModelServer
from pipeline.desk.note_desk import NoteDesk
from pipeline.request import NoteRequest

DOCUMENTS = [
    {
        "url": "https://www.cdc.gov/vaccines/mmr-safety",
        "title": "MMR vaccine safety",
        "text": "Many studies have found no link between the MMR vaccine and autism.",
    },
    {
        "url": "https://medlineplus.gov/measles.html",
        "title": "Measles",
        "text": "The measles vaccine (MMR) is safe and protects against measles.",
    },
]


def write_corpus(folder: Path) -> None:
    """The benchmark's evidence: a few pages, in `folder/corpus.jsonl`."""
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps(d) for d in DOCUMENTS) + "\n", encoding="utf-8"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def burst(
    folder: Path, server: SimulatedModelServer, requests: int, workers: int, forecast: bool
) -> str:
    os.environ.update(
        {
            "EVONOTE_DATA_DIR": str(folder / f"w{workers}"),
            "EVONOTE_LLM__BASE_URL": server.base_url,
            "EVONOTE_SEARCH__CORPUS": str(folder / "corpus.jsonl"),
            "EVONOTE_MEMORY__MODE": "off",
            "EVONOTE_FORECAST__ENABLED": str(forecast).lower(),
            "EVONOTE_OPS__WORKERS": str(workers),
        }
    )
    settings = Settings()
    started = time.perf_counter()
    async with build(settings) as app:
        desk = NoteDesk(app.notes, app.desk)
        rows = await asyncio.gather(
            *(
                desk.check(NoteRequest(post_ref=f"The MMR vaccine causes autism ({i})"))
                for i in range(requests)
            ),
            return_exceptions=True,
        )
    wall = time.perf_counter() - started
    done = [r for r in rows if not isinstance(r, BaseException)]
    status = {s: sum(r.status == s for r in done) for s in ("noted", "abstained", "failed")}
    out_of_time = sum(
        r.status == "abstained" and "deadline" in (r.abstain_reason or "") for r in done
    )
    waits = [(r.started_at - r.created_at).total_seconds() for r in done if r.started_at]
    runs = [
        (r.finished_at - r.started_at).total_seconds()
        for r in done
        if r.started_at and r.finished_at
    ]
    return (
        f"workers {workers:>4}: noted {status['noted']:>4}, abstained {status['abstained']:>4} "
        f"({out_of_time} for lack of time), failed {status['failed'] + len(rows) - len(done):>3};"
        f" queue wait p50 {statistics.median(waits):6.1f} s p95 {percentile(waits, 0.95):6.1f} s;"
        f" run time p50 {statistics.median(runs):5.1f} s p95 {percentile(runs, 0.95):5.1f} s"
        f" (deadline {settings.budget.deadline_s:.0f} s); wall {wall:.0f} s,"
        f" {60 * status['noted'] / wall:.1f} notes/min"
    )


async def main_async(args: argparse.Namespace) -> None:
    profile = PROFILES.get(args.profile or "")
    server = SimulatedModelServer(
        ResearchPolicy(), delay_s=args.delay, batch_capacity=args.capacity, profile=profile
    ).start()
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            write_corpus(folder)
            behaves = (
                f"model server profile {profile.name}"
                if profile
                else f"model calls {args.delay} s each, {args.capacity} at full speed"
            )
            forecast = "with" if args.forecast else "without"
            print(f"{args.requests} requests at once; {behaves}; {forecast} the forecast")
            for workers in args.workers:
                line = await burst(folder, server, args.requests, workers, args.forecast)
                print(line, flush=True)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--delay", type=float, default=2.0, help="seconds per model call")
    parser.add_argument("--capacity", type=int, default=8, help="calls served at full speed")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[8, 200], help="admission limits to compare"
    )
    parser.add_argument("--profile", choices=sorted(PROFILES), help="model-server profile")
    parser.add_argument("--forecast", action="store_true", help="run the persona panel too")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
