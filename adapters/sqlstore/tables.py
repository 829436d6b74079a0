"""Tables. Times are timezone-aware UTC; `utcnow` is the one source of them.

The memory's own tables live in `memory.models`; importing them here registers them with
the shared metadata, so migrations see every table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from memory import models as memory_models  # noqa: F401  (registers the memory tables)
from pipeline.trajectory import EpisodeStatus


def utcnow() -> datetime:
    return datetime.now(UTC)


class EpisodeRow(SQLModel, table=True):
    __tablename__ = "episode"

    id: int | None = Field(default=None, primary_key=True)
    source: str = Field(max_length=32)
    requester: str = Field(max_length=200)
    # a moderator vouches for the requester (`NoteRequest.vouched`): their episode's lessons
    # count as support
    requester_vouched: bool = False
    reply_platform: str = Field(default="cli", max_length=32)
    reply_channel: str | None = Field(default=None, max_length=200)
    reply_thread: str | None = Field(default=None, max_length=200)
    reply_message: str | None = Field(default=None, max_length=200)
    post_ref: str = Field(sa_column=Column(Text, nullable=False))
    request_key: str | None = Field(default=None, max_length=200, unique=True, index=True)
    post: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    post_created_at: datetime | None = Field(default=None, index=True)
    status: str = Field(default=EpisodeStatus.QUEUED, max_length=16, index=True)
    attempts: int = 0
    lease_owner: str | None = Field(default=None, max_length=100)
    lease_expires_at: datetime | None = None
    created_at: datetime = Field(default_factory=utcnow, index=True)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    search_s: float | None = None
    visit_s: float | None = None
    inference_s: float | None = None
    total_s: float | None = None
    turns: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    model: str | None = Field(default=None, max_length=200)
    memory_mode: str = Field(default="off", max_length=16)
    brief: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    note_text: str | None = Field(default=None, sa_column=Column(Text))
    char_count: int | None = None
    cited_urls: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    evidence: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    abstain_reason: str | None = Field(default=None, sa_column=Column(Text))
    failure_reason: str | None = Field(default=None, sa_column=Column(Text))
    failure_kind: str | None = Field(
        default=None,
        max_length=32,
        description="input, model_unavailable, model_output, "
        "worker or internal: a rejected input is not a failure of the system",
    )
    retrieved_memory_ids: list[int] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    support_checked: bool | None = None
    refused_drafts: list[list[str]] = Field(
        default_factory=list,
        sa_column=Column(JSON, nullable=False, server_default="[]"),
        description="for each draft sent back, the rules that refused it",
    )
    delay_reason: str | None = Field(default=None, sa_column=Column(Text))
    approved_by: str | None = Field(default=None, max_length=200)
    approved_at: datetime | None = None
    forecast: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    judged: bool = Field(default=False, index=True)
    utility_mode: str | None = Field(default=None, max_length=32)
    judge_feedback: str | None = Field(default=None, sa_column=Column(Text))


class StepRow(SQLModel, table=True):
    __tablename__ = "step"
    __table_args__ = (UniqueConstraint("episode_id", "index", name="uq_step_episode_index"),)

    id: int | None = Field(default=None, primary_key=True)
    episode_id: int = Field(foreign_key="episode.id", index=True)
    index: int
    phase: str = Field(max_length=32)
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    observation: str = Field(sa_column=Column(Text, nullable=False))
    model: str | None = Field(default=None, max_length=200)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    created_at: datetime = Field(default_factory=utcnow)


class FeedbackRow(SQLModel, table=True):
    """A moderator's vote on an episode. The platform event id makes retries count once."""

    __tablename__ = "feedback"
    __table_args__ = (UniqueConstraint("event_id", name="uq_feedback_event"),)

    id: int | None = Field(default=None, primary_key=True)
    episode_id: int = Field(foreign_key="episode.id", index=True)
    platform: str = Field(max_length=32)
    user: str = Field(max_length=200)
    vote: int
    reason: str | None = Field(default=None, sa_column=Column(Text))
    event_id: str = Field(max_length=200)
    applied_to_memory: bool = Field(default=False, index=True)
    applied_vote: int = Field(default=0, description="the vote the lessons last counted")
    moderator: bool = Field(
        default=False, description="cast by a moderator: only these move lessons and the judge"
    )
    created_at: datetime = Field(default_factory=utcnow)


class SchedulerLeaseRow(SQLModel, table=True):
    """Who runs the scheduler: one holder across all processes, until the lease runs out."""

    __tablename__ = "scheduler_lease"

    name: str = Field(primary_key=True, max_length=64)
    owner: str = Field(max_length=200)
    expires_at: datetime


class WatchStateRow(SQLModel, table=True):
    """The newest post seen per watch (an account or a search), so a scan never re-queues."""

    __tablename__ = "watch_state"

    key: str = Field(primary_key=True, max_length=300)
    newest_id: str | None = Field(default=None, max_length=32)
    user_id: str | None = Field(default=None, max_length=32)
    updated_at: datetime = Field(default_factory=utcnow)


class SubmissionRow(SQLModel, table=True):
    """A note submitted to X's Community Notes API (one per post) and what became of it."""

    __tablename__ = "submission"

    id: int | None = Field(default=None, primary_key=True)
    episode_id: int = Field(foreign_key="episode.id", index=True)
    post_id: str = Field(max_length=512, unique=True, index=True)  # X's id, a Bluesky at:// URI
    note_id: str = Field(max_length=600)  # an X note id, or a proposal's at:// URI
    destination: str = Field(default="x", max_length=16, sa_column_kwargs={"server_default": "x"})
    test_mode: bool = True
    classification: str = Field(max_length=64)
    misleading_tags: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    claim_opinion_score: float | None = None
    submitted_by: str = Field(max_length=200)
    status: str | None = Field(default=None, max_length=64)
    status_history: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    # X's evaluators on the note (test_result.evaluation_outcome), as the last sync saw them
    evaluator_outcomes: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]")
    )
    # the send policy that chose the note (`Submission.policy`)
    policy: dict[str, Any] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    # raters' counts so far (helpful, somewhat_helpful, not_helpful), as the last sync saw them
    ratings: dict[str, int] = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )
    withdrawn_at: datetime | None = None  # we deleted it at X (`pipeline.desk.withdrawal`)
    submitted_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class NoteEvaluationRow(SQLModel, table=True):
    """Every score X's evaluator gave a text of an episode's note, and what the desk did."""

    __tablename__ = "note_evaluation"

    id: int | None = Field(default=None, primary_key=True)
    episode_id: int = Field(foreign_key="episode.id", index=True)
    note_text: str = Field(sa_column=Column(Text, nullable=False))
    claim_opinion_score: float
    revision: int = 0
    verdict: str = Field(max_length=16)
    evaluated_at: datetime = Field(default_factory=utcnow)


class SubmissionQueueRow(SQLModel, table=True):
    """A submission waiting for the next day's writing limit (one per episode)."""

    __tablename__ = "submission_queue"

    episode_id: int = Field(foreign_key="episode.id", primary_key=True)
    requested_by: str = Field(max_length=200)
    test_mode: bool = True
    reason: str = Field(sa_column=Column(Text, nullable=False))
    queued_at: datetime = Field(default_factory=utcnow)


class LateRevisionRow(SQLModel, table=True):
    """A note of ours looked at again after it went out, once per window
    (`pipeline.desk.revision_log.LateRevision`)."""

    __tablename__ = "late_revision"
    # one revision per window per note: a second run, or process, finds the row and stops
    __table_args__ = (UniqueConstraint("post_id", "window", name="uq_late_revision_window"),)

    id: int | None = Field(default=None, primary_key=True)
    episode_id: int = Field(foreign_key="episode.id", index=True)
    post_id: str = Field(max_length=512, index=True)
    window: str = Field(max_length=16)
    replaces_note_id: str = Field(max_length=600)
    test_mode: bool = True
    state: str = Field(max_length=16)
    reason: str = Field(sa_column=Column(Text, nullable=False))
    note_text: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    cited_urls: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    added_sources: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    note_id: str | None = Field(default=None, max_length=600)
    attempts: int = 0
    decided_at: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None
