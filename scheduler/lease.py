"""Exactly one active scheduler across processes: a lease row in the database.

A holder renews before the lease runs out; another process takes over only after it has.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol


class LeaseStore(Protocol):
    async def acquire(self, name: str, owner: str, ttl: timedelta) -> bool:
        """Take or renew the lease; False if someone else holds an unexpired one."""
        ...

    async def release(self, name: str, owner: str) -> None: ...
