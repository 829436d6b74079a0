"""`evonote serve --role worker`: run queued episodes, edit their cards where they were asked.

Several workers (processes, machines) share one database: each claims the oldest queued
episode with SKIP LOCKED under a lease; an episode whose worker died is requeued when its
lease runs out and run again, at most `max_attempts` times.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot.app import App
from bot.front_ends.platform import HeldFrontEnd
from pipeline.desk.episode import Episode
from pipeline.desk.note_desk import CardView
from pipeline.errors import StorageUnavailable
from pipeline.trajectory import EpisodeStatus, ProgressListener

log = logging.getLogger(__name__)


class CardViews:
    """Finds the card of an episode from where it was asked (its reply target); what is shown
    on it, and when, is the note desk's."""

    def __init__(self, app: App, front_ends: Mapping[str, HeldFrontEnd]) -> None:
        self.app = app
        self.front_ends = front_ends  # by platform name, those this process holds
        self.desk = app.cards

    def for_row(self, row: Episode) -> CardView | None:
        channel, message = row.reply_channel, row.reply_message
        if not channel or not message:
            return None
        front_end = self.front_ends.get(row.reply_platform)
        return front_end.card_view(channel, message) if front_end is not None else None

    def progress_for(self, row: Episode) -> ProgressListener | None:
        view = self.for_row(row)
        return None if view is None else self.desk.progress_for_row(view, row)

    async def final(self, row: Episode) -> None:
        await self.desk.show_final(row.id, self.for_row(row))

    async def forecast(self, row: Episode) -> Episode:
        return await self.desk.forecast_then_show(row, self.for_row(row))

    async def finished(self, row: Episode) -> None:
        await self.desk.finish_recovered(row, self.for_row(row))


# Notes waiting for their forecast; past this, a note keeps its card without one (logged).
FORECAST_BACKLOG = 200


async def run_workers(app: App, views: CardViews, poll_s: float = 1.0) -> None:
    """Run until cancelled: `app.settings.ops.workers` loops claiming and running episodes.
    A note's forecast runs in a lane of its own after the note is on its card: a worker takes
    its next episode at once instead of waiting for the persona panel."""
    ops = app.settings.ops
    backlog: asyncio.Queue[Episode] = asyncio.Queue(FORECAST_BACKLOG)
    f = app.settings.forecast
    lanes = max(1, f.concurrency // f.per_note)  # each forecast runs per_note calls at once

    async def forecast_lane() -> None:
        while True:
            row = await backlog.get()
            try:
                await views.forecast(row)
            except StorageUnavailable as e:  # the note stays without a forecast
                log.warning("episode %s: forecast not stored: %s", row.id, e)

    async def requeue() -> None:
        while True:
            try:
                requeued, failed = await app.store.requeue_expired(ops.max_attempts)
            except StorageUnavailable as e:  # the next pass tries again
                log.warning("could not requeue orphaned episodes: %s", e)
            else:
                if requeued or failed:
                    log.info("requeued %s orphaned episodes, failed %s", requeued, failed)
            await asyncio.sleep(ops.recover_every_s)

    async def loop() -> None:
        backoff = poll_s
        while not app.notes.gate.closed:  # closed: the process is shutting down
            try:
                row = await app.notes.work_once(views.progress_for)
                if row is not None:
                    await views.final(row)  # the note at once; its forecast comes as an edit
                    if row.status == EpisodeStatus.NOTED and app.notes.panel is not None:
                        try:
                            backlog.put_nowait(row)
                        except asyncio.QueueFull:
                            log.warning("episode %s: forecast skipped (backlog full)", row.id)
            except StorageUnavailable as e:
                # The database blinked (a restart, a held lock): an episode it was running
                # keeps its lease until that runs out and it is requeued; this loop carries on.
                backoff = min(30.0, backoff * 2)
                log.warning("worker waiting %.0f s for the database: %s", backoff, e)
                await asyncio.sleep(backoff)
                continue
            if row is None:
                await asyncio.sleep(poll_s)
            elif row.status == EpisodeStatus.QUEUED:  # delayed: the model server is down
                backoff = min(60.0, backoff * 2)
                await asyncio.sleep(backoff)
            else:
                backoff = poll_s

    await asyncio.gather(
        requeue(),
        *(loop() for _ in range(ops.workers)),
        *(forecast_lane() for _ in range(lanes)),
    )
