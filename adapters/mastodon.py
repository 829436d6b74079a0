"""Mastodon and other servers with the Mastodon API: the instance's public
`GET /api/v1/statuses/:id` (no key for public posts).

`https://<instance>/@user/<id>` → the status's text (from its HTML), a content warning, media
with descriptions, and the post it replies to. Any host can claim to be an instance, so the
instance goes through the same public-address guard as page reads: checked after DNS, the
connection pinned to the checked address.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import lxml.html

from adapters.web.address_guard import Resolver, pinned
from pipeline.errors import InvalidPostInput, PageUnreadable, PostUnavailable
from pipeline.post import MAX_POST_CHARS, Media, Post

_STATUS = re.compile(
    r"^/(?:@[A-Za-z0-9_.@-]{1,100}|users/[A-Za-z0-9_.-]{1,100}/statuses)/(\d{1,25})/?$"
)
_KINDS = {"image": "photo", "gifv": "animated_gif"}


def status_id(url: str) -> str | None:
    match = _STATUS.match(urlsplit(url).path)
    return match.group(1) if match else None


class MastodonPostSource:
    def __init__(
        self, client: httpx.AsyncClient, resolver: Resolver, timeout_s: float = 15.0
    ) -> None:
        self.client = client
        self.resolver = resolver
        self.timeout_s = timeout_s

    def handles(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme == "https" and bool(parts.hostname) and status_id(url) is not None

    async def fetch(self, url: str) -> Post:
        host = urlsplit(url).hostname or ""
        number = status_id(url)
        if number is None:
            raise InvalidPostInput(f"'{url[:120]}' is not a link to a Mastodon post")
        status = await self._status(host, number)
        post = to_post(status, url)
        parent = status.get("in_reply_to_id")
        if parent:
            try:
                post.replied_to = to_post(await self._status(host, str(parent)), None)
            except PostUnavailable:
                post.unseen.append("the post it replies to (not public, or deleted)")
        return post

    async def _status(self, host: str, number: str) -> dict[str, Any]:
        try:
            target, headers, extensions = await pinned(
                f"https://{host}/api/v1/statuses/{number}", self.resolver
            )
        except PageUnreadable as e:
            raise PostUnavailable(f"the server {host} cannot be read: {e}") from e
        headers["Accept"] = "application/json"
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self.client.get(target, headers=headers, extensions=extensions)
        except (httpx.HTTPError, TimeoutError) as e:
            raise PostUnavailable(f"{host} could not be reached ({type(e).__name__})") from e
        if response.status_code == 404:
            raise PostUnavailable(f"the post does not exist on {host} (deleted, or a wrong link)")
        if response.status_code in (401, 403):
            raise PostUnavailable(
                f"the post on {host} is not public (followers-only, or the server needs a login)"
            )
        if response.status_code == 429:
            raise PostUnavailable(f"{host} is rate-limiting; try again in a minute")
        if response.status_code >= 400:
            raise PostUnavailable(f"{host} answered HTTP {response.status_code}")
        try:
            data = response.json()
        except ValueError as e:
            raise PostUnavailable(f"{host} did not answer like a Mastodon server") from e
        if not isinstance(data, dict) or "content" not in data:
            raise PostUnavailable(f"{host} did not answer like a Mastodon server")
        return data


def html_text(html: str) -> tuple[str, list[str]]:
    """The status's HTML → plain text (paragraphs and line breaks kept) and its link targets
    (not mentions or hashtags)."""
    if not html.strip():
        return "", []
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    links = [
        str(a.get("href"))
        for a in root.iter("a")
        if a.get("href", "").startswith("http")
        and not {"mention", "hashtag"} & set((a.get("class") or "").split())
    ]
    for br in root.iter("br"):
        br.tail = "\n" + (br.tail or "")
    for p in root.iter("p"):
        p.tail = "\n\n" + (p.tail or "")
    return root.text_content().strip(), links


def to_post(status: dict[str, Any], url: str | None) -> Post:
    text, links = html_text(str(status.get("content") or ""))
    warning = str(status.get("spoiler_text") or "").strip()
    if warning:
        text = f"[content warning: {warning}]\n{text}"
    if len(text) > MAX_POST_CHARS:
        raise InvalidPostInput("the Mastodon post is longer than any post can be")
    account = status.get("account") or {}
    media = [
        Media(
            kind=_KINDS.get(str(m.get("type")), str(m.get("type") or "photo"))[:20],
            url=m.get("url") or m.get("preview_url"),
            alt_text=m.get("description"),
        )
        for m in status.get("media_attachments") or []
    ][:10]
    return Post(
        text=text,
        url=url or status.get("url") or status.get("uri"),
        post_id=str(status.get("id") or "") or None,
        author=account.get("acct") or account.get("username"),
        created_at=_time(status.get("created_at")),
        language=status.get("language"),
        media=media,
        links=list(dict.fromkeys(links))[:50],
    )


def _time(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")) if value else None
    except ValueError:
        return None
