"""Submissions to X, one per post, with their status history."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select, update

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.tables import EpisodeRow, SubmissionRow, utcnow
from pipeline.desk.episode import Submission


def _typed(row: SubmissionRow | None) -> Submission | None:
    return None if row is None else Submission.model_validate(row, from_attributes=True)


FINAL = {"currently_rated_helpful", "currently_rated_not_helpful", "firm_reject"}


class SubmissionStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def for_post(self, post_id: str) -> Submission | None:
        async with self.sessions() as session:
            rows = await session.exec(select(SubmissionRow).where(SubmissionRow.post_id == post_id))
            return _typed(rows.first())

    async def for_episode(self, episode_id: int) -> Submission | None:
        async with self.sessions() as session:
            rows = await session.exec(
                select(SubmissionRow).where(SubmissionRow.episode_id == episode_id)
            )
            return _typed(rows.first())

    async def add(self, submission: Submission) -> Submission:
        row = SubmissionRow(**submission.model_dump(exclude_none=True))
        async with self.sessions() as session:
            session.add(row)
            await session.commit()
        return Submission.model_validate(row, from_attributes=True)

    async def all(self) -> list[Submission]:
        async with self.sessions() as session:
            rows = await session.exec(select(SubmissionRow).order_by(col(SubmissionRow.id)))
            return [Submission.model_validate(r, from_attributes=True) for r in rows]

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
