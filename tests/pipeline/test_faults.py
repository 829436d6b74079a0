"""Faults and load, bounded and in-process: flaky search, many requests at once."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from pipeline.desk.admission import AdmissionGate
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.note_desk import NoteDesk
from pipeline.errors import SearchFailed
from pipeline.evidence import SearchResult
from pipeline.request import NoteRequest
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeWeb, health_pages
from tests.fakes.service import fake_note_service


class FlakySearch(FakeWeb):
    """Fails every other search, the way an overloaded backend does."""

    calls = 0

    async def search(
        self, query: str, *, limit: int, published_before: Any = None
    ) -> list[SearchResult]:
        FlakySearch.calls += 1
        if FlakySearch.calls % 2:
            raise SearchFailed("HTTP 503 from the search backend")
        return await super().search(query, limit=limit)


class Retrying(ResearchPolicy):
    """Searches again after a failed search, like a model reading the observation."""

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        answer = super().__call__(schema, messages)
        if schema == "AgentTurn" and "Search failed" in messages[-1]["content"]:
            return {
                "thought": "retry",
                "action": {"kind": "search", "query": f"measles vaccine {len(messages)}"},
            }
        return answer


async def test_search_failing_half_the_time(engine: AsyncEngine) -> None:
    notes = fake_note_service(engine, Retrying(), FlakySearch(health_pages()))
    rows = [
        await NoteDesk(notes, ModeratorDesk(notes.store)).check(
            NoteRequest(post_ref=f"MMR causes autism, claim {i}")
        )
        for i in range(12)
    ]
    assert {r.status for r in rows} <= {"noted", "abstained"}
    assert sum(r.status == "noted" for r in rows) >= 6


async def test_many_requests_at_once_all_complete_once(engine: AsyncEngine) -> None:
    """(500 at once, and under CPU load: `python -m bench.load --stress 2`.)"""
    notes = fake_note_service(engine)
    notes.gate = AdmissionGate(4, slow_call_s=30)
    count = 40
    rows = await asyncio.gather(
        *(
            NoteDesk(notes, ModeratorDesk(notes.store)).check(
                NoteRequest(post_ref=f"MMR causes autism, variant {i}", key=f"load:{i}")
            )
            for i in range(count)
        )
    )
    assert {r.status for r in rows} == {"noted"}
    assert len({r.id for r in rows}) == count
    again = await asyncio.gather(
        *(notes.enqueue_once(NoteRequest(post_ref="x", key=f"load:{i}")) for i in range(count))
    )
    assert again == [None] * count, "a repeated request never starts a second episode"
    waits = sorted(
        (r.started_at - r.created_at).total_seconds() for r in rows if r.started_at and r.created_at
    )
    assert len(waits) == count
    # four ran at once: the rest waited in the queue, and their deadline started when they ran
    assert waits[-1] > waits[0]
    assert all(r.total_s is not None and r.total_s < 120 for r in rows)
