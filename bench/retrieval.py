"""Does the memory bring back lessons about the same kind of post? Prints numbers; asserts
nothing.

    python -m bench.retrieval [--data ../shared/data/covid_qa] [--train 0.7]

A labelled stream: the public-health questions of the COVID-QA pages (WHO myth-busters, FDA,
state health departments), each labelled by its page's topic, shuffled with a fixed seed (the
files come grouped by source). The first part becomes lessons — the question as the lesson's
trigger, as if a lesson had been distilled from a post about it — in a real memory (the local
MiniLM embedder, FAISS, BM25, SQLite). For every later question the top 4 lessons are
retrieved, and precision@4 is the share that carry the question's own topic: for dense (FAISS)
retrieval alone, lexical (BM25) alone, and the fused ranking the episodes use — which keeps
only lessons at least `min_similarity` like the question, so it may return fewer than 4: the
share on topic among those it returns, and the questions that get none, are printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from adapters.embeddings.minilm import LocalEmbedder
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.memory_store import SqlMemoryStore
from memory.experience import ExperienceMemory
from memory.models import LessonKind, MemoryItem
from pipeline.ports import MemoryPhase

PHASE = MemoryPhase.EVIDENCE_ACQUISITION
K = 4


def labelled(folder: Path) -> list[tuple[str, str]]:
    """(question, topic) pairs with exactly one topic, de-duplicated."""
    pairs: dict[str, str] = {}
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            topics = row.get("topic") or []
            question = " ".join(str(row.get("questionText") or "").split())
            if len(topics) == 1 and len(question.split()) >= 4:
                pairs.setdefault(question, str(topics[0]).strip().lower())
    return list(pairs.items())


async def run(folder: Path, train_share: float) -> None:
    pairs = labelled(folder)
    random.Random(0).shuffle(pairs)  # the pages come grouped by source; mix them, repeatably
    split = int(len(pairs) * train_share)
    train, test = pairs[:split], pairs[split:]
    topics = {t for _, t in train}
    test = [(q, t) for q, t in test if t in topics]  # a topic the memory can know about
    with tempfile.TemporaryDirectory() as name:
        url = f"sqlite+aiosqlite:///{name}/memory.db"
        await upgrade(url)
        engine = make_engine(url)
        memory = ExperienceMemory(SqlMemoryStore(engine), LocalEmbedder())
        await memory.load()
        started = time.perf_counter()
        topic_of: dict[int, str] = {}
        for question, topic in train:
            item, _ = await memory.add_or_reinforce(
                MemoryItem(
                    phase=PHASE,
                    kind=LessonKind.IMPROVE,
                    trigger=question,
                    strategy="search the health agency's pages on this question first",
                ),
                "bench",
                merge=False,
            )
            topic_of[item.id or 0] = topic
        built = time.perf_counter() - started
        scores: dict[str, list[float]] = {"dense": [], "lexical": [], "fused": []}
        returned: list[bool] = []  # same topic, for each lesson the floored ranking returned
        empty = 0  # questions for which no lesson clears the floor
        for question, topic in test:
            vector = await memory.embedder.embed([question])
            dense = [i for i, _ in await memory.dense[PHASE].search(vector[0], K)]
            lexical = memory.lexical[PHASE].search_sync(question, K)
            fused = [i.id or 0 for i in await memory.ranked(PHASE, question, K)]
            for mode, ids in (("dense", dense), ("lexical", lexical), ("fused", fused)):
                hits = [topic_of.get(i) == topic for i in ids[:K]]
                scores[mode].append(sum(hits) / K)
            returned += [topic_of.get(i) == topic for i in fused[:K]]
            empty += not fused
        await engine.dispose()
    base = statistics.mean(sum(1 for _, t in train if t == topic) / len(train) for _, topic in test)
    print(
        f"{len(train)} lessons from {len(topics)} topics, {len(test)} new questions; "
        f"memory built in {built:.1f} s"
    )
    for mode, values in scores.items():
        print(f"precision@{K} {mode:<8} {statistics.mean(values):.3f}")
    print(f"precision@{K} by chance {base:.3f} (the share of lessons on the question's topic)")
    floor = memory.policy.min_similarity
    share = sum(returned) / len(returned) if returned else 0.0
    print(
        f"fused, as episodes get them (cosine floor {floor}): {len(returned) / len(test):.2f} "
        f"lessons a question, {share:.3f} on its topic; {empty} of {len(test)} questions get none"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data/covid_qa"))
    parser.add_argument("--train", type=float, default=0.7, help="share of the stream learned")
    args = parser.parse_args()
    if not args.data.is_dir():
        raise SystemExit(f"{args.data} is not there (the shared COVID-QA data)")
    asyncio.run(run(args.data, args.train))


if __name__ == "__main__":
    main()
