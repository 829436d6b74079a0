"""The post being checked, in the project's own terms (platform-neutral)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

# X's long-form posts may hold up to 25,000 characters; anything longer is not a post.
MAX_POST_CHARS = 25_000


class Media(BaseModel):
    """An image, video or GIF attached to a post."""

    kind: str = Field(description="photo, video or animated_gif")
    url: str | None = Field(default=None, description="the media file or its preview image")
    alt_text: str | None = None
    caption: str | None = Field(default=None, description="what a vision model saw, if run")


class ExistingNote(BaseModel):
    """A Community Note already proposed on the post (used to find gaps)."""

    text: str
    status: str | None = None


class Post(BaseModel):
    """A social-media post and its context. All of it is untrusted data."""

    text: str = Field(max_length=MAX_POST_CHARS)
    url: str | None = None
    post_id: str | None = None
    author: str | None = None
    created_at: datetime | None = None
    language: str | None = None
    media: list[Media] = Field(default_factory=list)
    quoted: Post | None = None
    replied_to: Post | None = None
    existing_notes: list[ExistingNote] = Field(default_factory=list)
    links: list[str] = Field(
        default_factory=list, description="URLs in the post; the only non-search URLs visitable"
    )

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
