"""`serve`'s replay of the request spool: requests kept on disk while the database was down
are stored in order once it is back, and each runs behind the card it already has."""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import AsyncExitStack

from bot.app import App
from bot.discord.frontend import DiscordFrontend
from bot.slack.frontend import SlackFrontend
from bot.worker import CardViews


def start_replay(
    app: App,
    stack: AsyncExitStack,
    slack: SlackFrontend | None,
    discord_bot: DiscordFrontend | None,
    *,
    run_episodes: bool,
) -> None:
    """Replay in the background until the process stops; what a stop leaves in the spool is
    replayed after the restart."""
    views = CardViews(
        app, slack.client if slack else None, discord_bot.client if discord_bot else None
    )
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
