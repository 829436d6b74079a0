"""An episode as the application sees it: typed, whatever database keeps it.

`adapters/sqlstore` stores episodes as rows and hands out these; nothing outside it (and the
composition root) sees a row. Stored JSON that an older version wrote and this one cannot read
(a brief or forecast from before a schema change) is dropped rather than failing a listing.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pipeline.brief import VerificationBrief
from pipeline.evidence import Evidence
from pipeline.forecast.aggregate import Forecast
from pipeline.ports import MemoryMode
from pipeline.post import MAX_POST_CHARS, Post
from pipeline.trajectory import EpisodeStatus


class FailureKind(StrEnum):
    """Why an episode failed: the requester's input, the model server, its answer, a worker
    that stopped, or our own fault."""

    INPUT = "input"
    MODEL_UNAVAILABLE = "model_unavailable"
    MODEL_OUTPUT = "model_output"
    WORKER = "worker"
    INTERNAL = "internal"


class Episode(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    source: str
    requester: str
    reply_platform: str = "cli"
    reply_channel: str | None = None
    reply_thread: str | None = None
    reply_message: str | None = None
    post_ref: str = ""
    request_key: str | None = None
    post: Post
    post_created_at: datetime | None = None
    status: EpisodeStatus
    attempts: int = 0
    lease_owner: str | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    search_s: float | None = None
    visit_s: float | None = None
    inference_s: float | None = None
    total_s: float | None = None
    turns: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = None
    memory_mode: MemoryMode = MemoryMode.OFF
    brief: VerificationBrief | None = None
    note_text: str | None = None
    char_count: int | None = None
    cited_urls: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    abstain_reason: str | None = None
    failure_reason: str | None = None
    failure_kind: FailureKind | None = None
    retrieved_memory_ids: list[int] = Field(default_factory=list)
    support_checked: bool | None = None
    refused_drafts: list[list[str]] = Field(default_factory=list)
    delay_reason: str | None = None
    approved_by: str | None = None
    approved_at: datetime | None = None
    forecast: Forecast | None = None
    judged: bool = False
    utility_mode: str | None = None
    judge_feedback: str | None = None

    @field_validator("post", mode="wrap")
    @classmethod
    def _readable_post(cls, value: Any, handler: Any) -> Post:
        try:
            post: Post = handler(value)
        except ValidationError:  # stored before a limit existed: keep what can be shown
            text = str(value.get("text", "") if isinstance(value, dict) else "")
            post = Post.model_construct(text=text[:MAX_POST_CHARS])
        return post

    @field_validator("brief", "forecast", mode="wrap")
    @classmethod
    def _readable_or_none(cls, value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except ValidationError:
            return None

    @field_validator("evidence", mode="wrap")
    @classmethod
    def _readable_evidence(cls, value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except ValidationError:
            return []

    def post_text(self) -> str:
        """What the person gave: the post's text, or the reference when it could not be read."""
        return self.post.text or self.post_ref

    def media_not_inspected(self) -> int:
        """Images or videos of the post that no one described (no caption, no alt text)."""
        return sum(1 for m in self.post.media if not (m.caption or m.alt_text))


# The platform of the vote X's raters cast by their final verdict on our note (`x sync`): it
# counts like a moderator's, and cards and `memory show` name it apart.
CROWD_PLATFORM = "x_crowd"


class Vote(BaseModel):
    """A moderator's vote on an episode's note (the latest of each person), or the crowd's on
    X (`CROWD_PLATFORM`)."""

    model_config = ConfigDict(from_attributes=True)

    episode_id: int
    platform: str
    user: str
    vote: int
    reason: str | None = None
    created_at: datetime


class Submission(BaseModel):
    """A note submitted to X's Community Notes API (one per post) and what became of it."""

    model_config = ConfigDict(from_attributes=True)

    episode_id: int
    post_id: str
    note_id: str
    destination: str = "x"  # the NotesDestination's key: "x", "bluesky"
    test_mode: bool = True
    classification: str
    misleading_tags: list[str] = Field(default_factory=list)
    claim_opinion_score: float | None = None
    submitted_by: str
    status: str | None = None
    status_history: list[dict[str, Any]] = Field(default_factory=list)
    evaluator_outcomes: list[dict[str, Any]] = Field(default_factory=list)
    # why it went when it did: the order (forecast or first come), the forecast's net
    # helpful and the bar, explored or not, the evaluator's score, the post's age and speed
    policy: dict[str, Any] = Field(default_factory=dict)
    # raters' counts so far (helpful, somewhat_helpful, not_helpful), from the last sync
    ratings: dict[str, int] = Field(default_factory=dict)
    withdrawn_at: datetime | None = None  # we withdrew it: early ratings predicted Not Helpful
    submitted_at: datetime | None = None
