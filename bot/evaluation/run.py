"""`evonote bench run`: replay a dataset through the pipeline once per variant, judge every
note, and keep one ledger line per post so an interrupted run continues where it stopped.

Each variant gets its own folder (database, memory index, `ledger.jsonl`) under the output
folder; posts run in post-time order, `concurrency` at a time, and an evolving memory learns
after each window — the chronological stream of the paper.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.app import build, make_embedder, make_evolver, make_judge_model
from bot.settings import Settings
from memory.evolve import Evolver, EvolveReport
from memory.experience import ExperienceMemory
from memory.models import LessonStatus, MemoryItem
from memory.ports import Embedder
from memory.transfer import import_lessons
from pipeline.budget import RESEARCH_PRESETS, Preset
from pipeline.desk.episode import Episode
from pipeline.desk.notes import EpisodeFailed
from pipeline.desk.ports import EpisodeRepository
from pipeline.errors import EvoNoteError
from pipeline.evaluation.dataset import BenchPost
from pipeline.evaluation.judges import HierarchicalJudge, PairwiseJudge
from pipeline.evaluation.metrics import semantic_diversity
from pipeline.evaluation.study import SIMILAR_AT, Prior, prior_similarity
from pipeline.ports import MemoryMode
from pipeline.post import Media, Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus

log = logging.getLogger(__name__)

# variant → (memory mode, the research preset it runs under, if any: `RESEARCH_PRESETS`)
VARIANTS: dict[str, tuple[MemoryMode, Preset | None]] = {
    "full": (MemoryMode.EVOLVING, None),
    "memory-frozen": (MemoryMode.FROZEN, None),
    "memory-off": (MemoryMode.OFF, None),
    "no-analyzer": (MemoryMode.EVOLVING, "no-analysis"),
}
LEDGER = "ledger.jsonl"


def parse_variants(text: str) -> list[str]:
    names = [v.strip() for v in text.split(",") if v.strip()]
    unknown = [v for v in names if v not in VARIANTS]
    if unknown or not names:
        raise ValueError(
            f"unknown variant(s) {unknown or text!r}; choose from {', '.join(VARIANTS)}"
        )
    return names


def resume_ledger(folder: Path) -> list[dict[str, Any]]:
    """The rows a killed run left, rewritten whole: a torn last line is not continued by the
    next append."""
    folder.mkdir(parents=True, exist_ok=True)
    kept = read_ledger(folder)
    partial = folder / (LEDGER + ".partial")
    partial.write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    partial.replace(folder / LEDGER)
    return kept


def append_to_ledger(folder: Path, rows: list[dict[str, Any]]) -> None:
    with (folder / LEDGER).open("a", encoding="utf-8") as ledger:
        ledger.write("".join(json.dumps(row) + "\n" for row in rows))


def read_ledger(folder: Path) -> list[dict[str, Any]]:
    path = folder / LEDGER
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break  # the torn last line of a killed run: that post runs again
    return rows


def variant_settings(base: Settings, variant: str, folder: Path) -> Settings:
    name = VARIANTS[variant][1]
    preset: dict[str, Any] = {} if name is None else {**RESEARCH_PRESETS[name], "preset": name}
    update = {
        "data_dir": folder,
        "db": base.db.model_copy(update={"url": f"sqlite+aiosqlite:///{folder / 'evonote.db'}"}),
        # every post of a benchmark is the operator's own request: the operator vouches for
        # each lesson, as a moderator's approval does in a deployment (where two vouched
        # requesters or an approval activate one, and only active lessons reach a prompt)
        "memory": base.memory.model_copy(
            update={"mode": VARIANTS[variant][0], "activation_support": 1}
        ),
        "budget": base.budget.model_copy(update={"as_of_post_time": True, **preset}),
    }
    return base.model_copy(update=update)


def as_post(item: BenchPost) -> Post:
    media = [Media(kind="photo", caption=c) for c in item.media_captions]
    return Post(text=item.text, post_id=item.id, created_at=item.created_at, media=media)


@dataclass(frozen=True)
class Stream:
    """What a variant runs: `train` first (memory variants learn from it, it is not
    reported), then `test`; `lessons`, a memory learned on an earlier stream to start from;
    `priors`, where each post stands (a similar earlier post, and how recent)."""

    test: list[BenchPost]
    train: list[BenchPost] = field(default_factory=list)
    lessons: list[MemoryItem] = field(default_factory=list)
    priors: dict[str, Prior] = field(default_factory=dict)

    def posts_for(self, variant: str) -> list[tuple[BenchPost, str]]:
        learns = VARIANTS[variant][0] != MemoryMode.OFF
        return [(p, "train") for p in self.train if learns] + [(p, "test") for p in self.test]


async def place_posts(
    settings: Settings, posts: list[BenchPost], similar_at: float = SIMILAR_AT
) -> dict[str, Prior]:
    """Each post's `Prior`, from post embeddings (the memory's embedder)."""
    ordered = sorted(posts, key=lambda p: p.created_at)
    vectors = await make_embedder(settings).embed([p.text for p in ordered])
    placed = await asyncio.to_thread(
        prior_similarity, [p.created_at for p in ordered], np.asarray(vectors), similar_at
    )
    return {p.id: where for p, where in zip(ordered, placed, strict=True)}


async def run_variant(
    base: Settings,
    variant: str,
    stream: Stream,
    out: Path,
    *,
    concurrency: int = 1,
    on_post: Callable[[str, bool], None] = lambda variant, ran: None,
) -> list[dict[str, Any]]:
    folder = out / variant
    kept = await asyncio.to_thread(resume_ledger, folder)
    done = {(row["id"], row.get("split", "test")) for row in kept}
    settings = variant_settings(base, variant, folder)
    posts = stream.posts_for(variant)
    todo = [(p, split) for p, split in posts if (p.id, split) not in done]
    for _ in range(len(posts) - len(todo)):
        on_post(variant, False)
    if not todo:
        return await asyncio.to_thread(read_ledger, folder)
    async with build(settings) as app:
        judge_model = make_judge_model(settings, app.client)
        timeout = settings.llm.call_timeout_s
        helpfulness = HierarchicalJudge(judge_model, timeout)
        pairwise = PairwiseJudge(judge_model, random.Random(variant), timeout)
        # the memory's embedder when there is one: one model loaded, not two
        embedder = app.memory.embedder if app.memory else make_embedder(settings)
        evolvers: dict[str, Evolver | None] = {"train": None, "test": None}
        if app.memory is not None:
            # Only into an empty memory: a run killed after the import, before its first
            # ledger line, must not import (and so reinforce) the same lessons again.
            if stream.lessons and not app.memory.items:
                usable = [i for i in stream.lessons if i.status != LessonStatus.RETIRED]
                await import_lessons(app.memory, usable, "bench:memory-from", keep_support=True)
            # the training part always learns; the tested part as the variant says
            learning = settings.model_copy(
                update={"memory": settings.memory.model_copy(update={"mode": "evolving"})}
            )
            evolvers["train"] = make_evolver(learning, app.engine, app.memory, app.client, 0)
            if VARIANTS[variant][0] == MemoryMode.EVOLVING:
                evolvers["test"] = evolvers["train"]
        growth = Growth.resume(kept[-1] if kept else {})
        patterns = ClaimPatterns(app.store)

        async def one(item: BenchPost, split: str) -> dict[str, Any]:
            request = NoteRequest(
                post_ref=item.id,
                source="bench",
                key=f"bench:{item.id}:{uuid.uuid4().hex}",
                vouched=True,  # the operator's own run
            )
            row = await app.notes.enqueue_post(request, as_post(item))
            assert row is not None
            episode_id = row.id
            assert episode_id is not None
            try:
                row = await app.notes.run(episode_id)
            except EpisodeFailed as failed:  # a failed episode is a result, not a crash
                log.warning("post %s: %s", item.id, failed.cause)
                row = failed.episode
            result = await judge(item, row, helpfulness, pairwise, embedder)
            result["split"], result["prior"] = split, stream.priors.get(item.id)
            result["retrieval"] = await patterns.retrieval(row, app.memory)
            return result

        for split in ("train", "test"):
            phase = [p for p, s in todo if s == split]
            for start in range(0, len(phase), concurrency):
                window = phase[start : start + concurrency]
                results = await asyncio.gather(*(one(p, split) for p in window))
                if (evolver := evolvers[split]) is not None:
                    # judge the whole window before the next one (a run takes `batch`)
                    for _ in range(-(-len(window) // settings.memory.batch)):
                        growth.add(await evolver.run_once())
                for result in results:
                    result.update(growth.ledger_fields(app.memory))
                await asyncio.to_thread(append_to_ledger, folder, results)
                for _ in results:
                    on_post(variant, True)
    return await asyncio.to_thread(read_ledger, folder)


@dataclass
class Growth:
    """How the memory grew: lessons added, merged into existing ones, retired (cumulative)."""

    added: int = 0
    reinforced: int = 0
    retired: int = 0

    @classmethod
    def resume(cls, last: dict[str, Any]) -> Growth:
        return cls(
            last.get("lessons_so_far", 0),
            last.get("reinforced_so_far", 0),
            last.get("retired_so_far", 0),
        )

    def add(self, report: EvolveReport) -> None:
        self.added += report.added
        self.reinforced += report.reinforced
        self.retired += report.retired

    def ledger_fields(self, memory: ExperienceMemory | None) -> dict[str, int]:
        items = list(memory.items.values()) if memory is not None else []
        return {
            "lessons_so_far": self.added,
            "reinforced_so_far": self.reinforced,
            "retired_so_far": self.retired,
            "memory_size": sum(1 for i in items if i.status != LessonStatus.RETIRED),
        }


class ClaimPatterns:
    """Whether the lessons an episode retrieved were learned from episodes of its own claim
    pattern (the memory's retrieval doing what it is for)."""

    def __init__(self, store: EpisodeRepository) -> None:
        self.store = store
        self.known: dict[int, str | None] = {}

    async def of(self, episode_id: int) -> str | None:
        if episode_id not in self.known:
            episode = await self.store.get(episode_id)
            brief = episode.brief if episode is not None else None
            self.known[episode_id] = brief.claim_pattern.value if brief else None
        return self.known[episode_id]

    async def retrieval(
        self, row: Episode, memory: ExperienceMemory | None
    ) -> dict[str, int | str | None]:
        pattern = row.brief.claim_pattern.value if row.brief else None
        same = earlier_stream = 0
        for lesson_id in row.retrieved_memory_ids:
            item = memory.items.get(lesson_id) if memory is not None else None
            if item is None or not item.source_episodes:
                earlier_stream += 1  # imported with --memory-from: its episodes are elsewhere
                continue
            sources = {await self.of(e) for e in item.source_episodes}
            same += pattern is not None and pattern in sources
        return {
            "claim_pattern": pattern,
            "retrieved": len(row.retrieved_memory_ids),
            "same_pattern": same,
            "from_earlier_stream": earlier_stream,
        }


async def judge(
    item: BenchPost,
    row: Episode,
    helpfulness: HierarchicalJudge,
    pairwise: PairwiseJudge,
    embedder: Embedder,
) -> dict[str, Any]:
    """One ledger line: what the episode did and what the judges said about it."""
    note = row.note_text if row.status == EpisodeStatus.NOTED else None
    result: dict[str, Any] = {
        "id": item.id,
        "modality": item.modality,
        "label": item.label,
        "has_human_note": bool(item.human_note),
        "status": row.status,
        "note": note,
        "cited_urls": list(row.cited_urls or []) if note else [],
        "abstain_reason": row.abstain_reason,
        "failure_reason": row.failure_reason,
        "times": {
            "search_s": row.search_s,
            "visit_s": row.visit_s,
            "inference_s": row.inference_s,
            "total_s": row.total_s,
            "turns": row.turns,
            "tokens": (row.prompt_tokens or 0) + (row.completion_tokens or 0),
        },
        "failed_gate": None,
        "helpful": False,
        "versus_human": None,
        "semantic_diversity": None,
    }
    if note is None:
        return result
    cited = [e.model_dump(mode="json") for e in row.evidence if e.url in result["cited_urls"]]
    try:
        verdict = await helpfulness.judge(item.text, note, cited)
        result["helpful"], result["failed_gate"] = verdict.helpful, verdict.failed_gate
        if item.human_note:
            compared = await pairwise.compare(item.text, note, item.human_note)
            result["versus_human"] = {"overall": compared.overall, **compared.dimensions}
        texts = [str(e.get("excerpt") or e.get("title")) for e in cited]
        if len(texts) > 1:
            result["semantic_diversity"] = semantic_diversity(await embedder.embed(texts))
    except EvoNoteError as e:
        result["judge_error"] = str(e)
    return result
