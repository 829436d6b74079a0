"""Answers from outside, bounded before anything reads them.

A server anyone runs (a Mastodon instance, a search engine) can answer 300 MB, or JSON nested
100,000 deep; `client.get()` would hold all of it and `json.loads` would raise RecursionError.
Here the body is streamed under a byte cap and JSON that cannot be parsed for any reason is one
`AnswerUnreadable` with a message. Each adapter then validates the shape it expects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
from pydantic import ValidationError

# Far above any real post or search page (a Bluesky thread view is ~10 kB), far below harm.
MAX_ANSWER_BYTES = 2_000_000


class AnswerUnreadable(Exception):
    """Too large, not JSON, or nested too deeply; the message says which."""


@dataclass(frozen=True)
class Answer:
    status_code: int
    body: bytes

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except RecursionError as e:
            raise AnswerUnreadable("JSON nested too deeply") from e
        except ValueError as e:  # not JSON, or not UTF-8
            raise AnswerUnreadable("not JSON") from e


async def send_capped(
    client: httpx.AsyncClient, request: httpx.Request, max_bytes: int = MAX_ANSWER_BYTES
) -> Answer:
    """Send `request`; the answer's body, refused past `max_bytes` (httpx errors propagate)."""
    response = await client.send(request, stream=True)
    try:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise AnswerUnreadable(
                f"an answer of {int(declared):,} bytes, larger than {max_bytes:,} bytes"
            )
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body.extend(chunk)
            if len(body) > max_bytes:
                raise AnswerUnreadable(f"an answer larger than {max_bytes:,} bytes")
        return Answer(response.status_code, bytes(body))
    finally:
        await response.aclose()


async def get_capped(
    client: httpx.AsyncClient, url: str, max_bytes: int = MAX_ANSWER_BYTES, **kwargs: Any
) -> Answer:
    return await send_capped(client, client.build_request("GET", url, **kwargs), max_bytes)


def shape_problem(error: ValidationError) -> str:
    """The first place an answer differs from the shape expected, briefly."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the answer"
    return f"{where}: {first['msg']}"[:200]
