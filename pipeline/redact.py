"""Secrets never leave the process: passwords and tokens in text are masked before it is
printed, logged, stored as a reason or shown on a card.

Masked: the password (or a lone token) in a URL's user-info, key-like query parameters,
whole `Authorization` / `Proxy-Authorization` values, bearer and basic credentials, Slack/X-
style tokens, and every secret the configuration holds (tokens, passwords, the query values of
configured URLs), as written and base64-encoded (`user:password`, as basic auth sends it).
Connection URLs keep their host, so a message still says where the problem is.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from typing import Any, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

from pydantic import BaseModel

MASK = "***"
M = TypeVar("M", bound=BaseModel)
_KNOWN: set[str] = set()  # configured secrets, and their base64 forms
# Cf: zero-width, bidi and tag characters, the soft hyphen; Mn: combining marks; Co/Cn:
# private and unassigned. None of them shows, and a copy of a key may be laced with them.
_INVISIBLE = frozenset({"Cf", "Mn", "Co", "Cn", "Cc"})
_SEPARATORS = frozenset("-_.·‐‑‒–—\u3164\u115f\u1160")

# The password runs to the authority's last "@": a password may hold one ("p@ss"), and the
# host never does.
_USERINFO = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^\s/@:]*)(?::[^\s/]*)?@", re.I)
_QUERY_SECRET = re.compile(
    r"(?P<key>[?&;](?:api[_-]?key|key|token|access[_-]?token|auth|password|passwd|pwd|secret|"
    r"client[_-]?secret|sig|signature)=)[^&#\s\"']+",
    re.IGNORECASE,
)
_BEARER = re.compile(r"(?P<word>\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)
_TOKENS = re.compile(r"\b(?:xox[abeprs]-[\w-]+|xapp-[\w-]+|sk-[A-Za-z0-9_-]{16,})")
_AUTHORIZATION = re.compile(  # the whole value, after its scheme word
    r"(?P<key>\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(?:bearer|basic|digest|token|negotiate)\s+)?)[^\s\r\n\"',}]+",
    re.IGNORECASE,
)
_BASIC = re.compile(r"(?P<word>\bbasic\s+)[A-Za-z0-9+/=]{8,}", re.IGNORECASE)


def remember_secret(value: str | None) -> None:
    """A secret of the configuration, masked wherever it appears from now on."""
    if not value or len(value) < 8:  # "EMPTY", "test": words, not secrets worth masking
        return
    _KNOWN.add(value)
    _KNOWN.add(base64.b64encode(value.encode()).decode())


def remember_url_secrets(url: str | None) -> None:
    """A configured URL's password (and its `user:password` as basic auth encodes it) and
    every query value: any of them may be a credential."""
    if not url:
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        return
    if parts.password:
        password = unquote(parts.password)
        remember_secret(password)
        remember_secret(parts.password)  # as the URL writes it (percent-encoded)
        pair = f"{unquote(parts.username or '')}:{password}"  # as basic auth sends it
        _KNOWN.add(base64.b64encode(pair.encode()).decode())
    for _, value in parse_qsl(parts.query):
        remember_secret(value)


def _userinfo(match: re.Match[str]) -> str:
    user = match.group("user")
    if ":" in match.group(0)[len(match.group("scheme")) :]:
        return f"{match.group('scheme')}{user}:{MASK}@"
    return f"{match.group('scheme')}{MASK}@" if user else match.group(0)


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` case-folded and compatibility-normalised (fullwidth → ASCII), without invisible
    characters, spaces and the separators a copy may be cut with; and for each character
    left, where it came from in `text`."""
    folded: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(text):
        for c in unicodedata.normalize("NFKC", char).casefold():
            if c.isspace() or c in _SEPARATORS or unicodedata.category(c) in _INVISIBLE:
                continue
            folded.append(c)
            origin.append(i)
    return "".join(folded), origin


_ASCII_DROPPED = re.compile(r"[\s\x00-\x1f\x7f\-_.]+")


def _quick_fold(text: str) -> str:
    """`_folded(text)[0]`, quicker for ASCII text (most log lines)."""
    return _ASCII_DROPPED.sub("", text.lower()) if text.isascii() else _folded(text)[0]


def _mask_altered(text: str) -> str:
    """Every copy of a known secret in `text` however altered: upper case, fullwidth
    letters, zero-width characters, spaces or dashes inside."""
    wanted = [w for w in {_folded(s)[0] for s in _KNOWN} if len(w) >= 8]
    if not any(w in _quick_fold(text) for w in wanted):
        return text
    for secret in sorted(wanted, key=len, reverse=True):
        while True:
            folded, origin = _folded(text)
            at = folded.find(secret)
            if at < 0:
                break
            start, end = origin[at], origin[at + len(secret) - 1] + 1
            text = text[:start] + MASK + text[end:]
    return text


def redact(text: str) -> str:
    """`text` with every secret it carries replaced by ***."""
    for secret in sorted(_KNOWN, key=len, reverse=True):  # what no pattern could know, first:
        if secret in text:  # a pattern could cut one in two
            text = text.replace(secret, MASK)
    if _KNOWN:  # a model that echoes a key may alter it: compare folded
        text = _mask_altered(text)
    text = _AUTHORIZATION.sub(lambda m: m.group("key") + MASK, text)
    text = _BASIC.sub(lambda m: m.group("word") + MASK, text)
    text = _USERINFO.sub(_userinfo, text)
    text = _QUERY_SECRET.sub(lambda m: m.group("key") + MASK, text)
    text = _BEARER.sub(lambda m: m.group("word") + MASK, text)
    return _TOKENS.sub(MASK, text)


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


def redacted_answer(answer: M) -> M:
    """A model's answer with every secret in its text masked, as `redact` masks them: a model
    that echoes a key it was shown (an API key in a page, the configured one) writes it into a
    thought, a note or a reason that reaches cards, the database and the CLI (the trust issue)."""
    dumped = answer.model_dump(mode="python")
    masked = _redacted(dumped)
    return answer if masked == dumped else type(answer).model_validate(masked)
