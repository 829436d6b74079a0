"""Orchestration overhead and the effect of concurrent visits. Prints numbers; asserts nothing.

    python -m bench.overhead [--episodes 100] [--concurrency 16] [--model-latency 0.2]
                             [--page-latency 0.3] [--sweep]

(a) Against a scripted OpenAI-compatible server that answers at once (in another process, so
    its CPU is not counted): CPU time of this process per episode — the real openai client,
    the episode loop, BM25 search and SQLite journaling — and episodes per second.
(b) With a fixed latency per model call and per page read: each episode's wall time against
    the sum of its latencies (the critical-path ratio). Visits of one step run concurrently,
    so the wall time is smaller.
(c) With --sweep: the same latencies, episodes per minute and p95 latency as the number of
    concurrent episodes grows from 1 to 64 in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing as mp
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

from adapters.local_corpus import LocalCorpus
from adapters.openai_chat import OpenAIChatModel
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.app import openai_client
from pipeline.budget import EvidenceBudget
from pipeline.desk.notes import NoteService
from pipeline.desk.posts import PostResolver
from pipeline.episode import EpisodeRunner
from pipeline.evidence import Page
from pipeline.ports import NoMemory
from pipeline.request import NoteRequest

POST = "The measles vaccine causes autism, so skip the MMR shot."
DOCS = [
    {
        "url": f"https://health.example/{i}",
        "title": f"Measles and vaccines {i}",
        "text": (
            "Measles is a contagious disease. Studies find no link between the MMR vaccine "
            "and autism. Two doses are 97% effective. "
        )
        * 20,
    }
    for i in range(40)
]


# Replaced by --lean: the foundation loop without page notes and the support check.
BUDGET = EvidenceBudget()


def _serve(conn: Connection, delay_s: float, pages_per_visit: int) -> None:
    from bot.simulator.model import ResearchPolicy
    from bot.simulator.server import SimulatedModelServer

    server = SimulatedModelServer(
        ResearchPolicy(pages_per_visit=pages_per_visit), delay_s=delay_s
    ).start()
    conn.send(server.port)
    conn.recv()  # wait until told to stop
    server.stop()


class DelayedReader:
    def __init__(self, inner: LocalCorpus, delay_s: float) -> None:
        self.inner = inner
        self.delay_s = delay_s
        self.reads = 0

    async def read(self, url: str) -> Page:
        self.reads += 1
        await asyncio.sleep(self.delay_s)
        return await self.inner.read(url)


async def _run(
    port: int,
    episodes: int,
    concurrency: int,
    page_latency: float,
    model_latency: float,
    folder: Path,
) -> dict[str, float]:
    corpus_path = folder / "corpus.jsonl"
    corpus_path.write_text("\n".join(json.dumps(d) for d in DOCS))
    corpus = await LocalCorpus.open(corpus_path, folder / "corpus-cache")
    reader = DelayedReader(corpus, page_latency)
    url = f"sqlite+aiosqlite:///{folder / f'bench-{page_latency}.db'}"
    await upgrade(url)
    engine = make_engine(url)
    client = openai_client(f"http://127.0.0.1:{port}/v1", timeout_s=30)
    model = OpenAIChatModel(client, model="scripted-model")
    runner = EpisodeRunner(
        model=model, search=corpus, reader=reader, memory=NoMemory(), budget=BUDGET
    )
    service = NoteService(
        store=EpisodeStore(engine), posts=PostResolver(), runner=runner, worker_id="bench"
    )
    gate = asyncio.Semaphore(concurrency)
    walls: dict[int, float] = {}

    async def one() -> None:
        async with gate:
            started = time.perf_counter()
            row = await service.check(NoteRequest(post_ref=POST))
            walls[row.id or 0] = time.perf_counter() - started
            assert row.status == "noted", row.failure_reason or row.abstain_reason

    await one()  # warm-up: model discovery, first connections
    walls.clear()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one() for _ in range(episodes)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    latency_sums = []
    calls = 0
    for episode_id in walls:  # what a strictly sequential episode would have waited
        steps = await service.store.steps(episode_id)
        row = await service.store.get(episode_id)
        reads = sum(s.observation.count(": read (") for s in steps)
        notes = sum(1 for e in (row.evidence if row else []) if e.relevant is not None)
        calls += sum(1 for s in steps if s.model) + notes
        waited = sum(s.latency_s for s in steps) + notes * model_latency + page_latency * reads
        latency_sums.append(waited)
    await client.close()
    await engine.dispose()
    return {
        "cpu_ms_per_episode": 1000 * cpu / episodes,
        "model_calls_per_episode": calls / len(walls),
        "episodes_per_s": episodes / wall,
        "wall_p50_s": statistics.median(walls.values()),
        "wall_p95_s": sorted(walls.values())[max(0, math.ceil(0.95 * len(walls)) - 1)],
        "latency_sum_p50_s": statistics.median(latency_sums),
        "reads": reader.reads,
    }


def measure(
    delay_s: float, page_latency: float, episodes: int, concurrency: int, pages_per_visit: int
) -> dict[str, float]:
    parent, child = mp.Pipe()
    process = mp.get_context("spawn").Process(target=_serve, args=(child, delay_s, pages_per_visit))
    process.start()
    port = parent.recv()
    try:
        with tempfile.TemporaryDirectory() as folder:
            return asyncio.run(
                _run(port, episodes, concurrency, page_latency, delay_s, Path(folder))
            )
    finally:
        parent.send("stop")
        process.join(10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--model-latency", type=float, default=0.2)
    parser.add_argument("--page-latency", type=float, default=0.3)
    parser.add_argument("--pages-per-visit", type=int, default=4)
    parser.add_argument("--sweep", action="store_true", help="(c): concurrency 1 to 64")
    parser.add_argument(
        "--lean", action="store_true", help="no page notes and no support check (fewer model calls)"
    )
    args = parser.parse_args()
    global BUDGET
    if args.lean:
        BUDGET = EvidenceBudget(condense_pages=False, check_support=False)

    a = measure(0.0, 0.0, args.episodes, args.concurrency, args.pages_per_visit)
    print(
        "(a) instant model server, no page latency "
        f"({args.episodes} episodes, {args.concurrency} at a time)"
    )
    per_call = a["cpu_ms_per_episode"] / a["model_calls_per_episode"]
    print(
        f"    orchestration CPU per episode: {a['cpu_ms_per_episode']:.1f} ms (target ≤ 20 ms), "
        f"{a['model_calls_per_episode']:.1f} model calls ({per_call:.2f} ms per call)"
    )
    print(f"    throughput: {a['episodes_per_s']:.1f} episodes/s in one process")

    n = max(4, args.episodes // 10)
    b = measure(args.model_latency, args.page_latency, n, 1, args.pages_per_visit)
    print(
        f"(b) {args.model_latency:.2f} s per model call, {args.page_latency:.2f} s per page "
        f"read, {args.pages_per_visit} pages per visit step ({n} episodes, one at a time)"
    )
    print(
        f"    episode wall time p50: {b['wall_p50_s']:.2f} s; sum of its latencies p50: "
        f"{b['latency_sum_p50_s']:.2f} s; ratio {b['wall_p50_s'] / b['latency_sum_p50_s']:.2f}"
    )
    if args.sweep:
        print(f"(c) the same latencies, {args.pages_per_visit} pages per visit step")
        for concurrency in (1, 2, 4, 8, 16, 32, 64):
            episodes = max(8, 2 * concurrency)
            c = measure(
                args.model_latency, args.page_latency, episodes, concurrency, args.pages_per_visit
            )
            print(
                f"    {concurrency:>2} concurrent: {60 * c['episodes_per_s']:7.0f} episodes/min, "
                f"p50 {c['wall_p50_s']:.2f} s, p95 {c['wall_p95_s']:.2f} s ({episodes} episodes)",
                flush=True,
            )


if __name__ == "__main__":
    main()
