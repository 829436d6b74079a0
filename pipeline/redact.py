"""Secrets never leave the process: passwords and tokens in text are masked before it is
printed, logged, stored as a reason or shown on a card.

Masked: the password (or a lone token) in a URL's user-info, key-like query parameters,
bearer tokens, and Slack/X-style tokens. Connection URLs keep their host, so a message still
says where the problem is.
"""

from __future__ import annotations

import re

MASK = "***"

_USERINFO = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^\s/@:]*)(?::[^\s/@]*)?@", re.I)
_QUERY_SECRET = re.compile(
    r"(?P<key>[?&;](?:api[_-]?key|key|token|access[_-]?token|auth|password|passwd|pwd|secret|"
    r"client[_-]?secret|sig|signature)=)[^&#\s\"']+",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<word>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)
_TOKENS = re.compile(r"\b(?:xox[abeprs]-[\w-]+|xapp-[\w-]+|sk-[A-Za-z0-9_-]{16,})")


def _userinfo(match: re.Match[str]) -> str:
    user = match.group("user")
    if ":" in match.group(0)[len(match.group("scheme")) :]:
        return f"{match.group('scheme')}{user}:{MASK}@"
    return f"{match.group('scheme')}{MASK}@" if user else match.group(0)


def redact(text: str) -> str:
    """`text` with every secret it carries replaced by ***."""
    text = _USERINFO.sub(_userinfo, text)
    text = _QUERY_SECRET.sub(lambda m: m.group("key") + MASK, text)
    text = _BEARER.sub(lambda m: m.group("word") + MASK, text)
    return _TOKENS.sub(MASK, text)
