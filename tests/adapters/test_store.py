"""Storage: migrations match the tables, episodes move through their states, steps persist."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import SQLModel

from adapters.sqlstore.episodes import EpisodeStore
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeOutcome, StepRecord, Timings


@pytest.fixture
def store(engine: AsyncEngine) -> EpisodeStore:
    return EpisodeStore(engine)


async def test_migrations_produce_exactly_the_tables_in_code(store: EpisodeStore) -> None:
    def diff(connection: Any) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, SQLModel.metadata))

    async with store.engine.connect() as connection:
        assert await connection.run_sync(diff) == []


async def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(store: EpisodeStore) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("a SQLite setting")
    async with store.engine.connect() as connection:
        assert (await connection.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
        assert (await connection.execute(text("PRAGMA busy_timeout"))).scalar() == 60_000


async def test_an_episode_moves_queued_running_noted(store: EpisodeStore) -> None:
    row = await store.create(NoteRequest(post_ref="text"), Post(text="claim"), "off")
    assert row.status == "queued" and row.id is not None
    claimed = await store.claim(row.id, "w1", lease_s=60)
    assert claimed is not None and claimed.status == "running" and claimed.lease_owner == "w1"
    assert await store.claim(row.id, "w2", lease_s=60) is None, "claimed twice"
    await store.record_steps(row.id, [StepRecord(index=0, phase="search", observation="ok")])
    outcome = EpisodeOutcome(
        status="noted",
        note="n https://a.org",
        urls=["https://a.org"],
        char_count=3,
        timings=Timings(total_s=1.5, turns=2),
    )
    done = await store.finish(row.id, outcome)
    assert (done.status, done.note_text, done.cited_urls, done.total_s, done.attempts) == (
        "noted",
        "n https://a.org",
        ["https://a.org"],
        1.5,
        1,
    )
    assert done.finished_at is not None and done.finished_at.tzinfo is not None
    assert [s.phase for s in await store.steps(row.id)] == ["search"]


async def test_workers_claim_different_episodes(store: EpisodeStore) -> None:
    ids = []
    for i in range(6):
        row = await store.create(NoteRequest(post_ref=f"p{i}"), Post(text=f"p{i}"), "off")
        ids.append(row.id)
    claims = await asyncio.gather(*(store.claim_next(f"w{i}", 60) for i in range(8)))
    won = [c.id for c in claims if c is not None]
    assert sorted(won) == sorted(ids), "every queued episode once, none twice"
    assert all(c.status == "running" for c in claims if c is not None)
    assert await store.claim_next("late", 60) is None


async def test_expired_leases_are_retried_then_given_up(store: EpisodeStore) -> None:
    row = await store.create(NoteRequest(post_ref="p"), Post(text="p"), "off")
    assert row.id is not None
    for attempt in (1, 2):
        claimed = await store.claim_next("dying-worker", lease_s=-1)  # dies at once
        assert claimed is not None and claimed.attempts == attempt
        assert await store.requeue_expired(max_attempts=3) == (1, 0)
    await store.claim_next("dying-worker", lease_s=-1)
    assert await store.requeue_expired(max_attempts=3) == (0, 1)
    failed = await store.get(row.id)
    assert failed is not None and failed.status == "failed"
    assert "gave up after 3 attempts" in (failed.failure_reason or "")


async def test_orphaned_episodes_are_recovered(engine: Any) -> None:
    from tests.fakes.service import fake_note_service

    store = EpisodeStore(engine)
    notes = fake_note_service(engine)
    waiting = await store.create(NoteRequest(post_ref="a"), Post(text="MMR causes autism"), "off")
    orphan = await store.create(NoteRequest(post_ref="b"), Post(text="MMR causes autism"), "off")
    await store.claim(orphan.id or 0, "dead-worker", lease_s=-1)
    assert sorted(await notes.recover(max_attempts=3, queued_for_s=0)) == [waiting.id, orphan.id]
    for episode_id in (waiting.id, orphan.id):
        row = await store.get(episode_id or 0)
        assert row is not None and row.status == "noted"
    assert await notes.recover(max_attempts=3, queued_for_s=0) == []


async def test_an_episode_requeued_at_shutdown_runs_at_once_after_a_restart(engine: Any) -> None:
    from pipeline.desk.notes import REQUEUED_AT_SHUTDOWN
    from tests.fakes.service import fake_note_service

    store = EpisodeStore(engine)
    notes = fake_note_service(engine)
    just_asked = await store.create(
        NoteRequest(post_ref="a"), Post(text="MMR causes autism"), "off"
    )
    stopped = await store.create(NoteRequest(post_ref="b"), Post(text="MMR causes autism"), "off")
    await store.claim(stopped.id or 0, "the-process-before", lease_s=600)
    await store.delay(stopped.id or 0, REQUEUED_AT_SHUTDOWN)
    # Both are seconds old; only the one nobody is running any more is recovered.
    assert await notes.recover(max_attempts=3, queued_for_s=120) == [stopped.id]
    left = await store.get(just_asked.id or 0)
    assert left is not None and left.status == "queued" and left.attempts == 0


async def test_recovery_stops_when_the_model_server_is_down(engine: Any) -> None:
    from pipeline.budget import EvidenceBudget
    from pipeline.desk.notes import NoteService
    from pipeline.desk.posts import PostResolver
    from pipeline.episode import EpisodeRunner
    from pipeline.errors import ModelUnavailable
    from pipeline.ports import NoMemory
    from tests.fakes.ports import FakeWeb, health_pages

    calls: list[str] = []

    class Down:
        async def structured(self, *args: Any, **kwargs: Any) -> Any:
            calls.append("call")
            raise ModelUnavailable("cannot reach the model server at http://127.0.0.1:9/v1")

    web = FakeWeb(health_pages())
    runner = EpisodeRunner(
        model=Down(), search=web, reader=web, memory=NoMemory(), budget=EvidenceBudget()
    )
    store = EpisodeStore(engine)
    notes = NoteService(store=store, posts=PostResolver(), runner=runner, worker_id="w")
    row = await store.create(NoteRequest(post_ref="a"), Post(text="MMR causes autism"), "off")
    # Before the fix the pass claimed the delayed episode again and again until the server
    # came back; now it gives up for this pass.
    assert await asyncio.wait_for(notes.recover(max_attempts=3, queued_for_s=0), 10) == []
    after = await store.get(row.id or 0)
    assert after is not None and after.status == "queued" and after.attempts == 1
    assert "delayed" in (after.delay_reason or "") and len(calls) == 1
