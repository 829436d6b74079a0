"""A chat front end as `serve` and the worker see it, so that neither names one: each front
end declares its `Platform` (`slack_platform.py`, `discord_platform.py`) and `registry.py`
lists them by name, the name an episode's reply target carries."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.connecting import ServiceState
from bot.digest import Digest
from pipeline.desk.note_desk import CardView

if TYPE_CHECKING:
    from bot.app import App


class HeldFrontEnd(Protocol):
    """A front end as this process holds it: listening (a gateway), or only its API client
    (a worker, the scheduler) to edit cards and post the digest."""

    def card_view(self, channel: str, message: str) -> CardView:
        """The card posted as `message` in `channel`, to edit."""
        ...

    def digest_poster(self) -> Callable[[Digest], Awaitable[None]] | None:
        """Posts the daily digest to its channel; None when none is configured."""
        ...

    def watch_follower(self) -> Callable[[int], None] | None:
        """Posts a watchlist find's card and runs the episode behind it; None where watch
        cards do not appear."""
        ...

    def describe(self, state: ServiceState) -> str:
        """How `serve`'s status line names it while it listens."""
        ...


@dataclass(frozen=True)
class Platform:
    name: str  # as an episode's reply target names it
    absent: str  # `serve`'s status line where it does not listen
    # gateway: the front end, listening (`run_episodes`: False where workers run them);
    # None when it is not configured
    listen: Callable[[App, AsyncExitStack, ServiceState, bool], Awaitable[HeldFrontEnd | None]]
    # a worker: the API client that edits cards where they were asked
    reach: Callable[[App, AsyncExitStack, ServiceState], Awaitable[HeldFrontEnd | None]]
    # a process that only schedules: what posts the digest and the watch cards
    schedule: Callable[[App], HeldFrontEnd | None]
