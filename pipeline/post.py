"""The post being checked, in the project's own terms (platform-neutral)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, Field, field_validator

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


def cut_to(limit: int) -> BeforeValidator:
    """Text over `limit` characters is cut, with an ellipsis: a legal post is always accepted,
    whatever its platform allows beyond these bounds."""

    def cut(value: object) -> object:
        if isinstance(value, str) and len(value) > limit:
            return value[: limit - 1] + "…"
        return value

    return BeforeValidator(cut)


def _no_overlong_url(value: object) -> object:
    return None if isinstance(value, str) and len(value) > MAX_URL_CHARS else value  # cut: broken


def _primary_language(value: object) -> object:
    """ "zh-Hant-TW-x-private" → "zh-Hant-TW"; a tag is used only to pick a word list."""
    if isinstance(value, str) and len(value) > 12:
        return value[:12].rsplit("-", 1)[0] or None
    return value


def first(limit: int, item_limit: int | None = None) -> BeforeValidator:
    """The first `limit` items of a list (dropping strings over `item_limit`: cut links break)."""

    def keep(value: object) -> object:
        if not isinstance(value, list):
            return value
        if item_limit is not None:
            value = [v for v in value if not (isinstance(v, str) and len(v) > item_limit)]
        return value[:limit]

    return BeforeValidator(keep)


OptionalUrl = Annotated[Url | None, BeforeValidator(_no_overlong_url)]


def as_utc(value: datetime) -> datetime:
    """A time without a zone is UTC (as X and the Community Notes data give it)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class Media(BaseModel):
    """An image, video or GIF attached to a post."""

    kind: Annotated[str, cut_to(20)] = Field(
        max_length=20, description="photo, video or animated_gif"
    )
    url: OptionalUrl = Field(default=None, description="the media file or its preview image")
    alt_text: Annotated[str | None, cut_to(MAX_ALT_TEXT_CHARS)] = Field(
        default=None, max_length=MAX_ALT_TEXT_CHARS
    )
    caption: Annotated[str | None, cut_to(MAX_ALT_TEXT_CHARS)] = Field(
        default=None, max_length=MAX_ALT_TEXT_CHARS, description="what a vision model saw, if run"
    )


class ExistingNote(BaseModel):
    """A Community Note already proposed on the post (used to find gaps)."""

    text: str = Field(max_length=MAX_NOTE_CHARS)
    status: str | None = Field(default=None, max_length=60)


MAX_REQUESTS = 10
MAX_OUR_NOTES_ON_AUTHOR = 3
MAX_REQUEST_CHARS = 500


class NoteRequestSuggestion(BaseModel):
    """What someone asking for a note on the post said, and the source they suggested (X's
    `note_request_suggestions`): untrusted, like the post."""

    text: Annotated[str, cut_to(MAX_REQUEST_CHARS)] = Field(max_length=MAX_REQUEST_CHARS)
    source_link: OptionalUrl = None


class SuggestedSource(BaseModel):
    """A link requesters suggested as a source, and how many of them did."""

    url: Url
    count: int = Field(default=1, ge=0)


class Post(BaseModel):
    """A social-media post and its context. All of it is untrusted data."""

    text: str = Field(max_length=MAX_POST_CHARS)
    url: OptionalUrl = None
    post_id: str | None = Field(default=None, max_length=MAX_POST_ID_CHARS)
    author: Annotated[str | None, cut_to(MAX_AUTHOR_CHARS)] = Field(
        default=None, max_length=MAX_AUTHOR_CHARS
    )
    created_at: datetime | None = None
    engagement: int | None = Field(
        default=None,
        ge=0,
        description="likes, reposts, replies and quotes when the post was read (X's metrics)",
    )
    language: Annotated[str | None, BeforeValidator(_primary_language)] = Field(
        default=None, max_length=12
    )
    media: Annotated[list[Media], first(MAX_MEDIA)] = Field(
        default_factory=list, max_length=MAX_MEDIA
    )
    quoted: Post | None = None
    replied_to: Post | None = None
    existing_notes: list[ExistingNote] = Field(default_factory=list, max_length=MAX_EXISTING_NOTES)
    our_notes_on_author: list[ExistingNote] = Field(
        default_factory=list,
        max_length=MAX_OUR_NOTES_ON_AUTHOR,
        description="EvoNote's latest notes on this author's other posts, with their status "
        "on X (an AI writer on X found them its one decisive input)",
    )
    links: Annotated[list[Url], first(MAX_LINKS, MAX_URL_CHARS)] = Field(
        default_factory=list,
        max_length=MAX_LINKS,
        description="URLs in the post; the only non-search URLs visitable",
    )
    unseen: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=5,
        description="what the source that read the post could not see (media, quoted posts)",
    )
    requests: Annotated[list[NoteRequestSuggestion], first(MAX_REQUESTS)] = Field(
        default_factory=list,
        max_length=MAX_REQUESTS,
        description="what people asking for a note said (X's note requests)",
    )
    suggested_sources: Annotated[list[SuggestedSource], first(MAX_REQUESTS)] = Field(
        default_factory=list,
        max_length=MAX_REQUESTS,
        description="links requesters suggested as sources, most suggested first",
    )
    media_note_shown: bool = Field(
        default=False,
        description="X already shows a matched media note on it: a new note would be refused",
    )

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

    def suggested_links(self) -> list[str]:
        """The sources requesters suggested, most suggested first: pages the research may
        read (through the guarded reader, like any URL), never cited unless read."""
        ranked = sorted(self.suggested_sources, key=lambda s: -s.count)
        links = [s.url for s in ranked] + [r.source_link for r in self.requests if r.source_link]
        return list(dict.fromkeys(links))

    def named_links(self) -> list[str]:
        """The links the post (and its quoted or replied-to posts) and its requesters named:
        pages that may be read, never vouch (`pipeline.drafting.context.DraftContext.vouches`)."""
        return list(dict.fromkeys([*self.all_links(), *self.suggested_links()]))

    def all_links(self) -> list[str]:
        links = list(self.links)
        for other in (self.quoted, self.replied_to):
            if other is not None:
                links.extend(other.all_links())
        return links
