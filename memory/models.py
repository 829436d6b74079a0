"""The experience memory's records. The database is the truth; vector indexes derive from it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Text
from sqlmodel import Field, SQLModel

from memory.standing import KIND_FOR_MODE, LessonKind, LessonStatus, UtilityMode
from pipeline.ports import MemoryPhase

__all__ = [
    "KIND_FOR_MODE",
    "LessonKind",
    "LessonStatus",
    "MemoryAudit",
    "MemoryItem",
    "UtilityMode",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


class MemoryItem(SQLModel, table=True):
    __tablename__ = "memory_item"

    id: int | None = Field(default=None, primary_key=True)
    phase: MemoryPhase = Field(index=True)
    trigger: str = Field(sa_column=Column(Text, nullable=False))
    strategy: str = Field(sa_column=Column(Text, nullable=False))
    rationale: str = Field(default="", sa_column=Column(Text, nullable=False))
    kind: LessonKind
    source_episodes: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # The post time of the earliest source episode: benchmarks on a stream may only retrieve
    # lessons learned from posts earlier than the one being checked.
    learned_from_post_at: datetime | None = Field(default=None, index=True)
    # Who asked for the episodes behind it ("slack:U123", "discord:42", "x_watch:…"): support
    # activates a lesson only when it comes from different requesters, so one account that
    # posts the same claim again and again cannot vouch for its own lesson.
    requesters: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    support: int = 1
    uses: int = 0
    votes_up: int = 0
    votes_down: int = 0
    status: LessonStatus = Field(default=LessonStatus.PROVISIONAL, index=True)
    why_retired: str | None = Field(default=None, sa_column=Column(Text))
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    last_used_at: datetime | None = None


class MemoryAudit(SQLModel, table=True):
    """Every change to a memory item: who, what, when, before and after."""

    __tablename__ = "memory_audit"

    id: int | None = Field(default=None, primary_key=True)
    item_id: int = Field(index=True)
    actor: str = Field(max_length=200)
    action: str = Field(max_length=32)
    before: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    after: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    at: datetime = Field(default_factory=utcnow)
