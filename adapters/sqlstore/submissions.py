"""Submissions to X, one per post, with their status history."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.sqlstore.tables import EpisodeRow, SubmissionRow, utcnow

FINAL = {"currently_rated_helpful", "currently_rated_not_helpful", "firm_reject"}


class SubmissionStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)

    async def for_post(self, post_id: str) -> SubmissionRow | None:
        async with self.sessions() as session:
            rows = await session.exec(select(SubmissionRow).where(SubmissionRow.post_id == post_id))
            return rows.first()

    async def for_episode(self, episode_id: int) -> SubmissionRow | None:
        async with self.sessions() as session:
            rows = await session.exec(
                select(SubmissionRow).where(SubmissionRow.episode_id == episode_id)
            )
            return rows.first()

    async def add(self, row: SubmissionRow) -> SubmissionRow:
        async with self.sessions() as session:
            session.add(row)
            await session.commit()
        return row

    async def all(self) -> list[SubmissionRow]:
        async with self.sessions() as session:
            return list(await session.exec(select(SubmissionRow).order_by(col(SubmissionRow.id))))

    async def submitted_since(self, seconds: float) -> int:
        from datetime import timedelta

        since = utcnow() - timedelta(seconds=seconds)
        async with self.sessions() as session:
            rows = await session.exec(
                select(SubmissionRow.id).where(col(SubmissionRow.submitted_at) >= since)
            )
            return len(list(rows))

    async def record_status(
        self, note_id: str, status: str | None, evaluations: list[dict[str, Any]]
    ) -> bool:
        """True when the status changed. A final verdict sends the episode back to the judge,
        which now sees the crowd's verdict."""
        async with self.sessions() as session:
            row = (
                await session.exec(select(SubmissionRow).where(SubmissionRow.note_id == note_id))
            ).first()
            if row is None or row.status == status:
                return False
            row.status = status
            row.status_history = [
                *row.status_history,
                {"status": status, "at": utcnow().isoformat(), "evaluations": evaluations},
            ]
            row.updated_at = utcnow()
            session.add(row)
            if status in FINAL:
                await session.exec(
                    update(EpisodeRow)
                    .where(col(EpisodeRow.id) == row.episode_id)
                    .values(judged=False)
                )
            await session.commit()
            return True
