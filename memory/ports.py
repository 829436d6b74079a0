"""What the memory needs from outside: an embedder, its store, and the finished episodes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, Field

from memory.models import LessonStatus, MemoryAudit, MemoryItem, UtilityMode
from pipeline.brief import VerificationBrief
from pipeline.evidence import Evidence
from pipeline.ports import MemoryPhase
from pipeline.post import Post

Vectors = NDArray[np.float32]


class Embedder(Protocol):
    """Texts → L2-normalised float32 vectors, one row per text."""

    @property
    def dimension(self) -> int: ...

    async def embed(self, texts: list[str]) -> Vectors: ...


class MemoryStore(Protocol):
    async def add(self, item: MemoryItem, actor: str) -> MemoryItem: ...

    async def update(self, item_id: int, actor: str, action: str, **changes: Any) -> MemoryItem: ...

    async def get(self, item_id: int) -> MemoryItem | None: ...

    async def items(
        self, phase: MemoryPhase | None = None, status: LessonStatus | None = None
    ) -> list[MemoryItem]: ...

    async def record_use(self, item_ids: list[int]) -> None: ...

    async def audit(self, item_id: int) -> list[MemoryAudit]: ...


class Vote(BaseModel):
    vote: int = Field(description="+1 or -1")
    reason: str | None = None
    crowd: bool = False  # X's raters' verdict on the note (`x sync`), not a moderator's vote


class StepView(BaseModel):
    phase: str
    action: dict[str, Any] = Field(default_factory=dict)
    observation: str = ""


class PendingVote(BaseModel):
    """A vote to apply to lessons; `withdrawn` is the vote applied before (a person changed
    their mind: 0 when there was none), so only the difference is applied."""

    feedback_id: int
    episode_id: int = 0
    vote: int
    withdrawn: int = 0
    memory_ids: list[int] = Field(default_factory=list)


class FinishedEpisode(BaseModel):
    """Everything the judge reads about one finished episode."""

    id: int
    post: Post
    requester: str = ""  # "source:user" of whoever asked for it
    requester_vouched: bool = False  # a moderator vouches for them (`NoteRequest.vouched`)
    post_created_at: datetime | None = None
    status: str
    brief: VerificationBrief | None = None
    note: str | None = None
    urls: list[str] = Field(default_factory=list)
    abstain_reason: str | None = None
    failure_reason: str | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    steps: list[StepView] = Field(default_factory=list)
    votes: list[Vote] = Field(default_factory=list)
    crowd_verdict: str | None = None
    memory_ids: list[int] = Field(default_factory=list)


class EpisodeFeed(Protocol):
    """Finished episodes for the judge, claimed so that each is judged exactly once."""

    async def claim_unjudged(
        self, limit: int, judge_after_s: float = 0.0
    ) -> list[FinishedEpisode]: ...

    async def release(self, episode_id: int) -> None: ...

    async def save_judgement(self, episode_id: int, mode: UtilityMode, feedback: str) -> None: ...

    async def unapplied_votes(self) -> list[PendingVote]:
        """Votes (new or changed) not yet applied to the lessons their episode used."""
        ...

    async def mark_votes_applied(self, feedback_ids: list[int]) -> None: ...
