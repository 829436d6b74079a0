"""Status URLs of X and its mirrors → the post id."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pipeline.errors import InvalidPostInput

HOSTS = frozenset(
    {
        "x.com",
        "twitter.com",
        "mobile.twitter.com",
        "mobile.x.com",
        # Embed-fixing mirrors people paste into chat: same path, same post id.
        "fxtwitter.com",
        "vxtwitter.com",
        "fixupx.com",
        "fixvx.com",
        "twittpr.com",
    }
)
_STATUS = re.compile(r"^/(?:[A-Za-z0-9_]{1,15}|i(?:/web)?)/status(?:es)?/([^/?#]+)")


def is_x_url(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower().removeprefix("www.")
    return host in HOSTS


def post_id(url: str) -> str:
    """The numeric id of the post a status URL points at; a clear error otherwise."""
    parts = urlsplit(url.strip())
    match = _STATUS.match(parts.path)
    if match is None:
        raise InvalidPostInput(
            f"'{url[:120]}' is an X link but not to a post: a post link looks like "
            "https://x.com/<user>/status/<number>"
        )
    candidate = match.group(1)
    if not candidate.isdigit() or not 1 <= len(candidate) <= 20:
        raise InvalidPostInput(f"'{candidate[:40]}' in {url[:120]} is not a post number")
    return candidate


class XStatusLinks:
    """What every X post source says of a link: whether it is X's, and the post it names (the
    key two sources agree on, so a post fetched by either is one post)."""

    def handles(self, url: str) -> bool:
        return is_x_url(url)

    def post_key(self, url: str) -> str | None:
        try:
            return f"x:{post_id(url)}"
        except InvalidPostInput:
            return None
