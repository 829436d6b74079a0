"""The watchlists (X accounts, searches, the eligible-posts feed): each scan queues the best
new posts, and each find is followed where this process shows or runs it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Scanner(Protocol):
    """`bot.watch.WatchScanner`: queues the new posts worth a note; their episode ids."""

    async def run_once(self) -> list[int]: ...


async def scan_watchlists(scanner: Scanner, follow: Callable[[int], None] | None) -> None:
    """`follow`: starts a find's card (and runs it behind the card), or runs it without one;
    None where this process does neither (the episodes wait for a worker)."""
    for episode_id in await scanner.run_once():
        if follow is not None:
            follow(episode_id)
