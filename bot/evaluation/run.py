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
from pathlib import Path
from typing import Any

from adapters.openai_chat import OpenAIChatModel
from bot.app import build, make_embedder, make_evolver
from bot.settings import Settings
from memory.ports import Embedder
from pipeline.desk.episode import Episode
from pipeline.desk.notes import EpisodeFailed
from pipeline.errors import EvoNoteError
from pipeline.evaluation.dataset import BenchPost
from pipeline.evaluation.judges import HierarchicalJudge, PairwiseJudge
from pipeline.evaluation.metrics import semantic_diversity
from pipeline.ports import MemoryMode
from pipeline.post import Media, Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus

log = logging.getLogger(__name__)

# variant → (memory mode, claim analysis)
VARIANTS: dict[str, tuple[MemoryMode, bool]] = {
    "full": (MemoryMode.EVOLVING, True),
    "memory-frozen": (MemoryMode.FROZEN, True),
    "memory-off": (MemoryMode.OFF, True),
    "no-analyzer": (MemoryMode.EVOLVING, False),
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
    update = {
        "data_dir": folder,
        "db": base.db.model_copy(update={"url": f"sqlite+aiosqlite:///{folder / 'evonote.db'}"}),
        "memory": base.memory.model_copy(update={"mode": VARIANTS[variant][0]}),
        "budget": base.budget.model_copy(
            update={"as_of_post_time": True, "claim_analysis": VARIANTS[variant][1]}
        ),
    }
    return base.model_copy(update=update)


def as_post(item: BenchPost) -> Post:
    media = [Media(kind="photo", caption=c) for c in item.media_captions]
    return Post(text=item.text, post_id=item.id, created_at=item.created_at, media=media)


async def run_variant(
    base: Settings,
    variant: str,
    posts: list[BenchPost],
    out: Path,
    *,
    concurrency: int = 1,
    on_post: Callable[[str, bool], None] = lambda variant, ran: None,
) -> list[dict[str, Any]]:
    folder = out / variant
    folder.mkdir(parents=True, exist_ok=True)
    kept = read_ledger(folder)
    # rewrite what survived, so that a torn last line is not continued by the next append
    partial = folder / (LEDGER + ".partial")
    partial.write_text("".join(json.dumps(r) + "\n" for r in kept), encoding="utf-8")
    partial.replace(folder / LEDGER)
    done = {row["id"] for row in kept}
    settings = variant_settings(base, variant, folder)
    todo = [p for p in posts if p.id not in done]
    for _ in range(len(posts) - len(todo)):
        on_post(variant, False)
    if todo:
        async with build(settings) as app:
            judge_model = OpenAIChatModel(
                app.client,
                model=settings.llm.judge_model or settings.llm.writer_model,
                temperature=0.0,
                max_tokens=settings.llm.max_tokens,
            )
            timeout = settings.llm.call_timeout_s
            helpfulness = HierarchicalJudge(judge_model, timeout)
            pairwise = PairwiseJudge(judge_model, random.Random(variant), timeout)
            # the memory's embedder when there is one: one model loaded, not two
            embedder = app.memory.embedder if app.memory else make_embedder(settings)
            evolver = (
                make_evolver(settings, app.engine, app.memory, app.client, judge_after_s=0)
                if app.memory is not None and VARIANTS[variant][0] == "evolving"
                else None
            )
            lessons = kept[-1].get("lessons_so_far", 0) if kept else 0

            async def one(item: BenchPost) -> dict[str, Any]:
                request = NoteRequest(
                    post_ref=item.id, source="bench", key=f"bench:{item.id}:{uuid.uuid4().hex}"
                )
                row = await app.notes.submit_post(request, as_post(item))
                assert row is not None
                episode_id = row.id
                assert episode_id is not None
                try:
                    row = await app.notes.run(episode_id)
                except EpisodeFailed as failed:  # a failed episode is a result, not a crash
                    log.warning("post %s: %s", item.id, failed.cause)
                    row = failed.episode
                return await judge(item, row, helpfulness, pairwise, embedder)

            with (folder / LEDGER).open("a", encoding="utf-8") as ledger:
                for start in range(0, len(todo), concurrency):
                    window = todo[start : start + concurrency]
                    results = await asyncio.gather(*(one(p) for p in window))
                    if evolver is not None:
                        # judge the whole window before the next one (a run takes `batch`)
                        for _ in range(-(-len(window) // settings.memory.batch)):
                            report = await evolver.run_once()
                            lessons += report.added
                    for result in results:
                        result["lessons_so_far"] = lessons
                        ledger.write(json.dumps(result) + "\n")
                        on_post(variant, True)
                    ledger.flush()
    return read_ledger(folder)


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
        texts = [str(e.get("summary") or e.get("excerpt") or e.get("title")) for e in cited]
        if len(texts) > 1:
            result["semantic_diversity"] = semantic_diversity(await embedder.embed(texts))
    except EvoNoteError as e:
        result["judge_error"] = str(e)
    return result
