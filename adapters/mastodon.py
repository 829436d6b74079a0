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
from typing import Annotated, Any
from urllib.parse import urlsplit

import httpx
import lxml.etree
import lxml.html
from pydantic import BaseModel, BeforeValidator, Field, ValidationError

from adapters.answers import AnswerUnreadable, get_capped, shape_problem
from adapters.web.address_guard import Resolver, pinned
from pipeline.errors import InvalidPostInput, PageUnreadable, PostUnavailable
from pipeline.post import MAX_POST_CHARS, Media, Post


def _text(value: Any) -> Any:
    """Ids come as strings; some servers send numbers."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


_STATUS = re.compile(
    r"^/(?:@[A-Za-z0-9_.@-]{1,100}|users/[A-Za-z0-9_.-]{1,100}/statuses)/(\d{1,25})/?$"
)
_KINDS = {"image": "photo", "gifv": "animated_gif"}


class Attachment(BaseModel):
    type: str | None = None
    url: str | None = None
    preview_url: str | None = None
    description: str | None = None


class Account(BaseModel):
    acct: str | None = None
    username: str | None = None


class Status(BaseModel):
    """The fields of a Mastodon status that a post needs; anything else is ignored."""

    content: str
    spoiler_text: str = ""
    id: Annotated[str, BeforeValidator(_text)] | None = None
    url: str | None = None
    uri: str | None = None
    created_at: str | None = None
    language: str | None = None
    in_reply_to_id: Annotated[str, BeforeValidator(_text)] | None = None
    account: Account | None = None
    media_attachments: list[Attachment] = Field(default_factory=list)


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

    def post_key(self, url: str) -> str | None:
        number = status_id(url)
        return f"mastodon:{(urlsplit(url).hostname or '').lower()}:{number}" if number else None

    async def fetch(self, url: str) -> Post:
        host = urlsplit(url).hostname or ""
        number = status_id(url)
        if number is None:
            raise InvalidPostInput(f"'{url[:120]}' is not a link to a Mastodon post")
        status = await self._status(host, number)
        try:
            post = to_post(status, url)
        except (ValidationError, lxml.etree.LxmlError) as e:
            raise PostUnavailable(
                f"the post on {host} could not be read ({type(e).__name__})"
            ) from e
        if status.in_reply_to_id:
            try:
                parent = await self._status(host, status.in_reply_to_id)
                post.replied_to = to_post(parent, None)
            except (PostUnavailable, ValidationError, lxml.etree.LxmlError):
                post.unseen.append("the post it replies to (not public, or deleted)")
        return post

    async def _status(self, host: str, number: str) -> Status:
        try:
            target, headers, extensions = await pinned(
                f"https://{host}/api/v1/statuses/{number}", self.resolver
            )
        except PageUnreadable as e:
            raise PostUnavailable(f"the server {host} cannot be read: {e}") from e
        headers["Accept"] = "application/json"
        try:
            async with asyncio.timeout(self.timeout_s):
                answer = await get_capped(
                    self.client, target, headers=headers, extensions=extensions
                )
        except (httpx.HTTPError, TimeoutError) as e:
            raise PostUnavailable(f"{host} could not be reached ({type(e).__name__})") from e
        except AnswerUnreadable as e:
            raise PostUnavailable(f"{host} did not answer like a Mastodon server ({e})") from e
        if answer.status_code == 404:
            raise PostUnavailable(f"the post does not exist on {host} (deleted, or a wrong link)")
        if answer.status_code in (401, 403):
            raise PostUnavailable(
                f"the post on {host} is not public (followers-only, or the server needs a login)"
            )
        if answer.status_code == 429:
            raise PostUnavailable(f"{host} is rate-limiting; try again in a minute")
        if answer.status_code >= 400:
            raise PostUnavailable(f"{host} answered HTTP {answer.status_code}")
        try:
            return Status.model_validate(answer.json())
        except AnswerUnreadable as e:
            raise PostUnavailable(f"{host} did not answer like a Mastodon server ({e})") from e
        except ValidationError as e:
            raise PostUnavailable(
                f"{host} did not answer like a Mastodon server ({shape_problem(e)})"
            ) from e


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


def to_post(status: Status, url: str | None) -> Post:
    text, links = html_text(status.content)
    warning = status.spoiler_text.strip()
    if warning:
        text = f"[content warning: {warning}]\n{text}"
    if len(text) > MAX_POST_CHARS:
        raise InvalidPostInput("the Mastodon post is longer than any post can be")
    media = [
        Media(
            kind=_KINDS.get(m.type or "", m.type or "photo"),
            url=m.url or m.preview_url,
            alt_text=m.description,
        )
        for m in status.media_attachments
    ]
    account = status.account
    return Post(
        text=text,
        url=url or status.url or status.uri,
        post_id=status.id,
        author=account.acct or account.username if account else None,
        created_at=_time(status.created_at),
        language=status.language,
        media=media,
        links=list(dict.fromkeys(links)),
    )


def _time(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")) if value else None
    except ValueError:
        return None
