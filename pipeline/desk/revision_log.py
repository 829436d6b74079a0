"""What is stored of revising a note after it went out (`LateRevisions`): one row per note
and window, whatever became of it, in the database every process shares.

A row's state is its place on the way, so that a restart picks it up where a kill left it:
`dropped` (it added no evidence, or could not go: `reason` says why) — `decided` (kept, not
yet sent) — `replacing` (the note it replaces is being withdrawn at X: from here it is sent,
never dropped) — `sent` (`note_id` is the new note's) — `failed` (X refused it, `reason`).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field


class RevisionState(StrEnum):
    DROPPED = "dropped"
    DECIDED = "decided"
    REPLACING = "replacing"
    SENT = "sent"
    FAILED = "failed"


class LateRevision(BaseModel):
    """A revision of a note sent, tried in one window (`RevisionWindow.name`: "1 h", "3 h")."""

    model_config = ConfigDict(from_attributes=True)

    id: int | None = None
    episode_id: int
    post_id: str
    window: str
    replaces_note_id: str  # the note on X when it was decided
    test_mode: bool = True
    state: RevisionState
    reason: str  # why it was dropped or failed; what it adds when kept
    note_text: str | None = None
    cited_urls: list[str] = Field(default_factory=list)
    added_sources: list[str] = Field(default_factory=list)
    note_id: str | None = None  # the new note's, once sent
    attempts: int = 0  # sends X refused
    decided_at: datetime | None = None
    sent_at: datetime | None = None


class RevisionLog(Protocol):
    """The late revisions, in the database every process shares (`SubmissionStore`)."""

    async def late_revisions(self, post_id: str | None = None) -> list[LateRevision]:
        """Oldest first; of one post, or all."""
        ...

    async def decide_revision(self, revision: LateRevision) -> LateRevision | None:
        """Store the decision of a window; None when that note's window was decided already
        (by another run or process): one revision per window per note."""
        ...

    async def move_revision(
        self, revision_id: int, to: RevisionState, reason: str | None = None
    ) -> None: ...

    async def count_refusal(self, revision_id: int, reason: str) -> int:
        """One more send X refused; how many so far."""
        ...

    async def revision_sent(self, revision_id: int, note_id: str) -> None:
        """In one transaction: the revision is sent as `note_id`, and the submission on its
        post now stands for that note (its status and ratings start again; X scores it as a
        new note). Once: a second call changes nothing."""
        ...
