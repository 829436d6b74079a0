"""Fire-and-forget work of a front end: kept referenced until it ends (the event loop holds
tasks only weakly), logged when it fails, and awaitable as a whole."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class BackgroundTasks:
    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.tasks: set[asyncio.Task[None]] = set()
        self.failures = 0  # tasks that ended with an exception (each is logged)

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.failures += 1
            log.error("%s task failed", self.owner, exc_info=task.exception())

    async def drain(self) -> None:
        """Wait for every task, including those spawned meanwhile (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
