"""The async engine, SQLite tuned for one writer and many readers, and migrations."""

from __future__ import annotations

import asyncio
import fcntl
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

MIGRATIONS = Path(__file__).parent / "migrations"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _ensure_sqlite_folder(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)


# Connections beyond the running episodes: front ends, the scheduler, metrics, requests queuing.
POOL_HEADROOM = 10


def make_engine(url: str, concurrency: int = 8) -> AsyncEngine:
    """The engine; a server database's pool is sized from the episodes run at once
    (`concurrency`), and a request that finds it busy waits its turn instead of failing."""
    parsed = make_url(url)
    _ensure_sqlite_folder(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_async_engine(url)
    else:
        engine = create_async_engine(
            url,
            pool_size=concurrency + POOL_HEADROOM,
            max_overflow=concurrency + POOL_HEADROOM,
            pool_timeout=3600,
            pool_pre_ping=True,
        )
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _upgrade_once(url: str) -> None:
    """Upgrade under a lock, so processes starting together migrate one at a time: SQLite, a
    lock file beside the database; PostgreSQL, an advisory lock taken in migrations/env.py."""
    _ensure_sqlite_folder(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        command.upgrade(alembic_config(url), "head")
        return
    lock_path = Path(parsed.database).expanduser().with_name(Path(parsed.database).name + ".lock")
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            command.upgrade(alembic_config(url), "head")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


async def upgrade(url: str) -> None:
    """Bring the database to the newest schema (Alembic runs its own loop: use a thread)."""
    await asyncio.to_thread(_upgrade_once, url)
