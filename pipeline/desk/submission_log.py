"""What is stored of submitting, in the database every process shares: the submissions, the
evaluator's scores of each text, the queue (`SubmissionLog`), and the episode's note as the
desk reads and revises it (`NoteBook`)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel

from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.revision_log import LateRevision


class EvaluationVerdict(StrEnum):
    """What the desk did with a note the destination's evaluator scored."""

    CLEARED = "cleared"
    REVISED = "revised"
    HELD = "held"
    # live, after admission: scored and kept (card, submission, `x report`), never a gate
    RECORDED = "recorded"


class NoteEvaluation(BaseModel):
    """One score of the destination's evaluator for one text of an episode's note."""

    episode_id: int
    note_text: str
    claim_opinion_score: float
    revision: int = 0  # 0: the note as approved; n: the writer's n-th revision
    verdict: EvaluationVerdict = EvaluationVerdict.CLEARED
    evaluated_at: datetime | None = None


@dataclasses.dataclass(frozen=True)
class CardRecords:
    """What is stored of an episode that its card shows, read in one store call
    (`SubmissionLog.card_records`): its votes (X's raters' verdict among them), what was sent,
    why it waits, the evaluator's scores, a note another episode sent on the same post, and the
    revisions tried on that post after its note went out."""

    votes: list[Vote] = dataclasses.field(default_factory=list)
    submission: Submission | None = None
    queued: str | None = None
    evaluations: list[NoteEvaluation] = dataclasses.field(default_factory=list)
    post_noted: Submission | None = None
    # the note's revisions after it went out (`LateRevisions`), oldest first
    revisions: list[LateRevision] = dataclasses.field(default_factory=list)


class SubmissionLog(Protocol):
    """Submissions, evaluations and the queue, in the database every process shares."""

    async def for_post(self, post_id: str) -> Submission | None: ...

    async def for_episode(self, episode_id: int) -> Submission | None: ...

    async def add(self, submission: Submission) -> Submission: ...

    async def all(self) -> list[Submission]: ...

    async def submitted_since(
        self, seconds: float, *, test_mode: bool | None = None, destination: str | None = None
    ) -> int: ...

    async def record_status(
        self,
        note_id: str,
        status: str | None,
        evaluations: list[dict[str, str]],
        not_helpful_tags: list[str] | None = None,
        ratings: dict[str, int] | None = None,
    ) -> bool: ...

    async def mark_withdrawn(self, note_id: str) -> None:
        """Record that the note was withdrawn at the destination (once: a second call keeps
        the first time)."""
        ...

    async def add_evaluation(self, evaluation: NoteEvaluation) -> None: ...

    async def evaluations(self, episode_id: int) -> list[NoteEvaluation]: ...

    async def queue(self, episode_id: int, by: str, test_mode: bool, why: str) -> None: ...

    async def queued(self) -> list[tuple[int, str, bool]]: ...

    async def queued_for(self, episode_id: int) -> str | None: ...

    async def card_records(self, episode_id: int, post_id: str | None) -> CardRecords: ...

    async def unqueue(self, episode_id: int) -> None: ...


class NoteBook(Protocol):
    """What the desk reads and changes of an episode (the `EpisodeRepository` has it)."""

    async def get(self, episode_id: int) -> Episode | None: ...

    async def revise_note(
        self, episode_id: int, note: str, urls: list[str], char_count: int
    ) -> Episode: ...
