"""Bluesky posts through the public AppView API (no key): `app.bsky.feed.getPostThread`.

`https://bsky.app/profile/<handle or did>/post/<rkey>` → the post's text with its facets (links
and mentions resolved), images with their alt text, the quoted record, the post it replies to,
its time and language.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from adapters.answers import AnswerUnreadable, get_capped, shape_problem
from pipeline.errors import InvalidPostInput, PostUnavailable
from pipeline.post import MAX_POST_CHARS, Media, Post

APPVIEW = "https://public.api.bsky.app"
HOSTS = frozenset({"bsky.app", "www.bsky.app"})
GONE = "the post does not exist on Bluesky (deleted, or a wrong link)"
_PATH = re.compile(r"^/profile/([A-Za-z0-9._:%-]{3,253})/post/([A-Za-z0-9]{1,64})/?$")


def at_uri(url: str) -> tuple[str, str]:
    """(at:// URI of the post, its web address) for a bsky.app post link."""
    match = _PATH.match(urlsplit(url).path)
    if match is None:
        raise InvalidPostInput(
            f"'{url[:120]}' is a Bluesky link but not to a post: a post link looks like "
            "https://bsky.app/profile/<handle>/post/<id>"
        )
    actor, rkey = match.groups()
    return (
        f"at://{actor}/app.bsky.feed.post/{rkey}",
        f"https://bsky.app/profile/{actor}/post/{rkey}",
    )


class BlueskyPostSource:
    def __init__(
        self, client: httpx.AsyncClient, timeout_s: float = 15.0, appview: str = APPVIEW
    ) -> None:
        self.client = client
        self.timeout_s = timeout_s
        self.appview = appview.rstrip("/")

    def handles(self, url: str) -> bool:
        return (urlsplit(url).hostname or "").lower() in HOSTS

    def post_key(self, url: str) -> str | None:
        try:
            return at_uri(url)[0]
        except InvalidPostInput:
            return None

    async def fetch(self, url: str) -> Post:
        uri, web = at_uri(url)
        try:
            async with asyncio.timeout(self.timeout_s):
                answer = await get_capped(
                    self.client,
                    f"{self.appview}/xrpc/app.bsky.feed.getPostThread",
                    params={"uri": uri, "depth": 0, "parentHeight": 1},
                )
        except (httpx.HTTPError, TimeoutError) as e:
            raise PostUnavailable(f"Bluesky could not be reached ({type(e).__name__})") from e
        except AnswerUnreadable as e:
            raise PostUnavailable(f"Bluesky answered in an unexpected way ({e})") from e
        if answer.status_code == 429:
            raise PostUnavailable("Bluesky is rate-limiting; try again in a minute")
        try:
            body = ThreadAnswer.model_validate(answer.json())
        except (AnswerUnreadable, ValidationError) as e:
            if answer.status_code == 404:
                raise PostUnavailable(GONE) from e
            if answer.status_code >= 400:
                raise PostUnavailable(f"Bluesky answered HTTP {answer.status_code}") from e
            why = shape_problem(e) if isinstance(e, ValidationError) else str(e)
            raise PostUnavailable(f"Bluesky answered in an unexpected way ({why})") from e
        if answer.status_code >= 400:
            if body.error == "NotFound" or answer.status_code == 404:
                raise PostUnavailable(GONE)
            reason = f"Bluesky answered HTTP {answer.status_code} {body.error or ''}"
            raise PostUnavailable(reason.strip()[:200])
        thread = body.thread or Thread()
        if thread.type.endswith("#notFoundPost"):
            raise PostUnavailable(GONE)
        if thread.type.endswith("#blockedPost"):
            raise PostUnavailable("the post is not visible: its author blocks it from viewers")
        if thread.post is None:
            raise PostUnavailable("Bluesky's answer holds no post")
        try:
            post = to_post(thread.post, web)
            if thread.parent is not None and thread.parent.post is not None:
                post.replied_to = to_post(thread.parent.post, None)
        except ValidationError as e:
            raise PostUnavailable(
                f"Bluesky answered in an unexpected way ({shape_problem(e)})"
            ) from e
        return post


class _View(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class Feature(_View):
    type: str = Field(default="", alias="$type")
    uri: str | None = None


class Facet(_View):
    features: list[Feature] = Field(default_factory=list)


class Record(_View):
    text: str = ""
    facets: list[Facet] = Field(default_factory=list)
    createdAt: str | None = None
    langs: list[str] = Field(default_factory=list)


class Author(_View):
    handle: str | None = None
    did: str | None = None


class Image(_View):
    fullsize: str | None = None
    thumb: str | None = None
    alt: str | None = None


class Embed(_View):
    type: str = Field(default="", alias="$type")
    images: list[Image] = Field(default_factory=list)
    # A quoted post's view, or (record with media) a wrapper around one: read when used.
    record: dict[str, Any] | None = None
    media: Embed | None = None


class PostView(_View):
    """A post view (`record`) or an embedded record view (`value`): what a post needs."""

    uri: str = ""
    author: Author = Field(default_factory=Author)
    record: Record | None = None
    value: Record | None = None
    embed: Embed | None = None
    embeds: list[Embed] = Field(default_factory=list)


class Thread(_View):
    type: str = Field(default="", alias="$type")
    post: PostView | None = None
    parent: Thread | None = None


class ThreadAnswer(_View):
    thread: Thread | None = None
    error: str | None = None


def to_post(view: PostView, web: str | None, nested: bool = False) -> Post:
    """A post view (or an embedded record view) → Post."""
    record = view.record or view.value or Record()
    if len(record.text) > MAX_POST_CHARS:
        raise InvalidPostInput("the Bluesky post is longer than any post can be")
    links = [
        feature.uri
        for facet in record.facets
        for feature in facet.features
        if feature.type.endswith("#link") and feature.uri
    ]
    embed = view.embed or (view.embeds[0] if view.embeds else None)
    media, quoted = _embed(embed, nested) if embed else ([], None)
    handle = view.author.handle or view.author.did
    return Post(
        text=record.text,
        url=web or _web(view.uri, handle),
        post_id=view.uri or None,
        author=handle,
        created_at=_time(record.createdAt),
        language=record.langs[0] if record.langs else None,
        media=media,
        quoted=quoted,
        links=list(dict.fromkeys(links)),
    )


def _embed(embed: Embed, nested: bool) -> tuple[list[Media], Post | None]:
    media: list[Media] = []
    quoted: Post | None = None
    if embed.type.startswith("app.bsky.embed.images"):
        media = [
            Media(kind="photo", url=i.fullsize or i.thumb, alt_text=i.alt) for i in embed.images
        ]
    elif embed.type.startswith("app.bsky.embed.record") and not nested:
        record = embed.record or {}
        with_media = embed.type.startswith("app.bsky.embed.recordWithMedia")
        if with_media and isinstance(record.get("record"), dict):
            record = record["record"]
        if record.get("value") or record.get("record"):
            quoted = to_post(PostView.model_validate(record), None, nested=True)
        if with_media and embed.media is not None:
            media, _ = _embed(embed.media, True)
    return media, quoted


def _web(uri: str, handle: str | None) -> str | None:
    rkey = uri.rsplit("/", 1)[-1] if uri else ""
    return f"https://bsky.app/profile/{handle}/post/{rkey}" if handle and rkey else None


def _time(value: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
    except ValueError:
        return None
