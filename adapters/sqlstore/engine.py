"""The async engine, SQLite tuned for one writer and many readers, and migrations."""

from __future__ import annotations

import asyncio
import fcntl
import functools
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from pipeline.errors import StorageUnavailable

MIGRATIONS = Path(__file__).parent / "migrations"


# Another process may hold SQLite's write lock for a while (a backup, `sqlite3` in a shell):
# a write waits this long for it before it gives up with a message.
BUSY_TIMEOUT_S = 60.0


def _sqlite_pragmas(busy_timeout_s: float, dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")  # first: WAL may wait
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


_WHY = (
    ("locked", "the database is locked by another process (waited for it)"),
    ("disk is full", "the database's disk is full: free some space"),
    ("disk i/o", "the database's disk failed to read or write"),
    ("readonly", "the database is read-only here"),
)


UNREACHABLE = "the database cannot be reached (it is restarting or down): try again shortly"
# A PostgreSQL server that is stopping or starting answers, but not with data.
_RESTARTING = ("starting up", "shutting down", "terminating connection", "not yet accepting")


def _storage_unavailable(context: ExceptionContext) -> None:
    """SQLAlchemy's errors of the storage itself become one typed, person-readable error; a
    bug (a constraint, bad SQL) stays what it is, and a cancellation (which SQLAlchemy counts
    as a disconnect) stays a cancellation."""
    error = context.original_exception
    if not isinstance(error, Exception):
        return
    cause = context.sqlalchemy_exception or error
    message = str(error).lower()
    # Connecting fails with the socket's own error (not a DBAPI one): refused, reset, no route.
    if (
        isinstance(error, OSError)
        or context.is_disconnect
        or any(m in message for m in _RESTARTING)
    ):
        raise StorageUnavailable(UNREACHABLE) from cause
    if isinstance(context.sqlalchemy_exception, DBAPIError) and (
        type(error).__name__ == "OperationalError"
    ):
        for marker, why in _WHY:
            if marker in message:
                raise StorageUnavailable(f"{why}; nothing was stored") from cause


def _ensure_sqlite_folder(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)


# Connections beyond the running episodes: front ends, the scheduler, metrics, requests queuing.
POOL_HEADROOM = 10


def make_engine(
    url: str, concurrency: int = 8, busy_timeout_s: float = BUSY_TIMEOUT_S
) -> AsyncEngine:
    """The engine; a server database's pool is sized from the episodes run at once
    (`concurrency`), and a request that finds it busy waits its turn instead of failing (a
    SQLite write waits `busy_timeout_s` for another process's lock). Errors of the storage
    itself arrive as `StorageUnavailable`."""
    parsed = make_url(url)
    _ensure_sqlite_folder(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_async_engine(url, connect_args={"timeout": busy_timeout_s})
    else:
        engine = create_async_engine(
            url,
            pool_size=concurrency + POOL_HEADROOM,
            max_overflow=concurrency + POOL_HEADROOM,
            pool_timeout=3600,
            pool_pre_ping=True,
        )
    if parsed.get_backend_name() == "sqlite":
        event.listen(
            engine.sync_engine, "connect", functools.partial(_sqlite_pragmas, busy_timeout_s)
        )
    event.listen(engine.sync_engine, "handle_error", _storage_unavailable)
    return engine


def sessions_of(engine: AsyncEngine) -> Callable[[], AbstractAsyncContextManager[AsyncSession]]:
    """Each store's sessions. A connection that cannot be made fails with the socket's own
    error, before SQLAlchemy's error events can see it: it becomes `StorageUnavailable` here."""
    maker = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)

    @asynccontextmanager
    async def session() -> AsyncIterator[AsyncSession]:
        try:
            async with maker() as opened:
                yield opened
        except OSError as e:
            if isinstance(e, TimeoutError):  # a caller's own time limit, not the database
                raise
            raise StorageUnavailable(UNREACHABLE) from e

    return session


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
