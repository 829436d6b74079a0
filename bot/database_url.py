"""A database URL as people write it → one SQLAlchemy parses: any character in the password.

People paste `postgresql://evonote:p@ss/w:rd@db/evonote`: by the URL grammar its authority ends
at the first `/`, so `urlsplit` and SQLAlchemy read a host `ss` or a port `rd@db`, print the
password's tail as the host, or fail with a traceback. The user-info runs to the last `@` that
a host[:port] follows; user and password are then percent-encoded, so every reader agrees.
(A query value holding `@` must be percent-encoded itself, as the URL grammar asks.)
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

# What may follow the user-info's "@": a host (name, IPv4, [IPv6]) and a port, then the
# path, the query or the end.
_HOST = re.compile(
    r"(?P<host>[A-Za-z0-9._~\-]*|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[^/?]*))?(?=[/?]|$)"
)


class DatabaseUrlError(ValueError):
    """A server database URL whose host or port cannot be read."""


def normalise(rest: str) -> str:
    """`rest` (all after `scheme://`) with its user and password percent-encoded; the
    host, port, path and query as given."""
    at = _userinfo_end(rest)
    if at is None:
        _check_port(rest)
        return rest
    user, colon, password = rest[:at].partition(":")
    encoded = quote(unquote(user), safe="")
    if colon:
        encoded += ":" + quote(unquote(password), safe="")
    tail = rest[at + 1 :]
    _check_port(tail)
    return f"{encoded}@{tail}"


def _userinfo_end(rest: str) -> int | None:
    """Where the user-info ends: the last "@" a host[:port] follows."""
    for position in reversed([i for i, c in enumerate(rest) if c == "@"]):
        if _HOST.match(rest, position + 1):
            return position
    return None


def _check_port(authority_on: str) -> None:
    found = _HOST.match(authority_on)
    port = found.group("port") if found else None
    if port is not None and not (port.isdigit() and 0 < int(port) <= 65535):
        raise DatabaseUrlError(
            f"the port after the host must be a number 1-65535 (got {port[:20]!r}); a password "
            "may hold any character, but the host and port must follow its last '@'"
        )


def masked(rest: str) -> str:
    """`rest` with its password (all of the user-info after the user) shown as ***."""
    at = _userinfo_end(rest)
    if at is None:
        return rest
    user, colon, _ = rest[:at].partition(":")
    return f"{user}{':***' if colon else ''}@{rest[at + 1 :]}"
