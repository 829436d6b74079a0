"""Only public addresses may be fetched: checked after DNS resolution, on every hop."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from pipeline.errors import PageUnreadable

_CGNAT = ipaddress.ip_network("100.64.0.0/10")


class Resolver(Protocol):
    async def resolve(self, host: str, port: int) -> list[str]: ...


class SystemResolver:
    """The operating system's resolver, without blocking the event loop."""

    def __init__(self, timeout_s: float = 5.0) -> None:
        self.timeout_s = timeout_s

    async def resolve(self, host: str, port: int) -> list[str]:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.timeout_s):
                infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, TimeoutError) as e:
            raise PageUnreadable(f"the host {host} could not be resolved") from e
        return list(dict.fromkeys(str(info[4][0]) for info in infos))


# IPv6 ranges that carry an IPv4 address inside; the address is judged by the one it carries.
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
_SIIT = ipaddress.ip_network("::ffff:0:0:0/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside an IPv4-mapped, 6to4, Teredo, NAT64, SIIT or IPv4-compatible
    IPv6 address; None for any other IPv6 address."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]  # the client: the host the packet is delivered to
    if any(ip in net for net in (*_NAT64, _SIIT)) or (
        ip in _IPV4_COMPATIBLE and int(ip) > 1  # :: and ::1 are themselves
    ):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def why_not_public(address: str) -> str | None:
    """A reason the address must not be fetched, or None when it is a public address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and (inner := embedded_ipv4(ip)) is not None:
        reason = why_not_public(str(inner))
        return f"an IPv6 address that embeds {inner}, {reason}" if reason else None
    checks = [
        (ip.is_loopback, "a loopback address"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_unspecified, "the unspecified address"),
        (isinstance(ip, ipaddress.IPv4Address) and ip in _CGNAT, "a carrier-grade NAT address"),
        (ip.is_private, "a private address"),
        (ip.is_reserved, "a reserved address"),
        (not ip.is_global, "not a public address"),
    ]
    return next((reason for bad, reason in checks if bad), None)


async def public_address(host: str, port: int, resolver: Resolver) -> str:
    """The first resolved address, if every resolved address is public; else refuse."""
    try:
        literal = ipaddress.ip_address(host.strip("[]"))
        addresses = [str(literal)]
    except ValueError:
        addresses = await resolver.resolve(host, port)
    if not addresses:
        raise PageUnreadable(f"the host {host} has no address")
    for address in addresses:
        reason = why_not_public(address)
        if reason is not None:
            raise PageUnreadable(f"refused: {host} resolves to {address}, {reason}")
    return addresses[0]


# A host as it may be resolved: an ASCII domain name (its IDN form) or an IP literal.
_HOST = re.compile(r"[A-Za-z0-9._:-]+")


async def pinned(url: str, resolver: Resolver) -> tuple[str, dict[str, str], dict[str, str]]:
    """The URL rewritten to its checked public address, with the Host header (and TLS SNI)
    that keep the name — so a DNS answer that changes after the check cannot redirect the
    request. Refuses other schemes, credentials in the URL, malformed URLs and private hosts."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as e:  # a bad port or bracket: unreadable, never an episode failure
        raise PageUnreadable(f"refused: the link is malformed ({e})") from e
    if parts.scheme not in ("http", "https"):
        raise PageUnreadable(f"refused: only http and https links are read, not {url[:60]}")
    if parts.username or parts.password:
        raise PageUnreadable("refused: links with credentials are not read")
    host = parts.hostname
    if not host:
        raise PageUnreadable("refused: the link has no host")
    try:  # an international name travels as its ASCII form (bücher.example → xn--bcher-kva…)
        host = host.encode("idna").decode("ascii")
    except UnicodeError as e:
        raise PageUnreadable("refused: the link's host is not a valid domain name") from e
    if not _HOST.fullmatch(host):  # "%zz", "a b": no name a resolver should be asked for
        raise PageUnreadable("refused: the link's host is not a valid domain name")
    address = await public_address(host, port, resolver)
    literal = f"[{address}]" if ":" in address else address
    netloc = literal if parts.port is None else f"{literal}:{parts.port}"
    target = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
    headers = {"Host": host if parts.port is None else f"{host}:{parts.port}"}
    extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
    return target, headers, extensions
