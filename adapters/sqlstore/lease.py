"""`LeaseStore` on the database: conditional UPDATE or INSERT, so only one holder wins."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, delete, or_, update

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.tables import SchedulerLeaseRow, utcnow


class SqlLeaseStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def acquire(self, name: str, owner: str, ttl: timedelta) -> bool:
        now = utcnow()
        async with self.sessions() as session:
            result = await session.exec(
                update(SchedulerLeaseRow)
                .where(
                    col(SchedulerLeaseRow.name) == name,
                    or_(
                        col(SchedulerLeaseRow.owner) == owner,
                        col(SchedulerLeaseRow.expires_at) < now,
                    ),
                )
                .values(owner=owner, expires_at=now + ttl)
            )
            if result.rowcount:
                await session.commit()
                return True
            session.add(SchedulerLeaseRow(name=name, owner=owner, expires_at=now + ttl))
            try:
                await session.commit()
            except IntegrityError:  # the row exists and someone else holds it
                await session.rollback()
                return False
            return True

    async def release(self, name: str, owner: str) -> None:
        async with self.sessions() as session:
            await session.exec(
                delete(SchedulerLeaseRow).where(
                    col(SchedulerLeaseRow.name) == name, col(SchedulerLeaseRow.owner) == owner
                )
            )
            await session.commit()
