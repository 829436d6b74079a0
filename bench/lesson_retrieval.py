"""Do later posts get lessons on their own topic, with junk in the memory? (#57) Prints numbers;
asserts nothing.

    python -m bench.lesson_retrieval [--data ../shared/data]

Posts, not Q&A: the 40 `healthnotes_dev` posts and 41 `evidence_claims` (AVeriTeC) claims,
each with a topic given by hand (`bench/data/post_topics.json`). Every claim is an episode
whose lesson is distilled deterministically (no model): its trigger is "posts claiming" and the
claim's first words, as a distiller sums a post up; each later post is checked against the
memory of the lessons of every *other* claim (its own lesson is retired while it is checked),
in a real memory (the local MiniLM embedder, FAISS, BM25, SQLite; near-duplicates merge).

With junk: three junk lessons for every honest one (75% junk, as TraceRetain's test), in equal
parts: lessons from other claims whose episodes people voted down; lessons on the labelled
posts' own topics, reworded, whose episodes people voted down (bad lessons of the right topic:
only the veto tells them apart); and broad lessons no post's topic owns ("posts about
vaccines and children") with no verdict at all. Every lesson is active.

precision@4: the share on the post's topic of the lessons a post gets (at most 4); none: the
share of posts that get none, and of the posts whose topic some other claim shares, the share
that get none. The baseline is retrieval before #57 (active lessons at cosine ≥ 0.4, the fused
top 4); curated is `ExperienceMemory.curated` (veto, floor relative to the best match) at
`EVONOTE_MEMORY__TOP_K`'s 2; the sweep shows each part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adapters.embeddings.minilm import LocalEmbedder
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.memory_store import SqlMemoryStore
from memory.experience import ExperienceMemory
from memory.models import LessonKind, LessonStatus, MemoryItem
from memory.policy import MemoryPolicy
from memory.ports import Vectors
from memory.support import judged_badly
from pipeline.ports import MemoryPhase

PHASE = MemoryPhase.EVIDENCE_ACQUISITION
K = 4
TOP_K = 2  # `EVONOTE_MEMORY__TOP_K`'s default: what an episode asks for
LABELS = Path(__file__).with_name("data") / "post_topics.json"
VOUCHED = ["slack:U1", "slack:U2"]
OTHER = "other"  # a topic no other claim shares: no lesson is on it
# The labels' topics joined into coarser ones: is a miss a near miss (a covid remedy lesson on
# a post about covid's death rate) or a lesson on something else?
COARSE = {
    "covid-remedy": "covid", "covid-severity": "covid", "covid-origin": "covid",
    "covid-policy": "covid", "masks": "covid", "covid-vaccine": "vaccines",
    "vaccine-safety": "vaccines", "vaccine-autism": "vaccines",
}  # fmt: skip


def coarse(topic: str | None) -> str | None:
    return COARSE.get(topic or "", topic)


STRATEGY = "search the health agency's pages on this kind of claim first"
BROAD = [
    "posts about {}",
    "any post about {} and children",
    "posts that make a claim about {}",
    "posts sharing a video about {}",
    "posts asking questions about {}",
    "posts quoting a doctor on {}",
]
BROAD_SUBJECTS = [
    "health", "vaccines", "the pandemic", "medicine", "doctors", "the government", "science",
    "studies", "children's health", "hospitals", "the news", "women's health", "a celebrity",
    "politics and health", "a new law", "money and health",
]  # fmt: skip


class CachedEmbedder:
    """The local embedder, each text embedded once (the bench retires and restores lessons)."""

    def __init__(self) -> None:
        self.inner = LocalEmbedder()
        self.cache: dict[str, Vectors] = {}

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    async def embed(self, texts: list[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for text, vector in zip(missing, await self.inner.embed(missing), strict=True):
                self.cache[text] = vector
        return np.stack([self.cache[t] for t in texts])


def post_words(text: str) -> list[str]:
    """A post's words as a distiller sums it up: no links, handles, tags or emoji."""
    text = re.sub(r"https?://\S+|[@#]\w+", " ", text)
    return re.findall(r"[a-z0-9][a-z0-9'’%.-]*", text.lower())


def trigger(text: str, start: int = 0) -> str:
    return "posts claiming " + " ".join(post_words(text)[start : start + 16])


@dataclass
class Claim:
    key: str
    text: str
    topic: str


def claims(data: Path) -> tuple[list[Claim], list[str]]:
    """The labelled claims, and the texts of unlabelled ones (for junk)."""
    labels: dict[str, str] = json.loads(LABELS.read_text(encoding="utf-8"))["labels"]
    found: list[Claim] = []
    spare: list[str] = []
    for line in (data / "healthnotes_dev" / "posts.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        if str(row["id"]) in labels:
            found.append(Claim(str(row["id"]), row["text"], labels[str(row["id"])]))
    path = data / "evidence_claims" / "averitec_health_dev.jsonl"
    for line in path.read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["id"] in labels:
            found.append(Claim(row["id"], row["claim"], labels[row["id"]]))
        elif row["label"] in ("refuted", "misleading"):
            spare.append(row["claim"])
    return found, spare


def lesson(text: str, *, down: int = 0) -> MemoryItem:
    return MemoryItem(
        phase=PHASE,
        kind=LessonKind.IMPROVE,
        trigger=text,
        strategy=STRATEGY,
        requesters=VOUCHED,
        votes_down=down,
    )


async def build(
    memory: ExperienceMemory, found: list[Claim], spare: list[str], junk: bool
) -> tuple[dict[str, int], dict[int, str]]:
    """(each claim's lesson id, each lesson's topic: "junk" for junk)."""
    own: dict[str, int] = {}
    topic_of: dict[int, str] = {}
    for claim in found:
        item, _ = await memory.add_or_reinforce(lesson(trigger(claim.text)), "bench")
        own[claim.key] = item.id or 0
        topic_of.setdefault(item.id or 0, claim.topic)
    if junk:
        n = len(found)
        broad = [t.format(s) for s in BROAD_SUBJECTS for t in BROAD]
        bad = [lesson(trigger(text), down=1) for text in spare[:n]]
        reworded = [lesson(trigger(c.text, start=3), down=2) for c in found]
        generic = [lesson(text) for text in broad[:n]]
        for item in [*bad, *reworded, *generic]:
            stored, _ = await memory.add_or_reinforce(item, "bench", merge=False)
            topic_of[stored.id or 0] = "junk"
    return own, topic_of


@dataclass
class Way:
    name: str
    veto: bool
    relative: float
    most: int
    floor: float = 0.4


WAYS = [
    Way("baseline (before #57)", veto=False, relative=0.0, most=K),
    Way("veto only", veto=True, relative=0.0, most=K),
    Way("relative floor 0.9 only", veto=False, relative=0.9, most=K),
    Way("veto + at most 2", veto=True, relative=0.0, most=2),
    Way("veto + relative 0.85 + at most 2", veto=True, relative=0.85, most=2),
    Way("veto + relative 0.9 + at most 2", veto=True, relative=0.9, most=2),
    Way("veto + relative 0.9 + at most 1", veto=True, relative=0.9, most=1),
    Way("veto + relative 0.95 + at most 2", veto=True, relative=0.95, most=2),
    Way("veto + floor 0.5 + relative 0.9 + at most 2", veto=True, relative=0.9, most=2, floor=0.5),
]


def pick(scored: list[tuple[MemoryItem, float]], way: Way) -> list[int]:
    live = [
        (i, c)
        for i, c in scored
        if i.status == LessonStatus.ACTIVE and c >= way.floor and not (way.veto and judged_badly(i))
    ]
    if not live:
        return []
    best = max(c for _, c in live)
    return [i.id or 0 for i, c in live if c >= best * way.relative][: way.most]


async def measure(data: Path, junk: bool, args_confusions: bool = False) -> None:
    found, spare = claims(data)
    shared = {
        c.key for c in found if c.topic != OTHER and sum(d.topic == c.topic for d in found) > 1
    }
    with tempfile.TemporaryDirectory() as name:
        url = f"sqlite+aiosqlite:///{name}/memory.db"
        await upgrade(url)
        engine = make_engine(url)
        memory = ExperienceMemory(SqlMemoryStore(engine), CachedEmbedder(), MemoryPolicy())
        await memory.load()
        own, topic_of = await build(memory, found, spare, junk)
        results: dict[str, list[tuple[str, list[int]]]] = {w.name: [] for w in WAYS}
        results["curated (ExperienceMemory.curated)"] = []
        for claim in found:
            mine = own[claim.key]
            await memory.set_status(mine, LessonStatus.RETIRED, "bench", "its own post")
            query = " ".join(post_words(claim.text))
            floorless = memory.policy.model_copy(update={"min_similarity": 0.0})
            memory.policy, kept = floorless, memory.policy
            scored = await memory.scored(PHASE, query)
            memory.policy = kept
            for way in WAYS:
                results[way.name].append((claim.topic, pick(scored, way)))
            curated = await memory.curated(PHASE, query, TOP_K)
            results["curated (ExperienceMemory.curated)"].append(
                (claim.topic, [i.id or 0 for i in curated])
            )
            await memory.set_status(mine, LessonStatus.ACTIVE, "bench")
        await engine.dispose()
    honest = sum(1 for t in topic_of.values() if t != "junk")
    print(
        f"\n{'with 75% junk' if junk else 'clean'}: {len(found)} posts, {honest} honest lessons "
        f"(after merging), {len(topic_of) - honest} junk; {len(shared)} posts share their "
        "topic with another claim"
    )
    print(f"{'retrieval':<46} precision@{K}  (coarse)  lessons/post  none  none (topic shared)")
    for name, rows in results.items():
        got = [ids for _, ids in rows]
        hits = sum(topic_of.get(i) == topic != OTHER for topic, ids in rows for i in ids)
        near = sum(
            coarse(topic_of.get(i)) == coarse(topic) != OTHER for topic, ids in rows for i in ids
        )
        total = sum(len(ids) for ids in got)
        none = sum(not ids for ids in got)
        keys = [c.key for c in found]
        none_shared = sum(not ids for key, ids in zip(keys, got, strict=True) if key in shared)
        print(
            f"{name:<46} {hits / total if total else 0:>11.3f}  "
            f"{near / total if total else 0:>8.3f}  {total / len(rows):>12.2f}  "
            f"{none / len(rows):>4.2f}  {none_shared / len(shared):>18.2f}"
        )
        if args_confusions and name.startswith("curated"):
            wrong = Counter(
                f"{topic} <- {topic_of.get(i)}"
                for topic, ids in rows
                for i in ids
                if topic_of.get(i) != topic or topic == OTHER
            )
            junk_n = sum(n for k, n in wrong.items() if k.endswith("<- junk"))
            near_n = sum(
                n
                for k, n in wrong.items()
                if coarse(k.split(" <- ")[0]) == coarse(k.split(" <- ")[1]) != OTHER
            )
            print(
                f"  {sum(wrong.values())} off-topic lessons: {junk_n} junk, {near_n} of a "
                f"neighbouring topic (the same coarse one); most often:",
                ", ".join(f"{k} {n}" for k, n in wrong.most_common(8)),
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--confusions", action="store_true", help="the curated misses by topic")
    args = parser.parse_args()
    if not (args.data / "healthnotes_dev").is_dir():
        raise SystemExit(f"{args.data} has no healthnotes_dev (the shared data)")
    for junk in (False, True):
        asyncio.run(measure(args.data, junk, args.confusions))


if __name__ == "__main__":
    main()
