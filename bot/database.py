"""The database as every command opens it: migrated, with orphaned episodes taken back.

Kept apart from `bot.app` so that commands that only read the database (`episodes list`)
start without loading the model, search and chat libraries.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.engine import alembic_config, make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.memory_store import SqlMemoryStore
from adapters.sqlstore.submissions import SubmissionStore
from bot.process import describe, owner_gone, owner_role
from bot.settings import ConfigurationError, Settings
from memory.models import MemoryItem


@asynccontextmanager
async def open_database(settings: Settings) -> AsyncIterator[AsyncEngine]:
    """The engine, after migrations; running episodes whose process died are failed (the
    CLI's) or requeued (the rest), and those whose lease ran out are requeued."""
    # (a SQLite database's folder is made: off the event loop)
    engine = await asyncio.to_thread(
        make_engine, settings.database_url, concurrency=settings.ops.workers
    )
    try:
        try:
            await upgrade(settings.database_url)
        except CommandError as e:  # a revision this build does not know: a newer one migrated
            where = engine.url.host or engine.url.database or "?"
            found = re.search(r"identified by '([^']+)'", str(e))
            raise ConfigurationError(
                f"the database at {where} (EVONOTE_DB__URL) is at schema "
                f"{found.group(1) if found else '?'}, newer than this EvoNote knows: run the "
                "EvoNote that upgraded it, or point EVONOTE_DB__URL at another database"
            ) from e
        except (OSError, SQLAlchemyError) as e:
            where = engine.url.host or engine.url.database or "?"
            raise ConfigurationError(
                f"cannot use the database at {where} (EVONOTE_DB__URL): "
                f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
            ) from e
        store = EpisodeStore(engine)
        # An episode whose process on this host is gone is taken back now, not after a lease.
        await store.reclaim_orphans(owner_gone, describe, lambda o: owner_role(o) != "serve")
        await store.requeue_expired(settings.ops.max_attempts)
        yield engine
    finally:
        await engine.dispose()


@asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[EpisodeStore]:
    async with open_database(settings) as engine:
        yield EpisodeStore(engine)


@dataclass(frozen=True)
class Stores:
    """Every store on one database, for commands that only read and write records."""

    engine: AsyncEngine
    episodes: EpisodeStore
    lessons: SqlMemoryStore
    submissions: SubmissionStore


@asynccontextmanager
async def open_stores(settings: Settings) -> AsyncIterator[Stores]:
    async with open_database(settings) as engine:
        yield Stores(engine, EpisodeStore(engine), SqlMemoryStore(engine), SubmissionStore(engine))


def newest_revision(config: Config) -> str | None:
    return ScriptDirectory.from_config(config).get_current_head()


async def schema_of(settings: Settings) -> tuple[str, str | None, str]:
    """(where the database is, its schema revision, the newest one), after migrating it."""
    engine = await asyncio.to_thread(make_engine, settings.database_url)
    try:
        await upgrade(settings.database_url)
        async with engine.connect() as connection:
            current = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision()
            )
        config = alembic_config(settings.database_url)
        head = await asyncio.to_thread(newest_revision, config)  # reads the scripts' files
        return engine.url.render_as_string(), current, head or ""
    finally:
        await engine.dispose()


async def read_lessons(folder: Path) -> list[MemoryItem]:
    """The lessons in an earlier run's database (`OUT/<variant>/evonote.db`), read only: it is
    neither migrated nor changed."""
    path = folder / "evonote.db"
    if not await asyncio.to_thread(path.is_file):
        raise ConfigurationError(f"{folder} holds no evonote.db (an earlier run's variant folder)")
    engine = await asyncio.to_thread(make_engine, f"sqlite+aiosqlite:///{path}")
    try:
        return await SqlMemoryStore(engine).items()
    except SQLAlchemyError as e:
        raise ConfigurationError(f"cannot read the lessons in {path}: {type(e).__name__}") from e
    finally:
        await engine.dispose()
