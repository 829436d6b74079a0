"""Storage: migrations match the tables, episodes move through their states, steps persist."""

from __future__ import annotations

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
        assert (await connection.execute(text("PRAGMA busy_timeout"))).scalar() == 5000


async def test_an_episode_moves_queued_running_noted(store: EpisodeStore) -> None:
    row = await store.create(NoteRequest(post_ref="text"), Post(text="claim"), "off")
    assert row.status == "queued" and row.id is not None
    claimed = await store.claim(row.id, "w1", lease_s=60)
    assert claimed is not None and claimed.status == "running" and claimed.lease_owner == "w1"
    assert await store.claim(row.id, "w2", lease_s=60) is None, "claimed twice"
    await store.record_step(row.id, StepRecord(index=0, phase="search", observation="ok"))
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


async def test_a_running_episode_whose_lease_expired_is_failed(store: EpisodeStore) -> None:
    row = await store.create(NoteRequest(post_ref="text"), Post(text="claim"), "off")
    assert row.id is not None
    await store.claim(row.id, "dead-worker", lease_s=-1)
    assert await store.fail_abandoned() == 1
    failed = await store.get(row.id)
    assert failed is not None and failed.status == "failed"
    assert "worker stopped" in (failed.failure_reason or "")
