"""What the application needs from storage: episodes, their steps and their votes.

`adapters/sqlstore.EpisodeStore` implements it on SQLite and PostgreSQL; the note service, the
desk and the front ends see only this, and only typed `Episode`s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from pipeline.desk.episode import Episode, FailureKind, Vote
from pipeline.forecast.aggregate import Forecast
from pipeline.moderation import VoteOutcome
from pipeline.ports import MemoryMode
from pipeline.post import ExistingNote, Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeOutcome, StepRecord


class VoteBook(Protocol):
    """Episodes as the moderator desk needs them: read, voted on, approved."""

    async def get(self, episode_id: int) -> Episode | None: ...

    async def votes(self, episode_id: int) -> list[Vote]: ...

    async def record_vote(
        self,
        episode_id: int,
        *,
        platform: str,
        user: str,
        vote: int,
        reason: str | None = None,
        moderator: bool = False,
    ) -> VoteOutcome: ...

    async def approve(self, episode_id: int, user: str) -> Episode: ...

    async def reopen_for_judging(self, episode_id: int, within_s: float) -> bool: ...


class EpisodeRepository(VoteBook, Protocol):
    # ---- the queue -------------------------------------------------------------------------
    async def create(
        self, request: NoteRequest, post: Post, memory_mode: MemoryMode
    ) -> Episode: ...

    async def by_request_key(self, key: str) -> Episode | None: ...

    async def claim(self, episode_id: int, owner: str, lease_s: float) -> Episode | None: ...

    async def claim_next(
        self, owner: str, lease_s: float, queued_for_s: float = 0.0
    ) -> Episode | None: ...

    async def waiting(self, queued_for_s: float = 0.0) -> list[int]: ...

    async def requeue_expired(self, max_attempts: int) -> tuple[int, int]: ...

    async def reclaim_orphans(
        self,
        gone: Callable[[str], bool],
        describe: Callable[[str], str],
        fails: Callable[[str], bool],
    ) -> tuple[list[int], list[int]]: ...

    # ---- a running episode -----------------------------------------------------------------
    async def record_steps(self, episode_id: int, steps: Sequence[StepRecord]) -> None: ...

    async def clear_steps(self, episode_id: int) -> None: ...

    async def finish(self, episode_id: int, outcome: EpisodeOutcome) -> Episode: ...

    async def fail(
        self, episode_id: int, reason: str, kind: FailureKind = FailureKind.INTERNAL
    ) -> Episode: ...

    async def delay(self, episode_id: int, reason: str) -> Episode: ...

    async def release(self, episode_id: int, owner: str, reason: str) -> bool: ...

    async def save_forecast(self, episode_id: int, forecast: Forecast) -> Episode: ...

    async def set_reply_message(self, episode_id: int, message: str) -> Episode: ...

    # ---- moderators (and `VoteBook`'s) ----------------------------------------------------
    async def revise_note(
        self, episode_id: int, note: str, urls: list[str], char_count: int
    ) -> Episode: ...

    # ---- reading (and `VoteBook`'s get and votes) ------------------------------------------

    async def steps(self, episode_id: int) -> list[StepRecord]: ...

    async def recent(self, limit: int = 20, status: str | None = None) -> list[Episode]: ...

    async def since(self, moment: datetime) -> list[Episode]: ...

    async def votes_since(self, moment: datetime) -> list[Vote]: ...

    async def count_by_status(self) -> dict[str, int]: ...


class PastNotes(Protocol):
    """EvoNote's notes on an author's other posts, latest first, with their status on X."""

    async def on_author(self, author: str, episode_id: int, limit: int) -> list[ExistingNote]: ...
