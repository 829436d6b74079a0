"""Experience-memory numbers. Prints; asserts nothing.

    python -m bench.memory [--sizes 10000,100000,1000000] [--episodes 200]

1. Dense retrieval latency (FAISS flat inner product, 384-d, one thread) at each size,
   p50/p99 over 200 queries; targets ≤ 5 ms at 1e5 and ≤ 50 ms at 1e6.
2. Index rebuild time at 1e5 items from stored vectors, and the local embedder's throughput
   (what a rebuild from the database costs when vectors must be recomputed).
3. Lessons stored after N scripted episodes, merging on versus off, with the real embedder:
   each episode distils 1-3 lessons, paraphrases of 30 underlying lessons.
4. Hybrid retrieval (dense + BM25, fused) through ExperienceMemory at 1e4 lessons.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from typing import Any

import numpy as np

from adapters.embeddings.minilm import LocalEmbedder, MiniLMEncoder
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.memory_store import SqlMemoryStore
from memory.experience import ExperienceMemory
from memory.index import VectorIndex
from memory.models import LessonKind, MemoryItem
from pipeline.ports import MemoryPhase

DIM = 384


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def unit(rng: np.random.Generator, n: int) -> Any:
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def dense_numbers(sizes: list[int]) -> None:
    rng = np.random.default_rng(7)
    print("1. dense retrieval, top-4 (FAISS exhaustive fp16 inner product, IndexIDMap2, 1 thread)")
    for size in sizes:
        index = VectorIndex(DIM)
        for start in range(0, size, 100_000):
            count = min(100_000, size - start)
            index.upsert_sync(list(range(start, start + count)), unit(rng, count))
        queries = unit(rng, 200)
        latencies = []
        for query in queries:
            started = time.perf_counter()
            index.search_sync(query, 4)
            latencies.append(1000 * (time.perf_counter() - started))
        print(
            f"   {size:>9,} items: p50 {pct(latencies, 0.5):7.2f} ms · "
            f"p99 {pct(latencies, 0.99):7.2f} ms"
        )
        del index


def rebuild_numbers() -> None:
    rng = np.random.default_rng(8)
    vectors = unit(rng, 100_000)
    started = time.perf_counter()
    index = VectorIndex(DIM)
    index.upsert_sync(list(range(100_000)), vectors)
    elapsed = time.perf_counter() - started
    encoder = MiniLMEncoder()
    texts = [f"posts claiming that remedy number {i} cures a chronic disease" for i in range(256)]
    started = time.perf_counter()
    for i in range(0, len(texts), 32):
        encoder.encode(texts[i : i + 32])
    rate = len(texts) / (time.perf_counter() - started)
    print(
        f"2. rebuild of 100,000 items from stored vectors: {elapsed:.2f} s; local embedder "
        f"{rate:.0f} triggers/s (re-embedding 100,000 would take {100_000 / rate / 60:.0f} "
        "min, which is why the index is saved and reused)"
    )


TOPICS = [
    "vaccines and autism",
    "fluoride in tap water",
    "5G towers and covid",
    "ivermectin as a cure",
    "raw milk",
    "sunscreen and cancer",
    "measles being harmless",
    "detox teas",
    "microwaved food",
    "HPV vaccine and fertility",
    "statins",
    "apple cider vinegar for diabetes",
    "chemtrails",
    "essential oils for infections",
    "masks and oxygen levels",
    "alkaline water",
    "the keto diet curing cancer",
    "antibiotics for colds",
    "flu shots causing flu",
    "GMO foods",
    "cell phones and brain tumours",
    "colloidal silver",
    "mRNA vaccines changing DNA",
    "vitamin C megadoses",
    "autism and diet",
    "hydroxychloroquine",
    "black seed oil",
    "fasting and covid",
    "turmeric replacing chemotherapy",
    "vaping as harmless",
]
FRAMES = [
    "posts claiming {t}",
    "posts that spread claims about {t}",
    "social media posts about {t}",
    "viral posts on {t}",
]
STRATEGIES = [
    "search the national health agency's page on {t} first",
    "look up the health agency guidance about {t} before other sources",
    "start with the official health body's page on {t}",
]


def lesson_stream(episodes: int, rng: random.Random) -> list[list[MemoryItem]]:
    stream = []
    for _ in range(episodes):
        batch = []
        for _ in range(rng.randint(1, 3)):
            topic = rng.choice(TOPICS)
            batch.append(
                MemoryItem(
                    phase=MemoryPhase.EVIDENCE_ACQUISITION,
                    kind=LessonKind.IMPROVE,
                    trigger=rng.choice(FRAMES).format(t=topic),
                    strategy=rng.choice(STRATEGIES).format(t=topic),
                )
            )
        stream.append(batch)
    return stream


async def hybrid_and_merge_numbers(episodes: int) -> None:
    embedder = LocalEmbedder()
    with tempfile.TemporaryDirectory() as folder:
        for merge in (True, False):
            url = f"sqlite+aiosqlite:///{folder}/m-{merge}.db"
            await upgrade(url)
            engine = make_engine(url)
            memory = ExperienceMemory(SqlMemoryStore(engine), embedder)
            await memory.load()
            for batch in lesson_stream(episodes, random.Random(3)):
                for item in batch:
                    await memory.add_or_reinforce(item, "bench", merge=merge)
            stored = len(memory.items)
            print(
                f"3. after {episodes} episodes, merging {'on ' if merge else 'off'}: "
                f"{stored} lessons ({stored / episodes:.2f} per episode)"
            )
            await engine.dispose()
        # 4. hybrid retrieval over 1e4 synthetic lessons (vectors random, words real)
        url = f"sqlite+aiosqlite:///{folder}/hybrid.db"
        await upgrade(url)
        engine = make_engine(url)
        store = SqlMemoryStore(engine)
        memory = ExperienceMemory(store, embedder)
        rng = np.random.default_rng(9)
        items = [
            MemoryItem(
                id=i + 1,
                phase=MemoryPhase.EVIDENCE_ACQUISITION,
                kind=LessonKind.IMPROVE,
                trigger=FRAMES[i % 4].format(t=TOPICS[i % 30]) + f" #{i}",
                strategy="s",
            )
            for i in range(10_000)
        ]
        await memory._index(items, unit(rng, len(items)))
        queries = [f"a post about {t}" for t in TOPICS] * 4
        latencies = []
        for query in queries:
            await memory._query_vector(query)  # embedding is measured in 2.; ranking here
            started = time.perf_counter()
            await memory.ranked(MemoryPhase.EVIDENCE_ACQUISITION, query, 4)
            latencies.append(1000 * (time.perf_counter() - started))
        print(
            f"4. hybrid retrieval (dense + BM25 + fusion) at 10,000 lessons: "
            f"p50 {pct(latencies, 0.5):.2f} ms · p99 {pct(latencies, 0.99):.2f} ms "
            "(first query includes the BM25 build)"
        )
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--episodes", type=int, default=200)
    args = parser.parse_args()
    dense_numbers([int(s) for s in args.sizes.split(",")])
    rebuild_numbers()
    asyncio.run(hybrid_and_merge_numbers(args.episodes))


if __name__ == "__main__":
    main()
