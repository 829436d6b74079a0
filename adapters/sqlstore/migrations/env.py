"""Alembic environment (async template); the URL comes from the caller's Config."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

from adapters.sqlstore import tables  # noqa: F401  (registers the tables)

target_metadata = SQLModel.metadata


# Any fixed key: every EvoNote process upgrading one PostgreSQL database takes the same lock.
MIGRATION_LOCK_KEY = 7_335_608_001


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Processes starting together upgrade one at a time; the later ones find the
            # schema at head (the lock ends with the transaction). SQLite: a file lock.
            connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})"))
        context.run_migrations()


async def _online() -> None:
    engine = create_async_engine(context.config.get_main_option("sqlalchemy.url") or "")
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_online())
