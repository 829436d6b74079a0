"""Requests that arrive while the database is down: kept on local disk, acknowledged as queued,
stored in order once the database is back — across a SIGTERM and a restart.

Before: a request was held in memory for up to a minute, then its card said "not stored"; an
outage of 75 s, or a SIGTERM during one, lost every request that came meanwhile (issue 58:
0 of 3 + 3 stored). Now the request is written to the spool first, its card says it is queued,
and `SpoolReplay` stores the spooled requests oldest first when the database answers again,
then runs each behind the card it already has. A request that arrives while others wait in
the spool joins them, so the order people asked in is the order they are stored in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from pydantic import BaseModel, Field

from pipeline.card import NoteCard, post_excerpt
from pipeline.desk.episode import Episode
from pipeline.desk.notes import EpisodeFailed
from pipeline.errors import StorageUnavailable
from pipeline.redact import redact
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus

log = logging.getLogger(__name__)

# Retries while the database stays down: 1 s, doubling to 30 s (one log line each). A
# PostgreSQL restart takes 5-20 s: the first retries catch it; a long outage costs a retry
# every 30 s.
FIRST_RETRY_S = 1.0
LONGEST_RETRY_S = 30.0


class SpooledRequest(BaseModel):
    """A request the database could not take yet, and where its card is."""

    seq: str = Field(description="the spool's order: sorts as the requests arrived")
    request: NoteRequest
    card: str | None = Field(
        default=None, description="the queued card's message id, edited once the request runs"
    )


class RequestSpool(Protocol):
    """Durable, ordered storage on this machine's disk (adapters/spool.py)."""

    async def put(self, entry: SpooledRequest) -> None:
        """Write (or rewrite) an entry; it is on disk when this returns."""
        ...

    async def entries(self) -> list[SpooledRequest]:
        """Every entry, oldest first."""
        ...

    async def drop(self, seq: str) -> None: ...

    def next_seq(self) -> str: ...


def queued_card(post_ref: str) -> NoteCard:
    """The answer to a spooled request: it is kept and will run; no buttons yet."""
    return NoteCard(
        episode_id=0,
        status=EpisodeStatus.QUEUED,
        post_excerpt=post_excerpt(post_ref),
        progress="Queued: the database is unavailable, so this request is kept on the "
        "server's disk; it runs as soon as the database is back (nothing to do).",
    )


async def spool_request(spool: RequestSpool, request: NoteRequest, seq: str) -> SpooledRequest:
    """The request on disk, under a key of its own when it has none: a replay interrupted
    between storing it and dropping it from the spool stores it once."""
    keyed = request if request.key else request.model_copy(update={"key": f"spool:{seq}"})
    entry = SpooledRequest(seq=seq, request=keyed)
    await spool.put(entry)
    return entry


class SpoolReplay:
    """Stores the spooled requests in order once the database answers, then runs each behind
    its card (`run`), or leaves it queued for a worker. `spooled` wakes it."""

    def __init__(
        self,
        spool: RequestSpool,
        enqueue: Callable[[NoteRequest], Awaitable[Episode | None]],
        asked_before: Callable[[str], Awaitable[Episode | None]],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.spool = spool
        self.enqueue = enqueue
        self.asked_before = asked_before
        # what becomes of a stored request (its card edited, the episode run): set by the
        # process that serves the cards; None: stored only
        self.attend: Callable[[Episode], Coroutine[Any, Any, None]] | None = None
        self.sleep = sleep
        self.spooled = asyncio.Event()
        self.placing: set[str] = set()  # entries whose card is being placed: not yet theirs
        self.running: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Until cancelled: drain the spool whenever it holds something."""
        delay = FIRST_RETRY_S
        while True:
            try:
                stored = await self.drain()
            except OSError as e:  # the spool's folder itself: nothing is lost, it is retried
                log.warning("the request spool cannot be read (%s); next try in %.0f s", e, delay)
                await self.sleep(delay)
                delay = min(delay * 2, LONGEST_RETRY_S)
                continue
            except StorageUnavailable as e:
                waiting = len(await self.spool.entries())
                log.warning(
                    "database unavailable: %d request(s) kept in the spool, next try in %.0f s "
                    "(%s)",
                    waiting,
                    delay,
                    redact(str(e)),
                )
                await self.sleep(delay)
                delay = min(delay * 2, LONGEST_RETRY_S)
                continue
            if stored:
                log.info("the database is back: %d spooled request(s) stored in order", stored)
            delay = FIRST_RETRY_S
            self.spooled.clear()
            if not await self.spool.entries():  # none came while draining
                await self.spooled.wait()

    async def drain(self) -> int:
        """Store every spooled request, oldest first; StorageUnavailable stops at the first
        the database refuses (the rest keep their place)."""
        stored = 0
        for entry in await self.spool.entries():
            if entry.seq in self.placing:
                break  # its card is being placed: it wakes the replay once it is
            if entry.card is None:  # read while its card was placed? its address is on disk
                fresh = {e.seq: e for e in await self.spool.entries()}
                entry = fresh.get(entry.seq, entry)
            episode = await self.store(entry)
            await self.spool.drop(entry.seq)
            stored += 1
            if episode is not None and self.attend is not None:
                task = asyncio.create_task(self.attend(episode))
                self.running.add(task)
                task.add_done_callback(self.running.discard)
        return stored

    async def store(self, entry: SpooledRequest) -> Episode | None:
        """The entry stored with its card's address, or the episode stored for it before
        (also a request the input checks refused: stored as failed, its card says why)."""
        request = entry.request
        if entry.card is not None:
            reply = request.reply_to.model_copy(update={"message": entry.card})
            request = request.model_copy(update={"reply_to": reply})
        try:
            episode = await self.enqueue(request)
        except EpisodeFailed as failed:
            return failed.episode
        if episode is None and request.key:  # stored before a restart, not yet dropped
            return await self.asked_before(request.key)
        return episode

    async def stop(self) -> None:
        """Cancel the runs started here (an interrupted episode is requeued and recovered)."""
        for task in list(self.running):
            task.cancel()
        if self.running:
            await asyncio.gather(*self.running, return_exceptions=True)
