"""Episodes and their steps: queue, claim with a lease, journal steps, finish."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, or_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.tables import EpisodeRow, FeedbackRow, StepRow, SubmissionRow, utcnow
from pipeline.desk.episode import Episode, FailureKind, Vote
from pipeline.errors import DuplicateRequest, EpisodeNotFound
from pipeline.forecast.aggregate import Forecast
from pipeline.moderation import ApprovalRefused, VoteOutcome, approval_refusal
from pipeline.ports import MemoryMode
from pipeline.post import ExistingNote, Post
from pipeline.redact import redact
from pipeline.request import BACKGROUND_SOURCES, NoteRequest
from pipeline.trajectory import EpisodeOutcome, EpisodeStatus, StepRecord

ACTIVE = (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING)
# What people asked for before what scans found, then oldest.
_CLAIM_ORDER = (
    col(EpisodeRow.source).in_(BACKGROUND_SOURCES),
    col(EpisodeRow.created_at),
    col(EpisodeRow.id),
)


def _claimable(queued_for_s: float) -> tuple[Any, ...]:
    """Queued, and either older than `queued_for_s` or run before (requeued at shutdown, lease
    expired, delayed): an episode never run and younger is left to the front end that queued
    it."""
    return (
        EpisodeRow.status == EpisodeStatus.QUEUED,
        or_(
            col(EpisodeRow.created_at) <= utcnow() - timedelta(seconds=queued_for_s),
            col(EpisodeRow.attempts) > 0,
        ),
    )


def episode(row: EpisodeRow) -> Episode:
    """The row as the application's typed Episode (rows never leave this package)."""
    return Episode.model_validate(row, from_attributes=True)


def maybe_episode(row: EpisodeRow | None) -> Episode | None:
    return None if row is None else episode(row)


async def votes_in(session: AsyncSession, episode_id: int) -> list[Vote]:
    """An episode's votes, oldest first, in a session of the caller's (a card reads them with
    its other facts: `SubmissionStore.card_records`)."""
    rows = await session.exec(
        select(FeedbackRow)
        .where(FeedbackRow.episode_id == episode_id)
        .order_by(col(FeedbackRow.id))
    )
    return [Vote.model_validate(r, from_attributes=True) for r in rows]


class EpisodeStore:
    """Episodes, their steps and votes; implements `pipeline.desk.ports.EpisodeRepository`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = sessions_of(engine)

    async def create(self, request: NoteRequest, post: Post, memory_mode: MemoryMode) -> Episode:
        row = EpisodeRow(
            source=request.source,
            requester=request.requester,
            requester_vouched=request.vouched,
            reply_platform=request.reply_to.platform,
            reply_channel=request.reply_to.channel,
            reply_thread=request.reply_to.thread,
            reply_message=request.reply_to.message,
            # what was typed is stored as given, except bytes that were not UTF-8
            post_ref=request.post_ref.encode("utf-8", "replace").decode("utf-8"),
            request_key=request.key,
            post=post.model_dump(mode="json"),
            post_created_at=post.created_at,
            memory_mode=memory_mode,
        )
        async with self.sessions() as session:
            session.add(row)
            try:
                await session.commit()  # expire_on_commit=False: the id is set, no re-read
            except IntegrityError as e:  # the request key is unique: seen before
                raise DuplicateRequest(f"request {request.key} is already stored") from e
        return episode(row)

    async def claim(self, episode_id: int, owner: str, lease_s: float) -> Episode | None:
        """queued → running under a lease; None if it is not queued (someone else has it)."""
        now = utcnow()
        async with self.sessions() as session:
            result = await session.exec(
                update(EpisodeRow)
                .where(
                    col(EpisodeRow.id) == episode_id, col(EpisodeRow.status) == EpisodeStatus.QUEUED
                )
                .values(
                    status=EpisodeStatus.RUNNING,
                    lease_owner=owner,
                    attempts=EpisodeRow.attempts + 1,
                    lease_expires_at=now + timedelta(seconds=lease_s),
                    started_at=now,
                )
                .returning(EpisodeRow)
            )
            row: EpisodeRow | None = result.scalar_one_or_none()
            await session.commit()
            return maybe_episode(row)

    async def record_steps(self, episode_id: int, steps: Sequence[StepRecord]) -> None:
        # A plain INSERT with bound rows (one compiled statement, cached): steps are written on
        # the hot path and never read back here.
        now = utcnow()
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(StepRow),
                [dict(episode_id=episode_id, created_at=now, **s.model_dump()) for s in steps],
            )

    async def finish(self, episode_id: int, outcome: EpisodeOutcome) -> Episode:
        t = outcome.timings
        return await self._update(
            episode_id,
            status=outcome.status,
            delay_reason=None,
            finished_at=utcnow(),
            lease_owner=None,
            lease_expires_at=None,
            note_text=outcome.note,
            char_count=outcome.char_count,
            cited_urls=outcome.urls,
            abstain_reason=outcome.abstain_reason,
            brief=outcome.brief.model_dump(mode="json") if outcome.brief else None,
            evidence=[e.model_dump(mode="json") for e in outcome.evidence],
            retrieved_memory_ids=outcome.memory_ids,
            model=outcome.model,
            support_checked=outcome.support_checked,
            refused_drafts=outcome.refused_drafts,
            **({"post": outcome.post.model_dump(mode="json")} if outcome.post else {}),
            search_s=t.search_s,
            visit_s=t.visit_s,
            inference_s=t.inference_s,
            total_s=t.total_s,
            turns=t.turns,
            prompt_tokens=t.prompt_tokens,
            completion_tokens=t.completion_tokens,
        )

    async def by_request_key(self, key: str) -> Episode | None:
        async with self.sessions() as session:
            rows = await session.exec(select(EpisodeRow).where(EpisodeRow.request_key == key))
            return maybe_episode(rows.first())

    async def set_reply_message(self, episode_id: int, message: str) -> Episode:
        return await self._update(episode_id, reply_message=message)

    async def approve(self, episode_id: int, user: str) -> Episode:
        """Mark the note approved by `user`; ApprovalRefused when there is no note (or no
        episode) to approve."""
        row = await self.get(episode_id)
        if row is None:
            raise ApprovalRefused(f"there is no episode {episode_id}")
        if (refusal := approval_refusal(row.status)) is not None:
            raise ApprovalRefused(refusal)
        return await self._update(episode_id, approved_by=user, approved_at=utcnow())

    async def revise_note(
        self, episode_id: int, note: str, urls: list[str], char_count: int
    ) -> Episode:
        """A revision replaces the note; nobody has approved its words, so the approval goes,
        and the raters' forecast, made for the old words, with it."""
        return await self._update(
            episode_id,
            note_text=note,
            cited_urls=urls,
            char_count=char_count,
            approved_by=None,
            approved_at=None,
            forecast=None,
        )

    async def votes(self, episode_id: int) -> list[Vote]:
        async with self.sessions() as session:
            return await votes_in(session, episode_id)

    async def save_forecast(self, episode_id: int, forecast: Forecast) -> Episode:
        return await self._update(episode_id, forecast=forecast.model_dump(mode="json"))

    async def fail(
        self, episode_id: int, reason: str, kind: FailureKind = FailureKind.INTERNAL
    ) -> Episode:
        return await self._update(
            episode_id,
            status=EpisodeStatus.FAILED,
            delay_reason=None,
            failure_reason=reason,
            failure_kind=kind,
            finished_at=utcnow(),
            lease_owner=None,
            lease_expires_at=None,
        )

    async def _update(self, episode_id: int, **values: object) -> Episode:
        # Reasons are shown on cards and printed: no secret may be stored in one.
        for key, value in values.items():
            if key.endswith("_reason") and isinstance(value, str):
                values[key] = redact(value)
        async with self.sessions() as session:
            result = await session.exec(
                update(EpisodeRow)
                .where(col(EpisodeRow.id) == episode_id)
                .values(**values)
                .returning(EpisodeRow)
            )
            row: EpisodeRow | None = result.scalar_one_or_none()
            await session.commit()
        if row is None:
            raise EpisodeNotFound(f"episode {episode_id} does not exist")
        return episode(row)

    async def claim_next(
        self, owner: str, lease_s: float, queued_for_s: float = 0.0
    ) -> Episode | None:
        """The oldest queued episode, now running under `owner`'s lease. On PostgreSQL the row
        is locked with SKIP LOCKED, so concurrent workers each get a different one; on SQLite
        the conditional update settles a race and the loser tries the next episode. An episode
        never run that is younger than `queued_for_s` is left to the front end that queued it."""
        while True:
            async with self.sessions() as session:
                episode_id = (
                    await session.exec(
                        select(EpisodeRow.id)
                        .where(*_claimable(queued_for_s))
                        .order_by(*_CLAIM_ORDER)
                        .limit(1)
                        .with_for_update(skip_locked=True)
                    )
                ).first()
                if episode_id is None:
                    return None
                now = utcnow()
                row: EpisodeRow | None = (
                    await session.exec(
                        update(EpisodeRow)
                        .where(
                            col(EpisodeRow.id) == episode_id,
                            col(EpisodeRow.status) == EpisodeStatus.QUEUED,
                        )
                        .values(
                            status=EpisodeStatus.RUNNING,
                            lease_owner=owner,
                            attempts=EpisodeRow.attempts + 1,
                            started_at=now,
                            lease_expires_at=now + timedelta(seconds=lease_s),
                        )
                        .returning(EpisodeRow)
                    )
                ).scalar_one_or_none()
                await session.commit()
            if row is not None:
                return episode(row)

    async def waiting(self, queued_for_s: float = 0.0) -> list[int]:
        """The ids `claim_next` would take, in its order (recovery runs them side by side)."""
        async with self.sessions() as session:
            rows = await session.exec(
                select(EpisodeRow.id).where(*_claimable(queued_for_s)).order_by(*_CLAIM_ORDER)
            )
            return [i for i in rows if i is not None]

    async def requeue_expired(self, max_attempts: int) -> tuple[int, int]:
        """Episodes whose worker died (lease expired) run again, at most `max_attempts` times
        in all; then they fail with the reason. Returns (requeued, failed)."""
        now = utcnow()
        expired = (
            col(EpisodeRow.status) == EpisodeStatus.RUNNING,
            col(EpisodeRow.lease_expires_at) < now,
        )
        async with self.sessions() as session:
            failed = await session.exec(
                update(EpisodeRow)
                .where(*expired, col(EpisodeRow.attempts) >= max_attempts)
                .values(
                    status=EpisodeStatus.FAILED,
                    finished_at=now,
                    lease_owner=None,
                    failure_reason=f"gave up after {max_attempts} attempts: the worker "
                    "stopped before the episode finished",
                    failure_kind=FailureKind.WORKER,
                )
            )
            requeued = await session.exec(
                update(EpisodeRow)
                .where(*expired)
                .values(status=EpisodeStatus.QUEUED, lease_owner=None, lease_expires_at=None)
            )
            await session.commit()
            return int(requeued.rowcount), int(failed.rowcount)

    async def reclaim_orphans(
        self,
        gone: Callable[[str], bool],
        describe: Callable[[str], str],
        fails: Callable[[str], bool],
    ) -> tuple[list[int], list[int]]:
        """Running episodes whose owner process is `gone`, at once rather than after the
        lease: those whose owner `fails` them (a CLI command: no other process picks its
        request up) fail naming the stopped process; the rest go back to the queue (the
        attempt stays counted). Returns (requeued ids, failed ids)."""
        async with self.sessions() as session:
            running = (
                await session.exec(
                    select(EpisodeRow).where(
                        col(EpisodeRow.status) == EpisodeStatus.RUNNING,
                        col(EpisodeRow.lease_owner) != None,  # noqa: E711
                    )
                )
            ).all()
        owners = {r.lease_owner for r in running if r.lease_owner}
        # whether a process is gone is read from /proc: off the event loop
        dead = await asyncio.to_thread(lambda: {owner for owner in owners if gone(owner)})
        orphans = [r for r in running if r.lease_owner in dead]
        requeued: list[int] = []
        failed: list[int] = []
        for row in orphans:
            assert row.id is not None
            assert row.lease_owner is not None
            still_theirs = (
                col(EpisodeRow.status) == EpisodeStatus.RUNNING,
                col(EpisodeRow.lease_owner) == row.lease_owner,
            )
            async with self.sessions() as session:
                if fails(row.lease_owner):
                    result = await session.exec(
                        update(EpisodeRow)
                        .where(col(EpisodeRow.id) == row.id, *still_theirs)
                        .values(
                            status=EpisodeStatus.FAILED,
                            finished_at=utcnow(),
                            lease_owner=None,
                            lease_expires_at=None,
                            failure_reason=f"{describe(row.lease_owner)} stopped before the "
                            "episode finished",
                            failure_kind=FailureKind.WORKER,
                        )
                    )
                    target = failed
                else:
                    result = await session.exec(
                        update(EpisodeRow)
                        .where(col(EpisodeRow.id) == row.id, *still_theirs)
                        .values(
                            status=EpisodeStatus.QUEUED,
                            lease_owner=None,
                            lease_expires_at=None,
                            delay_reason=f"requeued: {describe(row.lease_owner)} stopped "
                            "before it finished",
                        )
                    )
                    target = requeued
                await session.commit()
                if result.rowcount:
                    target.append(row.id)
        return requeued, failed

    async def clear_steps(self, episode_id: int) -> None:
        """An attempt that did not finish leaves steps the next attempt replaces."""
        async with self.sessions() as session:
            await session.exec(delete(StepRow).where(col(StepRow.episode_id) == episode_id))
            await session.commit()

    async def delay(self, episode_id: int, reason: str) -> Episode:
        """Back to the queue, to be retried later, with the reason the requester sees."""
        return await self._update(
            episode_id,
            status=EpisodeStatus.QUEUED,
            lease_owner=None,
            lease_expires_at=None,
            delay_reason=reason,
        )

    async def release(self, episode_id: int, owner: str, reason: str) -> bool:
        """Back to the queue if `owner` still runs it (not taken over meanwhile); True if so."""
        async with self.sessions() as session:
            result = await session.exec(
                update(EpisodeRow)
                .where(
                    col(EpisodeRow.id) == episode_id,
                    col(EpisodeRow.status) == EpisodeStatus.RUNNING,
                    col(EpisodeRow.lease_owner) == owner,
                )
                .values(
                    status=EpisodeStatus.QUEUED,
                    lease_owner=None,
                    lease_expires_at=None,
                    delay_reason=reason,
                )
            )
            await session.commit()
            return bool(result.rowcount)

    async def get(self, episode_id: int) -> Episode | None:
        async with self.sessions() as session:
            return maybe_episode(await session.get(EpisodeRow, episode_id))

    async def steps(self, episode_id: int) -> list[StepRecord]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(StepRow).where(StepRow.episode_id == episode_id).order_by(col(StepRow.index))
            )
            return [StepRecord.model_validate(r, from_attributes=True) for r in rows]

    async def count_by_status(self) -> dict[str, int]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(EpisodeRow.status, func.count()).group_by(col(EpisodeRow.status))
            )
            return {str(status): int(n) for status, n in rows}

    async def since(self, moment: datetime) -> list[Episode]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(EpisodeRow)
                .where(col(EpisodeRow.created_at) >= moment)
                .order_by(col(EpisodeRow.id))
            )
            return [episode(r) for r in rows]

    async def votes_since(self, moment: datetime) -> list[Vote]:
        async with self.sessions() as session:
            rows = await session.exec(
                select(FeedbackRow).where(col(FeedbackRow.created_at) >= moment)
            )
            return [Vote.model_validate(r, from_attributes=True) for r in rows]

    async def recent(self, limit: int = 20, status: str | None = None) -> list[Episode]:
        async with self.sessions() as session:
            query = select(EpisodeRow).order_by(col(EpisodeRow.id).desc()).limit(limit)
            if status:
                query = query.where(EpisodeRow.status == status)
            return [episode(r) for r in await session.exec(query)]

    async def on_author(self, author: str, episode_id: int, limit: int) -> list[ExistingNote]:
        """EvoNote's notes on `author`'s other posts, latest first, with their status on X
        (None until submitted and synced). The author is in the post's JSON: the latest 500
        noted episodes are looked through."""
        async with self.sessions() as session:
            rows = await session.exec(
                select(EpisodeRow.post, EpisodeRow.note_text, SubmissionRow.status)
                .join(
                    SubmissionRow,
                    col(SubmissionRow.episode_id) == col(EpisodeRow.id),
                    isouter=True,
                )
                .where(
                    EpisodeRow.status == EpisodeStatus.NOTED,
                    col(EpisodeRow.id) != episode_id,
                )
                .order_by(col(EpisodeRow.id).desc())
                .limit(500)
            )
            wanted = author.lower().lstrip("@")
            notes = [
                ExistingNote(text=(text or "").split("\n\n")[0][:280], status=status)
                for post, text, status in rows
                if isinstance(post, dict) and str(post.get("author") or "").lower() == wanted
            ]
        return notes[:limit]

    async def authors_since(self, seconds: float, source: str) -> Counter[str]:
        """Episodes from `source` created in the last `seconds`, per author of their post
        (lower case): what a scan's per-author daily cap counts."""
        since = utcnow() - timedelta(seconds=seconds)
        async with self.sessions() as session:
            posts = await session.exec(
                select(EpisodeRow.post).where(
                    EpisodeRow.source == source, col(EpisodeRow.created_at) >= since
                )
            )
            return Counter(
                str(p.get("author")).lower()
                for p in posts
                if isinstance(p, dict) and p.get("author")
            )

    async def reopen_for_judging(self, episode_id: int, within_s: float) -> bool:
        """Judge a finished episode again (a vote came, or changed, after it was judged), if
        it finished within `within_s`. True when it was reopened."""
        since = utcnow() - timedelta(seconds=within_s)
        async with self.sessions() as session:
            result = await session.exec(
                update(EpisodeRow)
                .where(
                    col(EpisodeRow.id) == episode_id,
                    col(EpisodeRow.judged).is_(True),
                    col(EpisodeRow.finished_at) >= since,
                )
                .values(judged=False)
            )
            await session.commit()
            return bool(result.rowcount)

    async def record_vote(
        self,
        episode_id: int,
        *,
        platform: str,
        user: str,
        vote: int,
        reason: str | None = None,
        moderator: bool = False,
    ) -> VoteOutcome:
        """One vote per person, platform and note; the latest counts. A changed vote is
        applied to the lessons again (the difference: see `applied_vote`). Only a
        `moderator`'s vote ever reaches the lessons; anyone else's is recorded and shown."""
        if vote not in (1, -1):
            raise ValueError("a vote is +1 or -1")
        key = f"vote:{platform}:{episode_id}:{user}"
        for _ in range(2):  # a concurrent first vote by the same person: the loser updates
            async with self.sessions() as session:
                current = (
                    await session.exec(select(FeedbackRow).where(FeedbackRow.event_id == key))
                ).first()
                if current is None:
                    if await session.get(EpisodeRow, episode_id) is None:
                        raise EpisodeNotFound(f"there is no episode {episode_id}")
                    session.add(
                        FeedbackRow(
                            episode_id=episode_id,
                            platform=platform,
                            user=user,
                            vote=vote,
                            reason=reason,
                            event_id=key,
                            moderator=moderator,
                            applied_to_memory=not moderator,
                        )
                    )
                    try:
                        await session.commit()
                    except IntegrityError:
                        await session.rollback()
                        continue
                    return VoteOutcome.COUNTED
                if current.vote == vote and (reason is None or reason == current.reason):
                    return VoteOutcome.UNCHANGED
                current.vote, current.reason = vote, reason
                current.created_at = utcnow()
                current.moderator = current.moderator or moderator
                current.applied_to_memory = current.applied_vote == vote or not current.moderator
                await session.commit()
                return VoteOutcome.CHANGED
        raise RuntimeError(f"the vote on episode {episode_id} could not be stored")
