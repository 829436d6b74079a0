"""Admission: how many episodes this process runs at once, and who goes next.

A burst must become a queue, not a crowd: episodes that all start together share the model
server, slow each other down and run out of time together. So at most `limit` episodes run at
once; the rest wait — requests a person made before watchlist scans, then in arrival order —
and an episode's deadline starts only when it runs. The limit follows the model server (AIMD,
as TCP does): a slow answer halves it (at most once per cooldown), each fast answer adds
1/limit, never past the configured ceiling; a slow server degrades to a longer queue, not to
abstentions.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from enum import IntEnum
from typing import TypeVar

from pydantic import BaseModel

from pipeline.ports import ChatMessage, ChatModel, ModelReply
from pipeline.request import BACKGROUND_SOURCES

T = TypeVar("T", bound=BaseModel)

# Where one vLLM server batches efficiently (dozens of sequences); AIMD halves it while the
# server is slow, so a small server settles at what it can take.
DEFAULT_WORKERS = 32
DEFAULT_SLOW_CALL_S = 30.0  # a model answer slower than this halves the limit

log = logging.getLogger(__name__)


class Priority(IntEnum):
    INTERACTIVE = 0  # a moderator or operator asked
    BACKGROUND = 1  # a watchlist scan found it


def priority_of(source: str) -> Priority:
    return Priority.BACKGROUND if source in BACKGROUND_SOURCES else Priority.INTERACTIVE


class GateClosed(Exception):
    """The process is shutting down: no new episode starts here."""


WaitListener = Callable[[int], Awaitable[None]]


class AdmissionGate:
    def __init__(
        self,
        ceiling: int,
        *,
        slow_call_s: float,
        floor: int = 1,
        cooldown_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ceiling = ceiling
        self.floor = min(floor, ceiling)
        self.limit = ceiling
        # Why the limit is what it is, for metrics and logs (an operator asks "why only 4?").
        self.why = f"the ceiling ({ceiling} episodes at once)"
        self.slow_call_s = slow_call_s
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.active = 0
        self.closed = False
        self._credit = 0.0
        self._last_decrease = float("-inf")
        self._seq = itertools.count()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._idle = asyncio.Event()

    @property
    def waiting(self) -> int:
        return sum(1 for *_, f in self._waiting if not f.done())

    @asynccontextmanager
    async def slot(
        self, priority: Priority = Priority.INTERACTIVE, on_wait: WaitListener | None = None
    ) -> AsyncIterator[None]:
        """Hold one of the `limit` places while the block runs; wait for one first if needed.
        `on_wait(n)` is told how many wait ahead when this request has to queue."""
        if self.closed:
            raise GateClosed
        if self.active < self.limit and not self.waiting:
            self.active += 1
        else:
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (int(priority), next(self._seq), future)
            heapq.heappush(self._waiting, entry)
            if on_wait is not None:
                await on_wait(self._ahead_of(entry))
            try:
                await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled() and future.exception() is None:
                    self._release()  # granted just as we were cancelled: hand it on
                raise
        try:
            yield
        finally:
            self._release()

    def _ahead_of(self, entry: tuple[int, int, asyncio.Future[None]]) -> int:
        return sum(1 for e in self._waiting if e[:2] < entry[:2] and not e[2].done())

    def _release(self) -> None:
        self.active -= 1
        self._grant()
        if self.active == 0:
            self._idle.set()

    def _grant(self) -> None:
        while self._waiting and self.active < self.limit:
            *_, future = heapq.heappop(self._waiting)
            if future.done():
                continue  # its waiter was cancelled
            self.active += 1
            future.set_result(None)

    def observe(self, latency_s: float) -> None:
        """One model answer's latency: additive increase, multiplicative decrease."""
        if latency_s > self.slow_call_s:
            now = self.clock()
            if now - self._last_decrease >= self.cooldown_s:
                self._last_decrease = now
                self.limit = max(self.floor, self.limit // 2)
                self._credit = 0.0
                self.why = (
                    f"halved to {self.limit}: a model answer took {latency_s:.0f} s "
                    f"(slow above {self.slow_call_s:.0f} s)"
                )
                log.info("admission %s", self.why)
            return
        self._credit += 1 / self.limit
        if self._credit >= 1 and self.limit < self.ceiling:
            self._credit = 0.0
            self.limit += 1
            self.why = f"grown to {self.limit}: answers came in under {self.slow_call_s:.0f} s"
            self._grant()

    def close(self) -> None:
        """Stop admitting: every waiter leaves with GateClosed; running episodes go on."""
        self.closed = True
        while self._waiting:
            *_, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_exception(GateClosed())

    async def idle(self) -> None:
        """Until no episode runs here."""
        while self.active > 0:
            self._idle.clear()
            await self._idle.wait()


class ObservedModel:
    """A ChatModel that reports each answer's latency to the gate (the AIMD signal)."""

    def __init__(self, inner: ChatModel, gate: AdmissionGate) -> None:
        self.inner = inner
        self.gate = gate

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        reply = await self.inner.structured(messages, output, timeout_s=timeout_s)
        self.gate.observe(reply.latency_s)
        return reply
