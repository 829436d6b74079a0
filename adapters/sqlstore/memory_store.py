"""`MemoryStore` on the database, every change written to the audit table in one transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select, update

from adapters.sqlstore.engine import sessions_of
from memory.models import LessonStatus, MemoryAudit, MemoryItem, utcnow
from pipeline.errors import LessonNotFound
from pipeline.ports import MemoryPhase


def _snapshot(item: MemoryItem) -> dict[str, Any]:
    return item.model_dump(mode="json", exclude={"id"})


class SqlMemoryStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def add(self, item: MemoryItem, actor: str) -> MemoryItem:
        # A fresh row: the caller's object may be a copy that SQLAlchemy cannot track.
        row = MemoryItem.model_validate(item.model_dump(exclude={"id"}))
        async with self.sessions() as session:
            session.add(row)
            await session.flush()
            assert row.id is not None
            audit = MemoryAudit(item_id=row.id, actor=actor, action="add", after=_snapshot(row))
            session.add(audit)
            await session.commit()
        return row

    async def update(self, item_id: int, actor: str, action: str, **changes: Any) -> MemoryItem:
        async with self.sessions() as session:
            item = await session.get(MemoryItem, item_id)
            if item is None:
                raise LessonNotFound(f"there is no memory item {item_id}")
            before = _snapshot(item)
            for key, value in changes.items():
                if not hasattr(item, key) or key in ("id", "created_at"):
                    raise ValueError(f"memory items have no editable field '{key}'")
                setattr(item, key, value)
            item.updated_at = utcnow()
            MemoryItem.model_validate(item.model_dump())  # an edit must leave a valid item
            session.add(item)
            session.add(
                MemoryAudit(
                    item_id=item_id,
                    actor=actor,
                    action=action,
                    before=before,
                    after=_snapshot(item),
                )
            )
            await session.commit()
            await session.refresh(item)
            return item

    async def get(self, item_id: int) -> MemoryItem | None:
        async with self.sessions() as session:
            return await session.get(MemoryItem, item_id)

    async def items(
        self, phase: MemoryPhase | None = None, status: LessonStatus | None = None
    ) -> list[MemoryItem]:
        query = select(MemoryItem).order_by(col(MemoryItem.id))
        if phase is not None:
            query = query.where(MemoryItem.phase == phase)
        if status is not None:
            query = query.where(MemoryItem.status == status)
        async with self.sessions() as session:
            return list(await session.exec(query))

    async def record_use(self, item_ids: list[int]) -> None:
        async with self.sessions() as session:
            await session.exec(
                update(MemoryItem)
                .where(col(MemoryItem.id).in_(item_ids))
                .values(uses=MemoryItem.uses + 1, last_used_at=utcnow())
            )
            await session.commit()

    async def audit(self, item_id: int) -> list[MemoryAudit]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(MemoryAudit)
                .where(MemoryAudit.item_id == item_id)
                .order_by(col(MemoryAudit.id))
            )
            return list(rows)
