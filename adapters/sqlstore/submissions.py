"""Submissions to X, one per post, with their status history; the evaluator's scores of each
note before it went; the submissions waiting for the next day's writing limit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, delete, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.episodes import votes_in
from adapters.sqlstore.tables import (
    EpisodeRow,
    FeedbackRow,
    LateRevisionRow,
    NoteEvaluationRow,
    SubmissionQueueRow,
    SubmissionRow,
    utcnow,
)
from pipeline.desk.episode import CROWD_PLATFORM, Submission
from pipeline.desk.outcomes import HELPFUL, NOT_HELPFUL
from pipeline.desk.revision_log import LateRevision, RevisionState
from pipeline.desk.submission_log import CardRecords, NoteEvaluation


def _typed(row: SubmissionRow | None) -> Submission | None:
    return None if row is None else Submission.model_validate(row, from_attributes=True)


FINAL = {HELPFUL, *NOT_HELPFUL}


# Each read once, in a session of the caller's: a method opens its own, a card's facts share one.
async def _on_post(session: AsyncSession, post_id: str) -> Submission | None:
    rows = await session.exec(select(SubmissionRow).where(SubmissionRow.post_id == post_id))
    return _typed(rows.first())


async def _of_episode(session: AsyncSession, episode_id: int) -> Submission | None:
    rows = await session.exec(select(SubmissionRow).where(SubmissionRow.episode_id == episode_id))
    return _typed(rows.first())


async def _evaluations(session: AsyncSession, episode_id: int) -> list[NoteEvaluation]:
    rows = await session.exec(
        select(NoteEvaluationRow)
        .where(NoteEvaluationRow.episode_id == episode_id)
        .order_by(col(NoteEvaluationRow.id))
    )
    return [NoteEvaluation.model_validate(r, from_attributes=True) for r in rows]


async def _revisions(session: AsyncSession, post_id: str | None) -> list[LateRevision]:
    query = select(LateRevisionRow).order_by(col(LateRevisionRow.id))
    if post_id is not None:
        query = query.where(LateRevisionRow.post_id == post_id)
    return [LateRevision.model_validate(r, from_attributes=True) for r in await session.exec(query)]


async def _queued_reason(session: AsyncSession, episode_id: int) -> str | None:
    row = await session.get(SubmissionQueueRow, episode_id)
    return None if row is None else row.reason


class SubmissionStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = sessions_of(engine)

    async def for_post(self, post_id: str) -> Submission | None:
        async with self.sessions() as session:
            return await _on_post(session, post_id)

    async def for_episode(self, episode_id: int) -> Submission | None:
        async with self.sessions() as session:
            return await _of_episode(session, episode_id)

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

    async def submitted_since(
        self, seconds: float, *, test_mode: bool | None = None, destination: str | None = None
    ) -> int:
        """Submissions in the last `seconds` (of one mode, or both; to one destination, or
        any), whichever process sent."""
        since = utcnow() - timedelta(seconds=seconds)
        query = select(SubmissionRow.id).where(col(SubmissionRow.submitted_at) >= since)
        if test_mode is not None:
            query = query.where(SubmissionRow.test_mode == test_mode)
        if destination is not None:
            query = query.where(SubmissionRow.destination == destination)
        # a revision sent after the note went out is a new note to X: it counts too
        revised = select(LateRevisionRow.id).where(col(LateRevisionRow.sent_at) >= since)
        if test_mode is not None:
            revised = revised.where(LateRevisionRow.test_mode == test_mode)
        if destination not in (None, "x"):
            return await self._count(query)
        return await self._count(query) + await self._count(revised)

    async def _count(self, query: Any) -> int:
        async with self.sessions() as session:
            return len(list(await session.exec(query)))

    async def add_evaluation(self, evaluation: NoteEvaluation) -> None:
        async with self.sessions() as session:
            session.add(NoteEvaluationRow(**evaluation.model_dump(exclude_none=True)))
            await session.commit()

    async def evaluations(self, episode_id: int) -> list[NoteEvaluation]:
        """Oldest first."""
        async with self.sessions() as session:
            return await _evaluations(session, episode_id)

    async def queue(self, episode_id: int, by: str, test_mode: bool, why: str) -> None:
        """Queued once: pressing Submit again while it waits changes nothing."""
        async with self.sessions() as session:
            if await session.get(SubmissionQueueRow, episode_id) is None:
                session.add(
                    SubmissionQueueRow(
                        episode_id=episode_id, requested_by=by, test_mode=test_mode, reason=why
                    )
                )
                await session.commit()

    async def queued(self) -> list[tuple[int, str, bool]]:
        """(episode, who asked, test mode), oldest first."""
        async with self.sessions() as session:
            rows = await session.exec(
                select(SubmissionQueueRow).order_by(col(SubmissionQueueRow.queued_at))
            )
            return [(r.episode_id, r.requested_by, r.test_mode) for r in rows]

    async def queued_for(self, episode_id: int) -> str | None:
        """Why the episode's submission waits, when it does."""
        async with self.sessions() as session:
            return await _queued_reason(session, episode_id)

    async def card_records(self, episode_id: int, post_id: str | None) -> CardRecords:
        """Everything an episode's card shows, in one session: a card is drawn at every state
        an episode reaches, on every vote, and was 5 reads each."""
        async with self.sessions() as session:
            return CardRecords(
                votes=await votes_in(session, episode_id),
                submission=await _of_episode(session, episode_id),
                queued=await _queued_reason(session, episode_id),
                evaluations=await _evaluations(session, episode_id),
                post_noted=None if post_id is None else await _on_post(session, post_id),
                revisions=[] if post_id is None else await _revisions(session, post_id),
            )

    async def unqueue(self, episode_id: int) -> None:
        async with self.sessions() as session:
            await session.exec(
                delete(SubmissionQueueRow).where(col(SubmissionQueueRow.episode_id) == episode_id)
            )
            await session.commit()

    @staticmethod
    async def crowd_vote(
        session: AsyncSession, episode_id: int, note_id: str, status: str, tags: list[str]
    ) -> None:
        """X's raters' final verdict as a vote on the episode, like a moderator's 👍 or 👎 with
        its reason (`CROWD_PLATFORM`): it reaches the judge and the distiller, and moves the
        lessons the episode used. One per note; a verdict that flips changes it, and the
        lessons count the change once."""
        vote = 1 if status == HELPFUL else -1
        reason = (
            "raters across perspectives on X found it helpful"
            if vote > 0
            else "raters across perspectives on X found it not helpful"
            + (f" (top tags: {'; '.join(tags)})" if tags else "")
        )
        event = f"x-crowd:{note_id}"
        existing = (
            await session.exec(select(FeedbackRow).where(FeedbackRow.event_id == event))
        ).first()
        if existing is None:
            session.add(
                FeedbackRow(
                    episode_id=episode_id,
                    platform=CROWD_PLATFORM,
                    user="raters on X",
                    vote=vote,
                    reason=reason,
                    event_id=event,
                    moderator=True,  # it counts, as a moderator's vote does
                )
            )
        elif existing.vote != vote or existing.reason != reason:
            existing.vote, existing.reason = vote, reason
            existing.applied_to_memory = existing.applied_vote == vote
            session.add(existing)

    async def mark_withdrawn(self, note_id: str) -> None:
        async with self.sessions() as session:
            await session.exec(
                update(SubmissionRow)
                .where(
                    col(SubmissionRow.note_id) == note_id, col(SubmissionRow.withdrawn_at).is_(None)
                )
                .values(withdrawn_at=utcnow(), updated_at=utcnow())
            )
            await session.commit()

    async def record_status(
        self,
        note_id: str,
        status: str | None,
        evaluations: list[dict[str, Any]],
        not_helpful_tags: list[str] | None = None,
        ratings: dict[str, int] | None = None,
    ) -> bool:
        """True when the status or the evaluator outcomes changed. A final verdict becomes the
        crowd's vote on the episode (`crowd_vote`) and sends it back to the judge. `ratings`:
        the raters' counts so far, kept whenever they change (not a change of status)."""
        async with self.sessions() as session:
            row = (
                await session.exec(select(SubmissionRow).where(SubmissionRow.note_id == note_id))
            ).first()
            if row is None:
                return False
            outcomes_changed = bool(evaluations) and evaluations != row.evaluator_outcomes
            if ratings is not None and ratings != row.ratings:
                row.ratings = ratings
                row.updated_at = utcnow()
                session.add(row)
            if row.status == status and not outcomes_changed:
                await session.commit()
                return False
            if outcomes_changed:
                row.evaluator_outcomes = evaluations
            if row.status != status:
                row.status = status
                tags = list(not_helpful_tags or [])
                row.status_history = [
                    *row.status_history,
                    {
                        "status": status,
                        "at": utcnow().isoformat(),
                        "evaluations": evaluations,
                        "not_helpful_tags": tags,
                    },
                ]
                if status in FINAL:
                    await self.crowd_vote(session, row.episode_id, note_id, status, tags)
                    await session.exec(
                        update(EpisodeRow)
                        .where(col(EpisodeRow.id) == row.episode_id)
                        .values(judged=False)
                    )
            row.updated_at = utcnow()
            session.add(row)
            await session.commit()
            return True

    # ---- late revisions (`pipeline.desk.revision_log.RevisionLog`) ------------------------

    async def late_revisions(self, post_id: str | None = None) -> list[LateRevision]:
        async with self.sessions() as session:
            return await _revisions(session, post_id)

    async def decide_revision(self, revision: LateRevision) -> LateRevision | None:
        row = LateRevisionRow(**revision.model_dump(exclude_none=True))
        async with self.sessions() as session:
            session.add(row)
            try:
                await session.commit()
            except IntegrityError:  # the note's window is decided already
                await session.rollback()
                return None
        return LateRevision.model_validate(row, from_attributes=True)

    async def move_revision(
        self, revision_id: int, to: RevisionState, reason: str | None = None
    ) -> None:
        values: dict[str, Any] = {"state": to.value}
        if reason is not None:
            values["reason"] = reason
        async with self.sessions() as session:
            await session.exec(
                update(LateRevisionRow)
                .where(col(LateRevisionRow.id) == revision_id)
                .values(**values)
            )
            await session.commit()

    async def count_refusal(self, revision_id: int, reason: str) -> int:
        async with self.sessions() as session:
            row = await session.get(LateRevisionRow, revision_id)
            if row is None:
                return 0
            row.attempts += 1
            session.add(row)
            await session.commit()
            return row.attempts

    async def revision_sent(self, revision_id: int, note_id: str) -> None:
        async with self.sessions() as session:
            revision = await session.get(LateRevisionRow, revision_id)
            if revision is None or revision.state == RevisionState.SENT:
                return
            revision.state, revision.note_id, revision.sent_at = (
                RevisionState.SENT,
                note_id,
                utcnow(),
            )
            row = (
                await session.exec(
                    select(SubmissionRow).where(SubmissionRow.post_id == revision.post_id)
                )
            ).first()
            if row is not None:
                # X scores the revision as a new note: its status and counts start again;
                # the history keeps the note it replaced
                row.status_history = [
                    *row.status_history,
                    {
                        "status": "revised",
                        "at": utcnow().isoformat(),
                        "replaced": row.note_id,
                        "by": note_id,
                        "window": revision.window,
                    },
                ]
                row.note_id, row.status, row.ratings, row.evaluator_outcomes = note_id, None, {}, []
                row.updated_at = utcnow()
                session.add(row)
            session.add(revision)
            await session.commit()
