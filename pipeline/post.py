"""The post being checked, in the project's own terms (platform-neutral)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

# X's long-form posts may hold up to 25,000 characters; anything longer is not a post.
MAX_POST_CHARS = 25_000
# Every other part is bounded too (X: alt text ≤ 1,000, ≤ 4 images; notes ≤ 280 characters),
# with room for other networks: all of it reaches prompts and storage.
MAX_ALT_TEXT_CHARS = 2_000
MAX_MEDIA = 10
MAX_NOTE_CHARS = 1_000
MAX_EXISTING_NOTES = 20
MAX_LINKS = 50
MAX_URL_CHARS = 2_000
Url = Annotated[str, Field(max_length=MAX_URL_CHARS)]
MAX_AUTHOR_CHARS = 300  # a Mastodon acct: 30-character user @ a 253-character domain
MAX_POST_ID_CHARS = 512  # a Bluesky at:// URI may carry a 253-character handle


def _clipped(value: object, limit: int) -> object:
    """A legal post is always accepted: its long parts are cut, with an ellipsis."""
    if isinstance(value, str) and len(value) > limit:
        return value[: limit - 1] + "…"
    return value


def _primary_language(value: object) -> object:
    """ "zh-Hant-TW-x-private" → "zh-Hant-TW"; a tag is used only to pick a word list."""
    if isinstance(value, str) and len(value) > 12:
        return value[:12].rsplit("-", 1)[0] or None
    return value


def _first(value: object, limit: int, item_limit: int | None = None) -> object:
    """The first `limit` items of a list (dropping strings over `item_limit`: cut links break)."""
    if not isinstance(value, list):
        return value
    if item_limit is not None:
        value = [v for v in value if not (isinstance(v, str) and len(v) > item_limit)]
    return value[:limit]


def as_utc(value: datetime) -> datetime:
    """A time without a zone is UTC (as X and the Community Notes data give it)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class Media(BaseModel):
    """An image, video or GIF attached to a post."""

    kind: str = Field(max_length=20, description="photo, video or animated_gif")
    url: Url | None = Field(default=None, description="the media file or its preview image")
    alt_text: str | None = Field(default=None, max_length=MAX_ALT_TEXT_CHARS)
    caption: str | None = Field(
        default=None, max_length=MAX_ALT_TEXT_CHARS, description="what a vision model saw, if run"
    )

    @field_validator("alt_text", "caption", mode="before")
    @classmethod
    def _cut_text(cls, value: object) -> object:
        return _clipped(value, MAX_ALT_TEXT_CHARS)

    @field_validator("kind", mode="before")
    @classmethod
    def _cut_kind(cls, value: object) -> object:
        return _clipped(value, 20)

    @field_validator("url", mode="before")
    @classmethod
    def _no_cut_url(cls, value: object) -> object:
        return None if isinstance(value, str) and len(value) > MAX_URL_CHARS else value


class ExistingNote(BaseModel):
    """A Community Note already proposed on the post (used to find gaps)."""

    text: str = Field(max_length=MAX_NOTE_CHARS)
    status: str | None = Field(default=None, max_length=60)


class Post(BaseModel):
    """A social-media post and its context. All of it is untrusted data."""

    text: str = Field(max_length=MAX_POST_CHARS)
    url: Url | None = None
    post_id: str | None = Field(default=None, max_length=MAX_POST_ID_CHARS)
    author: str | None = Field(default=None, max_length=MAX_AUTHOR_CHARS)
    created_at: datetime | None = None
    language: str | None = Field(default=None, max_length=12)
    media: list[Media] = Field(default_factory=list, max_length=MAX_MEDIA)
    quoted: Post | None = None
    replied_to: Post | None = None
    existing_notes: list[ExistingNote] = Field(default_factory=list, max_length=MAX_EXISTING_NOTES)
    links: list[Url] = Field(
        default_factory=list,
        max_length=MAX_LINKS,
        description="URLs in the post; the only non-search URLs visitable",
    )
    unseen: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=5,
        description="what the source that read the post could not see (media, quoted posts)",
    )

    @field_validator("url", mode="before")
    @classmethod
    def _no_cut_url(cls, value: object) -> object:
        return None if isinstance(value, str) and len(value) > MAX_URL_CHARS else value

    @field_validator("author", mode="before")
    @classmethod
    def _cut_author(cls, value: object) -> object:
        return _clipped(value, MAX_AUTHOR_CHARS)

    @field_validator("language", mode="before")
    @classmethod
    def _language_tag(cls, value: object) -> object:
        return _primary_language(value)

    @field_validator("media", mode="before")
    @classmethod
    def _first_media(cls, value: object) -> object:
        return _first(value, MAX_MEDIA)

    @field_validator("links", mode="before")
    @classmethod
    def _first_links(cls, value: object) -> object:
        return _first(value, MAX_LINKS, MAX_URL_CHARS)

    @field_validator("created_at")
    @classmethod
    def _utc_when_no_zone(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @field_validator("quoted", "replied_to")
    @classmethod
    def _one_level_of_context(cls, other: Post | None) -> Post | None:
        """A quoted or replied-to post carries no context of its own (as on X)."""
        if other is not None and (other.quoted is not None or other.replied_to is not None):
            raise ValueError("a quoted or replied-to post cannot quote or reply to another")
        return other

    def all_text(self) -> str:
        """The post's own text with the text of quoted and replied-to posts."""
        parts = [self.text]
        for other in (self.quoted, self.replied_to):
            if other is not None:
                parts.append(other.all_text())
        parts.extend(m.alt_text or m.caption or "" for m in self.media)
        return "\n".join(p for p in parts if p)

    def all_links(self) -> list[str]:
        links = list(self.links)
        for other in (self.quoted, self.replied_to):
            if other is not None:
                links.extend(other.all_links())
        return links
