"""The experience memory: phase-filtered hybrid retrieval, merging, status changes, votes.

The store (the database) is the truth. Each phase has its own FAISS index over trigger
embeddings and its own BM25 over trigger words; both are derived and rebuilt from the store at
start. Retrieval fuses the dense and the lexical ranking (reciprocal rank fusion), puts active
lessons before provisional ones, and never returns retired ones; what reaches an episode's
prompts (`retrieve`) is active lessons only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memory.index import VectorIndex
from memory.lexical import TriggerBM25
from memory.models import LessonKind, LessonStatus, MemoryItem, utcnow
from memory.policy import MemoryPolicy
from memory.ports import Embedder, MemoryStore, Vectors
from memory.support import judged_badly, vouched_support
from pipeline.ports import Lesson, MemoryPhase

RRF_K = 60
# the audit action of a lesson learned again with the opposite kind (`_contest`)
CONTEST = "contest"


class ExperienceMemory:
    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        policy: MemoryPolicy | None = None,
        index_dir: Path | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy or MemoryPolicy()
        self.index_dir = index_dir
        self.dense = {phase: VectorIndex(embedder.dimension) for phase in MemoryPhase}
        self.lexical = {phase: TriggerBM25() for phase in MemoryPhase}
        self.items: dict[int, MemoryItem] = {}
        self._query_vectors: dict[str, Vectors] = {}
        self._write = asyncio.Lock()

    # ---- loading ------------------------------------------------------------------------

    async def load(self, on_progress: Callable[[int, int], None] | None = None) -> None:
        """Derive every index from the store (at start, or after an import). Saved FAISS
        indexes are reused when they were built from exactly these triggers; a rebuild embeds
        every trigger, reporting `on_progress(done, total)` batch by batch."""
        items = [i for i in await self.store.items() if i.status != LessonStatus.RETIRED]
        self.items = {}
        self.dense = {phase: VectorIndex(self.embedder.dimension) for phase in MemoryPhase}
        self.lexical = {phase: TriggerBM25() for phase in MemoryPhase}
        saved = await asyncio.to_thread(self._load_saved, items)
        if saved is not None:
            self.dense = saved
            for item in items:
                assert item.id is not None
                self.items[item.id] = item
                self.lexical[item.phase].put(item.id, item.trigger)
        elif items:
            step = 256
            for start in range(0, len(items), step):
                chunk = items[start : start + step]
                await self._index(chunk, await self.embedder.embed([i.trigger for i in chunk]))
                if on_progress is not None:
                    on_progress(start + len(chunk), len(items))

    def _fingerprint(self, items: list[MemoryItem]) -> str:
        digest = hashlib.sha256(
            f"{type(self.embedder).__name__}:{self.embedder.dimension}".encode()
        )
        for item in sorted(items, key=lambda i: i.id or 0):
            digest.update(f"{item.id}|{item.phase}|{item.trigger}\n".encode())
        return digest.hexdigest()

    def _load_saved(self, items: list[MemoryItem]) -> dict[MemoryPhase, VectorIndex] | None:
        if self.index_dir is None:
            return None
        try:
            manifest = json.loads((self.index_dir / "manifest.json").read_text())
            if manifest.get("fingerprint") != self._fingerprint(items):
                return None
            return {
                phase: VectorIndex.load_sync(self.index_dir / f"{phase.value}.faiss")
                for phase in MemoryPhase
            }
        except (OSError, ValueError, RuntimeError):
            return None

    async def persist(self) -> None:
        """Save the FAISS indexes atomically with the fingerprint of what they hold."""
        if self.index_dir is None:
            return
        for phase, index in self.dense.items():
            await index.save(self.index_dir / f"{phase.value}.faiss")
        manifest = {"fingerprint": self._fingerprint(list(self.items.values()))}
        await asyncio.to_thread(
            _write_atomic, self.index_dir / "manifest.json", json.dumps(manifest)
        )

    async def _index(self, items: list[MemoryItem], vectors: Vectors) -> None:
        for phase in MemoryPhase:
            rows = [n for n, item in enumerate(items) if item.phase == phase]
            if rows:
                await self.dense[phase].upsert([items[n].id or 0 for n in rows], vectors[rows])
        for item in items:
            assert item.id is not None
            self.items[item.id] = item
            self.lexical[item.phase].put(item.id, item.trigger)

    async def _forget(self, item: MemoryItem) -> None:
        assert item.id is not None
        self.items.pop(item.id, None)
        await self.dense[item.phase].remove([item.id])
        self.lexical[item.phase].drop(item.id)

    # ---- retrieval (the pipeline's MemoryRetriever) -------------------------------------

    async def _query_vector(self, query: str) -> Vectors:
        vector = self._query_vectors.get(query)
        if vector is None:
            vector = (await self.embedder.embed([query]))[0]
            if len(self._query_vectors) > 256:
                self._query_vectors.clear()
            self._query_vectors[query] = vector
        return vector

    async def scored(
        self, phase: MemoryPhase, query: str, learned_before: datetime | None = None
    ) -> list[tuple[MemoryItem, float]]:
        """(lesson, cosine of its trigger to the query), best first by the fused rank of their
        dense (FAISS) and lexical (BM25) ranks; only those whose trigger is at least
        `min_similarity` like the query (a lesson outside the dense candidates is not)."""
        n = self.policy.candidates
        dense = await self.dense[phase].search(await self._query_vector(query), n)
        lexical = await asyncio.to_thread(self.lexical[phase].search_sync, query, n)
        fused: dict[int, float] = {}
        for ranking in ([i for i, _ in dense], lexical):
            for rank, item_id in enumerate(ranking):
                fused[item_id] = fused.get(item_id, 0.0) + 1.0 / (RRF_K + rank + 1)
        alike = {i: cosine for i, cosine in dense if cosine >= self.policy.min_similarity}
        candidates = [self.items[i] for i in fused if i in self.items and i in alike]
        if learned_before is not None:
            candidates = [
                c
                for c in candidates
                if c.learned_from_post_at is None or c.learned_from_post_at < learned_before
            ]
        candidates.sort(key=lambda c: (c.status != LessonStatus.ACTIVE, -fused[c.id or 0]))
        return [(c, alike[c.id or 0]) for c in candidates]

    async def ranked(
        self, phase: MemoryPhase, query: str, k: int, learned_before: datetime | None = None
    ) -> list[MemoryItem]:
        """The lessons for a query, best first (`scored`), at most `k`."""
        return [item for item, _ in await self.scored(phase, query, learned_before)][:k]

    async def curated(
        self, phase: MemoryPhase, query: str, k: int, learned_before: datetime | None = None
    ) -> list[MemoryItem]:
        """What reaches a prompt, by curation rather than by similarity alone (#57): active
        lessons only, none whose episodes people judged badly (`judged_badly`), none less
        like the query than `relative_floor` of the best one's cosine, at most `k`."""
        live = [
            (item, cosine)
            for item, cosine in await self.scored(phase, query, learned_before)
            if item.status == LessonStatus.ACTIVE and not judged_badly(item)
        ]
        if not live:
            return []
        best = max(cosine for _, cosine in live)
        near = [item for item, cosine in live if cosine >= best * self.policy.relative_floor]
        return near[:k]

    async def retrieve(
        self, phase: MemoryPhase, query: str, *, k: int, learned_before: datetime | None = None
    ) -> list[Lesson]:
        """The curated lessons for a query, best first: a provisional lesson is in no prompt
        until a moderator approves it or requesters a moderator vouches for support it (the
        trust issue: provisional lessons reached 12 of 15 later prompts)."""
        found = await self.curated(phase, query, k, learned_before)
        if found:
            await self.store.record_use([i.id for i in found if i.id is not None])
        return [
            Lesson(
                id=i.id or 0,
                phase=i.phase,
                trigger=i.trigger,
                strategy=i.strategy,
                avoid=i.kind == LessonKind.AVOID,
            )
            for i in found
        ]

    # ---- writing ------------------------------------------------------------------------

    async def add_or_reinforce(
        self, candidate: MemoryItem, actor: str, merge: bool = True, reinforce: bool = True
    ) -> tuple[MemoryItem, bool]:
        """Add the lesson, or reinforce a near-duplicate of the same phase and kind (True);
        without `reinforce`, a near-duplicate is left as it is."""
        async with self._write:
            vectors = await self.embedder.embed([candidate.trigger, candidate.strategy])
            if merge:
                twin = await self._near_duplicate(candidate, vectors)
                if twin is not None and twin.kind != candidate.kind:
                    return await self._contest(twin, candidate, actor), True
                if twin is not None:
                    if not reinforce:
                        return twin, True
                    return await self._reinforce(twin, candidate, actor), True
            candidate.status = (
                LessonStatus.ACTIVE if self._activates(candidate) else LessonStatus.PROVISIONAL
            )
            stored = await self.store.add(candidate, actor)
            await self._index([stored], vectors[:1])
            return stored, False

    def _activates(self, item: MemoryItem) -> bool:
        """Support activates a lesson only from different requesters' episodes; otherwise (or
        with approval required) only a moderator's approval does."""
        return (
            not self.policy.require_approval
            and vouched_support(item) >= self.policy.activation_support
        )

    async def _near_duplicate(self, candidate: MemoryItem, vectors: Vectors) -> MemoryItem | None:
        threshold = self.policy.merge_similarity
        for item_id, score in await self.dense[candidate.phase].search(vectors[0], 5):
            item = self.items.get(item_id)
            if item is None or score < threshold:
                continue
            strategy = (await self.embedder.embed([item.strategy]))[0]
            if float(np.dot(strategy, vectors[1])) >= threshold - 0.1:
                return item
        return None

    async def _contest(self, item: MemoryItem, candidate: MemoryItem, actor: str) -> MemoryItem:
        """The same way of working learned as a "do" and as an "avoid": it is not stored a
        second time (two identical lessons of opposite kinds read as one confusing pair), and
        merged into it an *avoid* would turn a moderator's 👎 into support for the very
        strategy they rejected. The lesson already there goes back to provisional, out of every
        prompt until a moderator approves it again (`memory list` says it is contested)."""
        assert item.id is not None
        changes: dict[str, Any] = {
            "source_episodes": sorted({*item.source_episodes, *candidate.source_episodes}),
        }
        if item.status == LessonStatus.ACTIVE:
            changes["status"] = LessonStatus.PROVISIONAL
        updated = await self.store.update(item.id, actor, CONTEST, **changes)
        self.items[item.id] = updated
        return updated

    async def _reinforce(self, item: MemoryItem, candidate: MemoryItem, actor: str) -> MemoryItem:
        assert item.id is not None
        changes: dict[str, Any] = {
            "support": item.support + 1,
            "source_episodes": sorted({*item.source_episodes, *candidate.source_episodes}),
            "requesters": sorted({*item.requesters, *candidate.requesters}),
        }
        merged = item.model_copy(update=changes)
        if item.status == LessonStatus.PROVISIONAL and self._activates(merged):
            changes["status"] = LessonStatus.ACTIVE
        updated = await self.store.update(item.id, actor, "reinforce", **changes)
        self.items[item.id] = updated
        return updated

    async def all_items(self) -> list[MemoryItem]:
        """Every lesson, retired ones included (for curation)."""
        return await self.store.items()

    async def set_status(
        self, item_id: int, status: LessonStatus, actor: str, why: str | None = None
    ) -> MemoryItem:
        async with self._write:
            action = {
                LessonStatus.RETIRED: "retire",
                LessonStatus.ACTIVE: "approve",
                LessonStatus.PROVISIONAL: "restore",
            }[status]
            item = await self.store.update(
                item_id,
                actor,
                action,
                status=status,
                why_retired=why if status == LessonStatus.RETIRED else None,
            )
            await self._refresh(item)
            return item

    async def edit(self, item_id: int, actor: str, **changes: Any) -> MemoryItem:
        async with self._write:
            item = await self.store.update(item_id, actor, "edit", **changes)
            await self._refresh(item)
            return item

    async def _refresh(self, item: MemoryItem) -> None:
        await self._forget(item)
        if item.status != LessonStatus.RETIRED:
            await self._index([item], await self.embedder.embed([item.trigger]))

    # ---- upkeep -------------------------------------------------------------------------

    async def apply_vote(
        self, vote: int, item_ids: list[int], actor: str, withdrawn: int = 0
    ) -> list[MemoryItem]:
        """A vote on an episode counts for every lesson it used; too many downs retire one.
        `withdrawn`: the same person's earlier vote, already counted, now taken back."""
        retired = []
        for item_id in item_ids:
            item = await self.store.get(item_id)
            if item is None or item.status == LessonStatus.RETIRED:
                continue
            up = item.votes_up + (vote > 0) - (withdrawn > 0)
            down = item.votes_down + (vote < 0) - (withdrawn < 0)
            changes: dict[str, Any] = {"votes_up": up, "votes_down": down}
            if down - up >= self.policy.retire_net_down:
                changes.update(
                    status=LessonStatus.RETIRED,
                    why_retired=f"voted down on {down} episodes, up on {up}",
                )
            async with self._write:
                updated = await self.store.update(item_id, actor, "vote", **changes)
                await self._refresh(updated)
            if updated.status == LessonStatus.RETIRED:
                retired.append(updated)
        return retired

    async def retire_unused(self, actor: str, now: datetime | None = None) -> list[MemoryItem]:
        """Lessons nobody has retrieved for `unused_days` fade out."""
        now = now or utcnow()
        horizon = self.policy.unused_days * 86_400
        stale = [
            i
            for i in list(self.items.values())
            if (now - _aware(i.last_used_at or i.created_at)).total_seconds() > horizon
        ]
        return [
            await self.set_status(
                i.id or 0,
                LessonStatus.RETIRED,
                actor,
                f"not used for {self.policy.unused_days:.0f} days",
            )
            for i in stale
        ]


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
