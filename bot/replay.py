"""`serve`'s replay of the request spool: requests kept on disk while the database was down
are stored in order once it is back, and each runs behind the card it already has."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from contextlib import AsyncExitStack

from bot.app import App
from bot.front_ends.platform import HeldFrontEnd
from bot.worker import CardViews


def start_replay(
    app: App,
    stack: AsyncExitStack,
    front_ends: Mapping[str, HeldFrontEnd],
    *,
    run_episodes: bool,
) -> None:
    """Replay in the background until the process stops; what a stop leaves in the spool is
    replayed after the restart, each request behind the card its front end posted."""
    views = CardViews(app, front_ends)
    replay = app.cards.replaying(views.for_row, run=run_episodes)
    if replay is None:
        return
    task = asyncio.create_task(replay.run())

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await replay.stop()

    stack.push_async_callback(stop)
