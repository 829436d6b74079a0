"""Orchestration overhead and the effect of concurrent visits. Prints numbers; asserts nothing.

    python -m bench.overhead [--episodes 100] [--concurrency 16] [--rounds 3]
                             [--model-latency 0.2] [--page-latency 0.3] [--sweep]

(a) Against a scripted OpenAI-compatible server that answers at once (in another process, so
    its CPU is not counted): CPU time of this process per episode — the real openai client
    over the transport the bot ships with, the episode loop, BM25 search and SQLite
    journaling — the median of `--rounds` runs, and episodes per second. Then, one episode at
    a time, where that CPU goes: model calls, queue and journal, the episode's own work.
(b) With a fixed latency per model call and per page read: each episode's wall time against
    the sum of its latencies (the critical-path ratio). Visits of one step run concurrently,
    so the wall time is smaller.
(c) With --sweep: the same latencies, episodes per minute and p95 latency as the number of
    concurrent episodes grows from 1 to 64 in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import math
import multiprocessing as mp
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from adapters.local_corpus import LocalCorpus
from adapters.openai_chat import OpenAIChatModel
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.app import openai_client
from pipeline.budget import EvidenceBudget
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.note_desk import NoteDesk
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


class Metered:
    """CPU (all threads: SQLite works in its own) spent while any of an object's coroutine
    methods is in flight; calls that overlap (an episode's page notes) count once. Meaningful
    only when one episode runs at a time: otherwise other episodes run meanwhile."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.cpu_s = 0.0
        self.calls = 0
        self._active = 0
        self._started = 0.0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def metered(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self._active == 0:
                self._started = time.process_time()
            self._active += 1
            try:
                return await attr(*args, **kwargs)
            finally:
                self._active -= 1
                if self._active == 0:
                    self.cpu_s += time.process_time() - self._started

        return metered


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
    model = Metered(OpenAIChatModel(client, model="scripted-model"))
    store = Metered(EpisodeStore(engine))
    runner = EpisodeRunner(
        model=model, search=corpus, reader=reader, memory=NoMemory(), budget=BUDGET
    )
    service = NoteService(store=store, posts=PostResolver(), runner=runner, worker_id="bench")
    desk = NoteDesk(service, ModeratorDesk(store))
    gate = asyncio.Semaphore(concurrency)
    walls: dict[int, float] = {}

    async def one() -> None:
        async with gate:
            started = time.perf_counter()
            row = await desk.check(NoteRequest(post_ref=POST))
            walls[row.id or 0] = time.perf_counter() - started
            assert row.status == "noted", row.failure_reason or row.abstain_reason

    await one()  # warm-up: model discovery, first connections
    walls.clear()
    model.cpu_s = store.cpu_s = 0.0
    model.calls = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(one() for _ in range(episodes)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    model_cpu, store_cpu, model_calls = model.cpu_s, store.cpu_s, model.calls
    latency_sums = []
    for episode_id in walls:  # what a strictly sequential episode would have waited
        steps = await service.store.steps(episode_id)
        row = await service.store.get(episode_id)
        reads = sum(s.observation.count(": read (") for s in steps)
        notes = sum(1 for e in (row.evidence if row else []) if e.relevant is not None)
        waited = sum(s.latency_s for s in steps) + notes * model_latency + page_latency * reads
        latency_sums.append(waited)
    await client.close()
    await engine.dispose()
    return {
        "cpu_ms_per_episode": 1000 * cpu / episodes,
        "model_client_ms": 1000 * model_cpu / episodes,
        "store_ms": 1000 * store_cpu / episodes,
        "model_calls_per_episode": model_calls / episodes,
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
    parser.add_argument("--rounds", type=int, default=3, help="(a) repeated; the median shown")
    parser.add_argument("--sweep", action="store_true", help="(c): concurrency 1 to 64")
    parser.add_argument(
        "--lean", action="store_true", help="no page notes and no support check (fewer model calls)"
    )
    args = parser.parse_args()
    global BUDGET
    if args.lean:
        BUDGET = EvidenceBudget(condense_pages=False, check_support=False)

    # Two cores shared with the server process: single runs wander by ±15%; report the median.
    runs = sorted(
        (
            measure(0.0, 0.0, args.episodes, args.concurrency, args.pages_per_visit)
            for _ in range(args.rounds)
        ),
        key=lambda r: r["cpu_ms_per_episode"],
    )
    a = runs[len(runs) // 2]
    print(
        "(a) instant model server, no page latency "
        f"({args.episodes} episodes, {args.concurrency} at a time, median of {args.rounds} runs)"
    )
    print(
        f"    orchestration CPU per episode: {a['cpu_ms_per_episode']:.1f} ms "
        f"(runs {runs[0]['cpu_ms_per_episode']:.1f}–{runs[-1]['cpu_ms_per_episode']:.1f}; "
        f"target ≤ 20 ms), {a['model_calls_per_episode']:.1f} model calls"
    )
    print(f"    throughput: {a['episodes_per_s']:.1f} episodes/s in one process")
    alone = measure(0.0, 0.0, max(10, args.episodes // 4), 1, args.pages_per_visit)
    calls = alone["model_calls_per_episode"]
    rest = alone["cpu_ms_per_episode"] - alone["model_client_ms"] - alone["store_ms"]
    print(
        f"    one at a time, where it goes: {alone['cpu_ms_per_episode']:.1f} ms = model calls "
        f"{alone['model_client_ms']:.1f} ms ({alone['model_client_ms'] / calls:.2f} ms per call: "
        f"SDK, HTTP, JSON, validation, and what runs beside them) + queue and journal "
        f"{alone['store_ms']:.1f} ms + the episode's own work {rest:.1f} ms"
    )

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
