"""Turn what a person typed (a post URL or the post's text) into a Post.

The resolver never opens a file: `@file.json` is read by `read_post_file`, which only the CLI's
own argument can reach (`NoteRequest.post_file`). Text from chat that starts with `@` is a
mention or post text, never a path.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from pipeline.drafting.note import find_urls
from pipeline.errors import EvoNoteError, InvalidPostInput, PostUnavailable, SourceRefused
from pipeline.ports import PostSource
from pipeline.post import MAX_POST_CHARS, Post

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_BARE_LINK = re.compile(r"^(www\.)?[\w-]+(\.[\w-]+)+/\S*$", re.IGNORECASE)
log = logging.getLogger(__name__)
# A post file holds one post: 25,000 characters of text and bounded context fit well within.
MAX_POST_FILE_BYTES = 1_000_000


class PostResolver:
    def __init__(self, sources: Sequence[PostSource] = ()) -> None:
        self.sources = list(sources)

    def post_key(self, url: str) -> str | None:
        """The post `url` names on a site EvoNote reads (the same for every spelling of its
        link), or None when it names none."""
        for source in self.sources:
            if source.handles(url) and (key := source.post_key(url)) is not None:
                return key
        return None

    async def resolve(self, reference: str) -> Post:
        ref = reference.strip()
        if not ref:
            raise InvalidPostInput("the post is empty: give a post URL or the post's text")
        if ref.startswith("@") and not any(c.isspace() for c in ref):
            raise InvalidPostInput(
                f"'{ref[:60]}' is a mention, not a post: give the post's link or paste its text"
            )
        if " " not in ref and "\n" not in ref and (_SCHEME.match(ref) or _BARE_LINK.match(ref)):
            return await self._fetch(ref)
        return post_from_text(ref)

    async def _fetch(self, ref: str) -> Post:
        if not _SCHEME.match(ref):
            raise InvalidPostInput(
                f"'{ref[:100]}' looks like a link but has no http:// or https://; "
                f"write it as https://{ref[:100]}"
            )
        try:
            parts = urlsplit(ref)
            parts.port  # noqa: B018 — raises on a port out of range
        except ValueError as e:
            raise InvalidPostInput(f"'{ref[:100]}' is not a valid link: {e}") from e
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise InvalidPostInput(f"'{ref[:100]}' is not an http(s) link to a post")
        refused: SourceRefused | None = None
        for source in self.sources:
            if source.handles(ref):
                try:
                    return await source.fetch(ref)
                except SourceRefused as e:  # a tier or quota: the next reader of the site
                    refused = e
                except EvoNoteError:
                    raise
                except Exception as e:
                    # An answer no adapter foresaw: this request's failure with a message,
                    # never a traceback after the request was accepted.
                    log.exception("post source %s failed on %s", type(source).__name__, ref[:200])
                    raise PostUnavailable(
                        f"the post at {parts.hostname} could not be read: its site answered in "
                        f"a way EvoNote does not understand ({type(e).__name__})"
                    ) from e
        if refused is not None:
            raise refused
        raise InvalidPostInput(
            f"unsupported site '{parts.hostname}': EvoNote reads posts from X (x.com, "
            "twitter.com), Bluesky (bsky.app) and Mastodon servers (https://server/@user/id); "
            "for anything else, paste the post's text"
        )


def post_from_text(text: str) -> Post:
    if len(text) > MAX_POST_CHARS:
        raise InvalidPostInput(
            f"the post text is {len(text):,} characters; a post has at most "
            f"{MAX_POST_CHARS:,} (X's limit for long posts)"
        )
    return validated_post({"text": text, "links": find_urls(text)}, "the post")


def validated_post(raw: dict[str, Any], where: str) -> Post:
    """A Post from untrusted fields, or one clear message naming the field and its limit."""
    text = raw.get("text")
    if isinstance(text, str):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:  # lone surrogates: bytes that were not UTF-8
            raise InvalidPostInput(
                f"{where}: the text is not valid UTF-8 (character {e.start + 1})"
            ) from e
    try:
        post = Post.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "post"
        raise InvalidPostInput(f"{where}: field '{field}': {first['msg']}") from e
    if not any(ch.isalnum() for ch in post.text):
        raise InvalidPostInput(
            f"{where} has no words or numbers to check (only symbols, emoji or invisible "
            "characters): give the post's text or link"
        )
    if not post.links:
        post.links = find_urls(post.text)
    return post


def read_post_file(path: Path) -> Post:
    """A JSON object with at least `text`; any other Post field is optional. CLI only.

    Bounded: only a regular file, at most MAX_POST_FILE_BYTES, checked on the opened file
    (no FIFO, device or /proc file can stall or exhaust the process)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError as e:
        raise InvalidPostInput(f"{path} does not exist") from e
    except (OSError, ValueError) as e:
        raise InvalidPostInput(f"{path} cannot be opened: {e}") from e
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InvalidPostInput(f"{path} is not a regular file")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_POST_FILE_BYTES:
            raise InvalidPostInput(
                f"{path} is {info.st_size:,} bytes; a post file has at most {MAX_POST_FILE_BYTES:,}"
            )
        data = f.read(MAX_POST_FILE_BYTES + 1)
    try:
        raw = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise InvalidPostInput(f"{path} is not UTF-8 text: {e}") from e
    except json.JSONDecodeError as e:
        raise InvalidPostInput(f"{path} is not valid JSON: {e}") from e
    except (ValueError, RecursionError) as e:  # over-long integers, nesting too deep
        raise InvalidPostInput(f"{path} is not usable JSON: {str(e)[:120]}") from e
    if not isinstance(raw, dict):
        raise InvalidPostInput(f"{path} must hold one JSON object with a 'text' field")
    if not str(raw.get("text") or "").strip():
        raise InvalidPostInput(f"{path} is missing the field 'text' (the post's words)")
    if len(str(raw["text"])) > MAX_POST_CHARS:
        post_from_text(str(raw["text"]))  # raises the length message
    return validated_post(raw, str(path))
