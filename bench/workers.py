"""Queue workers on PostgreSQL: episodes per minute and p95 latency with 1, 2 and 4 worker
processes against a model server that takes a fixed time per call. Prints; asserts nothing.

    python -m bench.workers [--episodes 48] [--model-latency 0.3] [--per-process 4]

Starts a throwaway PostgreSQL (the machine's binaries), a scripted OpenAI-compatible server,
and `evonote serve --role worker` processes; each measurement uses a fresh database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.simulator.model import ResearchPolicy
from bot.simulator.server import SimulatedModelServer
from pipeline.ports import MemoryMode
from pipeline.post import Post
from pipeline.request import NoteRequest
from tests.fakes.postgres import LocalPostgres, fresh_database, start_postgres

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    {
        "url": f"https://health.example/{i}",
        "title": f"Measles and vaccines {i}",
        "text": "Studies find no link between the MMR vaccine and autism. " * 20,
    }
    for i in range(20)
]


def spawn_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "serve", "--role", "worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def measure(
    server: LocalPostgres,
    model: SimulatedModelServer,
    corpus: Path,
    processes: int,
    episodes: int,
    per_process: int,
) -> tuple[float, float]:
    url = await fresh_database(server.port, "bench")
    name = url.rsplit("/", 1)[1]
    await upgrade(url)
    engine = make_engine(url)
    store = EpisodeStore(engine)
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update(
        {
            "EVONOTE_DB__URL": url,
            "EVONOTE_LLM__BASE_URL": model.base_url,
            "EVONOTE_SEARCH__CORPUS": str(corpus),
            "EVONOTE_MEMORY__MODE": "off",
            "EVONOTE_FORECAST__ENABLED": "false",
            "EVONOTE_OPS__WORKERS": str(per_process),
            "EVONOTE_DATA_DIR": str(corpus.parent / name),
            "PYTHONPATH": str(ROOT),
        }
    )
    workers = [spawn_worker(env) for _ in range(processes)]
    await asyncio.sleep(4)  # let the workers start before the clock does
    started = time.perf_counter()
    ids = [
        (
            await store.create(
                NoteRequest(post_ref=f"p{i}"),
                Post(text=f"MMR causes autism, variant {i}"),
                MemoryMode.OFF,
            )
        ).id
        for i in range(episodes)
    ]
    while True:
        counts = await store.count_by_status()
        if counts.get("queued", 0) + counts.get("running", 0) == 0:
            break
        await asyncio.sleep(0.2)
    wall = time.perf_counter() - started
    for worker in workers:
        worker.terminate()
        worker.wait(10)
    rows = [await store.get(i or 0) for i in ids]
    latencies = sorted(
        (r.finished_at - r.created_at).total_seconds() for r in rows if r and r.finished_at
    )
    await engine.dispose()
    return episodes / wall * 60, latencies[int(0.95 * (len(latencies) - 1))]


async def main_async(args: argparse.Namespace) -> None:
    server = start_postgres()
    if server is None:
        print("PostgreSQL is not installed here; nothing to measure")
        return
    model = SimulatedModelServer(ResearchPolicy(), delay_s=args.model_latency).start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            corpus = Path(folder) / "corpus.jsonl"
            corpus.write_text("\n".join(json.dumps(d) for d in DOCS))
            results = []
            for processes in (1, 2, 4):
                per_minute, p95 = await measure(
                    server, model, corpus, processes, args.episodes, args.per_process
                )
                results.append(per_minute)
                print(
                    f"{processes} worker process(es) × {args.per_process} at a time: "
                    f"{per_minute:.0f} episodes/min, p95 latency {p95:.1f} s "
                    f"({args.episodes} episodes, {args.model_latency:.2f} s per model call)",
                    flush=True,
                )
            print(
                f"scaling 1→4 processes: ×{results[-1] / results[0]:.1f}; mean "
                f"{statistics.mean(results):.0f} episodes/min"
            )
    finally:
        model.stop()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=48)
    parser.add_argument("--model-latency", type=float, default=0.3)
    parser.add_argument("--per-process", type=int, default=4)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
