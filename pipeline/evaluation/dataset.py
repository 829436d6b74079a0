"""Benchmark datasets: one JSON object a line (`adapters.community_notes_tsv` turns the public
Community Notes TSVs plus user-supplied post text into the same posts)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from pipeline.errors import EvoNoteError
from pipeline.post import as_utc

Label = Literal["helpful", "not_helpful", "needs_more_ratings"]


class DatasetError(EvoNoteError):
    """A dataset file is missing or a line does not match the documented format."""


class BenchPost(BaseModel):
    id: str = Field(description="unique within the dataset")
    text: str = Field(min_length=1, description="the post text")
    created_at: datetime = Field(description="post time; the stream is replayed in this order")
    human_note: str | None = Field(default=None, description="the human Community Note, if any")
    label: Label | None = Field(default=None, description="the human note's rating outcome")
    modality: str = Field(default="text", description="text, image or video")
    media_captions: list[str] = Field(default_factory=list, description="captions of the media")

    @field_validator("created_at")
    @classmethod
    def _utc_when_no_zone(cls, value: datetime) -> datetime:
        return as_utc(value)


def load_jsonl(path: Path) -> list[BenchPost]:
    """Posts in post-time order. A bad line stops the load with its line number."""
    if not path.is_file():
        raise DatasetError(f"dataset {path} does not exist")
    posts: list[BenchPost] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            post = BenchPost.model_validate_json(line)
        except ValidationError as e:
            first = e.errors()[0]
            raise DatasetError(f"{path}:{number}: {first['loc']}: {first['msg']}") from None
        if post.id in seen:
            raise DatasetError(f"{path}:{number}: id {post.id!r} appears twice")
        seen.add(post.id)
        posts.append(post)
    return in_post_order(posts)


def in_post_order(posts: list[BenchPost]) -> list[BenchPost]:
    """Oldest first; a time without a zone is read as UTC."""
    return sorted(posts, key=lambda p: as_utc(p.created_at))
