"""`EpisodeFeed` on the database: finished episodes for the judge, claimed exactly once."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import or_
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select, update

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.episodes import episode
from adapters.sqlstore.tables import EpisodeRow, FeedbackRow, StepRow, SubmissionRow, utcnow
from memory.models import UtilityMode
from memory.ports import FinishedEpisode, PendingVote, StepView, Vote
from pipeline.desk.episode import CROWD_PLATFORM
from pipeline.trajectory import EpisodeStatus

FINISHED = (EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED)


class SqlEpisodeFeed:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def claim_unjudged(self, limit: int, judge_after_s: float = 0.0) -> list[FinishedEpisode]:
        """The oldest posts first, each once it has waited `judge_after_s` after finishing (so
        moderators can vote first) or as soon as it has a vote. Each claim is a conditional
        UPDATE, so of two schedulers racing for an episode exactly one wins it."""
        settled = utcnow() - timedelta(seconds=judge_after_s)
        voted = select(FeedbackRow.episode_id)
        async with self.sessions() as session:
            candidates = list(
                await session.exec(
                    select(EpisodeRow.id)
                    .where(
                        col(EpisodeRow.status).in_(FINISHED),
                        col(EpisodeRow.judged).is_(False),
                        or_(
                            col(EpisodeRow.finished_at) <= settled,
                            col(EpisodeRow.id).in_(voted),
                        ),
                    )
                    .order_by(
                        col(EpisodeRow.post_created_at).is_(None),
                        col(EpisodeRow.post_created_at),
                        col(EpisodeRow.created_at),
                    )
                    .limit(limit)
                )
            )
            claimed: list[int] = []
            for episode_id in candidates:
                result = await session.exec(
                    update(EpisodeRow)
                    .where(col(EpisodeRow.id) == episode_id, col(EpisodeRow.judged).is_(False))
                    .values(judged=True)
                )
                if result.rowcount:
                    claimed.append(int(episode_id or 0))
            await session.commit()
        return [await self._finished(episode_id) for episode_id in claimed]

    async def _finished(self, episode_id: int) -> FinishedEpisode:
        async with self.sessions() as session:
            row = await session.get(EpisodeRow, episode_id)
            assert row is not None
            steps = await session.exec(
                select(StepRow).where(StepRow.episode_id == episode_id).order_by(col(StepRow.index))
            )
            submission = (
                await session.exec(
                    select(SubmissionRow).where(SubmissionRow.episode_id == episode_id)
                )
            ).first()
            votes = await session.exec(
                select(FeedbackRow).where(FeedbackRow.episode_id == episode_id)
            )
            typed = episode(row)
            return FinishedEpisode(
                id=episode_id,
                post=typed.post,
                requester=f"{row.source}:{row.requester}",
                requester_vouched=row.requester_vouched,
                post_created_at=row.post_created_at,
                status=row.status,
                brief=typed.brief,
                note=row.note_text,
                urls=row.cited_urls,
                abstain_reason=row.abstain_reason,
                failure_reason=row.failure_reason,
                evidence=typed.evidence,
                memory_ids=row.retrieved_memory_ids,
                steps=[
                    StepView(phase=s.phase, action=s.action, observation=s.observation)
                    for s in steps
                ],
                votes=[
                    Vote(vote=v.vote, reason=v.reason, crowd=v.platform == CROWD_PLATFORM)
                    for v in votes
                    if v.moderator
                ],
                crowd_verdict=submission.status if submission else None,
            )

    async def release(self, episode_id: int) -> None:
        async with self.sessions() as session:
            await session.exec(
                update(EpisodeRow).where(col(EpisodeRow.id) == episode_id).values(judged=False)
            )
            await session.commit()

    async def save_judgement(self, episode_id: int, mode: UtilityMode, feedback: str) -> None:
        async with self.sessions() as session:
            await session.exec(
                update(EpisodeRow)
                .where(col(EpisodeRow.id) == episode_id)
                .values(utility_mode=mode.value, judge_feedback=feedback)
            )
            await session.commit()

    async def unapplied_votes(self) -> list[PendingVote]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(FeedbackRow, EpisodeRow.retrieved_memory_ids)
                .join(EpisodeRow, col(EpisodeRow.id) == col(FeedbackRow.episode_id))
                .where(col(FeedbackRow.applied_to_memory).is_(False))
                .order_by(col(FeedbackRow.id))
            )
            return [
                PendingVote(
                    feedback_id=f.id or 0,
                    episode_id=f.episode_id,
                    vote=f.vote,
                    withdrawn=f.applied_vote,
                    memory_ids=list(ids or []),
                )
                for f, ids in rows
            ]

    async def mark_votes_applied(self, feedback_ids: list[int]) -> None:
        if not feedback_ids:
            return
        async with self.sessions() as session:
            await session.exec(
                update(FeedbackRow)
                .where(col(FeedbackRow.id).in_(feedback_ids))
                .values(applied_to_memory=True, applied_vote=FeedbackRow.vote)
            )
            await session.commit()
