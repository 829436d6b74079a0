"""Watch state: the newest post seen per watch."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.tables import WatchStateRow, utcnow


class WatchStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def get(self, key: str) -> WatchStateRow | None:
        async with self.sessions() as session:
            return await session.get(WatchStateRow, key)

    async def save(self, key: str, newest_id: str | None, user_id: str | None) -> None:
        async with self.sessions() as session:
            row = await session.get(WatchStateRow, key) or WatchStateRow(key=key)
            row.newest_id, row.user_id, row.updated_at = newest_id, user_id, utcnow()
            session.add(row)
            await session.commit()
