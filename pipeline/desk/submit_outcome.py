"""What becomes of a press of Submit: sent, revised (approve the revision), held, queued for
the next day, busy; or refused, with what to do."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel

from pipeline.desk.episode import Submission
from pipeline.errors import EvoNoteError


class SubmissionRefused(EvoNoteError):
    """The note may not be submitted (yet): the message says why and what to do."""


class OutcomeKind(StrEnum):
    """What became of a press of Submit."""

    SUBMITTED = "submitted"
    REVISED = "revised"
    HELD = "held"
    QUEUED = "queued"
    BUSY = "busy"


class SubmissionOutcome(BaseModel):
    """What became of a press of Submit: sent, revised (approve the revision), held, or
    queued for the next day."""

    kind: OutcomeKind
    message: str
    submission: Submission | None = None
