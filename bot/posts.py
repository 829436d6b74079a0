"""Turn what a person typed (a post URL, the post's text, or @file.json) into a Post."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import ValidationError

from adapters.x.urls import is_x_url
from pipeline.errors import InvalidPostInput
from pipeline.note_text import find_urls
from pipeline.ports import PostSource
from pipeline.post import MAX_POST_CHARS, Post

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_BARE_LINK = re.compile(r"^(www\.)?[\w-]+(\.[\w-]+)+/\S*$", re.IGNORECASE)


class PostResolver:
    def __init__(self, sources: Sequence[PostSource] = ()) -> None:
        self.sources = list(sources)

    async def resolve(self, reference: str) -> Post:
        ref = reference.strip()
        if not ref:
            raise InvalidPostInput(
                "the post is empty: give a post URL, the post's text, or @file.json"
            )
        if ref.startswith("@") and " " not in ref:
            return await asyncio.to_thread(read_post_file, Path(ref[1:]))
        if " " not in ref and "\n" not in ref and (_SCHEME.match(ref) or _BARE_LINK.match(ref)):
            return await self._fetch(ref)
        return post_from_text(ref)

    async def _fetch(self, ref: str) -> Post:
        if not _SCHEME.match(ref):
            raise InvalidPostInput(
                f"'{ref[:100]}' looks like a link but has no http:// or https://; "
                f"write it as https://{ref[:100]}"
            )
        parts = urlsplit(ref)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise InvalidPostInput(f"'{ref[:100]}' is not an http(s) link to a post")
        for source in self.sources:
            if source.handles(ref):
                return await source.fetch(ref)
        host = parts.hostname
        if is_x_url(ref):
            raise InvalidPostInput(
                "posts on X cannot be fetched: EVONOTE_X__BEARER_TOKEN is not set. Set it, or "
                "paste the post's text instead, or pass @post.json"
            )
        raise InvalidPostInput(
            f"unsupported site '{host}': EvoNote reads posts from X (x.com, twitter.com); "
            "for anything else, paste the post's text"
        )


def post_from_text(text: str) -> Post:
    if len(text) > MAX_POST_CHARS:
        raise InvalidPostInput(
            f"the post text is {len(text):,} characters; a post has at most "
            f"{MAX_POST_CHARS:,} (X's limit for long posts)"
        )
    return Post(text=text, links=find_urls(text))


def read_post_file(path: Path) -> Post:
    """A JSON object with at least `text`; any other Post field is optional."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise InvalidPostInput(f"{path} does not exist") from e
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidPostInput(f"{path} cannot be read: {e}") from e
    except json.JSONDecodeError as e:
        raise InvalidPostInput(f"{path} is not valid JSON: {e}") from e
    if not isinstance(raw, dict):
        raise InvalidPostInput(f"{path} must hold one JSON object with a 'text' field")
    if not str(raw.get("text") or "").strip():
        raise InvalidPostInput(f"{path} is missing the field 'text' (the post's words)")
    if len(str(raw["text"])) > MAX_POST_CHARS:
        post_from_text(str(raw["text"]))  # raises the length message
    try:
        post = Post.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidPostInput(f"{path}: field '{where}': {first['msg']}") from e
    if not post.links:
        post.links = find_urls(post.text)
    return post
