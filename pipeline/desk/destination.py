"""Where approved notes go (`NotesDestination`): X's Community Notes API for posts on X, Open
Community Notes for posts on Bluesky; and what a destination says of the notes written."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from pipeline.errors import EvoNoteError
from pipeline.post import Post


class WritingLimitReached(EvoNoteError):
    """The destination says today's writing limit is reached (X: HTTP 403
    `UsageCapExceeded`), whatever the desk's own count of it said: the note waits in the
    queue for the next slot."""


class EvaluatorOutcome(BaseModel):
    """One of X's evaluators on a written note (`test_result.evaluation_outcome`)."""

    evaluator_type: str
    evaluator_score_bucket: str


class RatingCounts(BaseModel):
    """How raters rated a note so far, summed over X's rater-factor buckets
    (`scoring_status.rating_counts_per_model`, the "expansion" model's negative, neutral and
    positive buckets, as `xai-org/community-writer` reads them)."""

    helpful: int = 0
    somewhat_helpful: int = 0
    not_helpful: int = 0

    @property
    def total(self) -> int:
        return self.helpful + self.somewhat_helpful + self.not_helpful


class WrittenNote(BaseModel):
    """A note the account wrote, as the destination lists it."""

    id: str
    post_id: str | None = None
    status: str | None = None
    evaluations: list[EvaluatorOutcome] = Field(default_factory=list)
    # raters' top Not Helpful tag per rater-factor bucket ("left: sources_missing_or_unreliable")
    not_helpful_tags: list[str] = Field(default_factory=list)
    ratings: RatingCounts | None = None  # None: X gave no counts (no access, none yet)


@runtime_checkable
class WithdrawsNotes(Protocol):
    """A destination that lets the writer withdraw a note it wrote (X: `DELETE /2/notes/{id}`,
    REFERENCE.md)."""

    async def withdraw(self, note_id: str) -> None:
        """The note is gone afterwards: withdrawn now, or gone already (asked twice)."""
        ...


class NotesDestination(Protocol):
    """Where approved notes go: X's Community Notes API, Open Community Notes on Bluesky."""

    key: str  # stored with each submission: "x", "bluesky"
    name: str  # for people: "X", "Open Community Notes"
    daily_cap: int  # submissions a day the destination takes from one account
    evaluates: bool  # it scores a note first, and a note must clear the bar
    has_writing_limit: bool  # live notes count against a daily limit set from their ratings
    test_mode: bool  # the configured mode (X's test mode; Bluesky's dry run)

    def takes(self, post: Post) -> str | None:
        """The id this destination knows the post by; None when the post is not its own."""
        ...

    async def evaluate(self, post_id: str, text: str) -> float: ...

    async def submit(
        self,
        post_id: str,
        text: str,
        *,
        classification: str,
        misleading_tags: list[str],
        sources: bool,
        test_mode: bool,
    ) -> str: ...

    async def notes_written(self, *, test_mode: bool) -> list[WrittenNote]: ...

    async def whoami(self) -> str:
        """Who the destination takes us for: one call that proves the credentials (doctor)."""
        ...
