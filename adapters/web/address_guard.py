"""Only public addresses may be fetched: checked after DNS resolution, on every hop."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Protocol

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


def why_not_public(address: str) -> str | None:
    """A reason the address must not be fetched, or None when it is a public address."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return why_not_public(str(ip.ipv4_mapped)) or "an IPv4-mapped IPv6 address"
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
