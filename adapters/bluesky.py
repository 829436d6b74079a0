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

    async def fetch(self, url: str) -> Post:
        uri, web = at_uri(url)
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self.client.get(
                    f"{self.appview}/xrpc/app.bsky.feed.getPostThread",
                    params={"uri": uri, "depth": 0, "parentHeight": 1},
                )
        except (httpx.HTTPError, TimeoutError) as e:
            raise PostUnavailable(f"Bluesky could not be reached ({type(e).__name__})") from e
        body = _json(response)
        if response.status_code == 429:
            raise PostUnavailable("Bluesky is rate-limiting; try again in a minute")
        if response.status_code >= 400:
            error = str(body.get("error") or "")
            if error == "NotFound" or response.status_code == 404:
                raise PostUnavailable(GONE)
            raise PostUnavailable(f"Bluesky answered HTTP {response.status_code} {error}".strip())
        thread = body.get("thread") or {}
        kind = str(thread.get("$type") or "")
        if kind.endswith("#notFoundPost"):
            raise PostUnavailable(GONE)
        if kind.endswith("#blockedPost"):
            raise PostUnavailable("the post is not visible: its author blocks it from viewers")
        view = thread.get("post")
        if not isinstance(view, dict):
            raise PostUnavailable("Bluesky's answer holds no post")
        post = to_post(view, web)
        parent = (thread.get("parent") or {}).get("post")
        if isinstance(parent, dict):
            post.replied_to = to_post(parent, None)
        return post


def _json(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def to_post(view: dict[str, Any], web: str | None, nested: bool = False) -> Post:
    """A post view (or an embedded record view) → Post."""
    record = view.get("record") or view.get("value") or {}
    author = view.get("author") or {}
    text = str(record.get("text") or "")
    if len(text) > MAX_POST_CHARS:
        raise InvalidPostInput("the Bluesky post is longer than any post can be")
    links: list[str] = []
    for facet in record.get("facets") or []:
        for feature in facet.get("features") or []:
            if str(feature.get("$type", "")).endswith("#link") and feature.get("uri"):
                links.append(str(feature["uri"]))
    embed = view.get("embed") or (view.get("embeds") or [None])[0] or {}
    media, quoted = _embed(embed, nested)
    langs = record.get("langs") or []
    handle = author.get("handle") or author.get("did")
    uri = str(view.get("uri") or "")
    return Post(
        text=text,
        url=web or _web(uri, handle),
        post_id=uri or None,
        author=handle,
        created_at=_time(record.get("createdAt")),
        language=str(langs[0]) if langs else None,
        media=media,
        quoted=quoted,
        links=list(dict.fromkeys(links)),
    )


def _embed(embed: dict[str, Any], nested: bool) -> tuple[list[Media], Post | None]:
    kind = str(embed.get("$type") or "")
    media: list[Media] = []
    quoted: Post | None = None
    if kind.startswith("app.bsky.embed.images"):
        media = [
            Media(kind="photo", url=i.get("fullsize") or i.get("thumb"), alt_text=i.get("alt"))
            for i in embed.get("images") or []
        ][:10]
    elif kind.startswith("app.bsky.embed.record") and not nested:
        record = embed.get("record") or {}
        if kind.startswith("app.bsky.embed.recordWithMedia"):
            record = record.get("record", record)
        if isinstance(record, dict) and (record.get("value") or record.get("record")):
            quoted = to_post(record, None, nested=True)
        if kind.startswith("app.bsky.embed.recordWithMedia"):
            media, _ = _embed(embed.get("media") or {}, True)
    return media, quoted


def _web(uri: str, handle: Any) -> str | None:
    rkey = uri.rsplit("/", 1)[-1] if uri else ""
    return f"https://bsky.app/profile/{handle}/post/{rkey}" if handle and rkey else None


def _time(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")) if value else None
    except ValueError:
        return None
