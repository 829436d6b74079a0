"""What an episode leaves behind: its steps, timings and outcome."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from pipeline.brief import VerificationBrief
from pipeline.evidence import Evidence
from pipeline.post import Post

# Observations are stored and shown; a page's whole text is not.
MAX_OBSERVATION_CHARS = 4000


class EpisodeStatus(StrEnum):
    """queued → running → noted | abstained | failed (never left running)."""

    QUEUED = "queued"
    RUNNING = "running"
    NOTED = "noted"
    ABSTAINED = "abstained"
    FAILED = "failed"

    @property
    def finished(self) -> bool:
        return self in (EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED, EpisodeStatus.FAILED)


class StepRecord(BaseModel):
    index: int
    phase: str = Field(description="claim_analysis, search, visit, write, abstain, final, error")
    action: dict[str, Any] = Field(default_factory=dict)
    observation: str = ""
    model: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0


class Timings(BaseModel):
    search_s: float = 0.0
    visit_s: float = 0.0
    inference_s: float = 0.0
    total_s: float = 0.0
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Of the agent turns' prompt characters after the first turn, the share the previous turn's
    # prompt already began with (what a prefix-caching server need not prefill again).
    prompt_prefix_shared: float | None = None


class EpisodeOutcome(BaseModel):
    status: Literal[EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED]
    note: str | None = None
    urls: list[str] = Field(default_factory=list)
    char_count: int | None = None
    abstain_reason: str | None = None
    brief: VerificationBrief | None = None
    evidence: list[Evidence] = Field(default_factory=list)
    timings: Timings = Field(default_factory=Timings)
    memory_ids: list[int] = Field(default_factory=list)
    model: str | None = None
    post: Post | None = Field(default=None, description="the post as analysed (with captions)")
    support_checked: bool | None = Field(
        default=None,
        description="True: every sentence was checked against its sources; False: the "
        "check could not run; None: no note, or the check is off",
    )
    refused_drafts: list[list[str]] = Field(
        default_factory=list,
        description="for each draft sent back, in order, the rules (`RuleId`) that refused it",
    )


class Progress(BaseModel):
    """A change worth showing to the person waiting (the card is edited with it)."""

    phase: Literal["queued", "analysing", "searching", "reading", "writing", "done"]
    searches: int = 0
    max_searches: int = 0
    sources_read: int = 0
    detail: str = ""


class StepJournal(Protocol):
    """Where steps go as they happen, so a crash loses at most the steps in flight. Steps that
    happen together (the claim analysis and the post search beside it) come in one call."""

    async def record(self, *steps: StepRecord) -> None: ...


ProgressListener = Callable[[Progress], Awaitable[None]]


def bounded(text: str, limit: int = MAX_OBSERVATION_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
