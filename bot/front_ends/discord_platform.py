"""Discord as `serve` runs it: the bot on the gateway, or a REST client alone, which edits
cards and posts the digest."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import partial

import aiohttp
import discord

from bot.app import App, make_discord_frontend, make_discord_rest_client
from bot.connecting import ServiceRefused, ServiceState, connection_tasks
from bot.digest import Digest, post_to_discord
from bot.discord.embeds import card_embed
from bot.discord.views import card_view
from bot.front_ends.platform import HeldFrontEnd, Platform
from bot.settings import DiscordSettings
from bot.throttle import EditThrottle
from pipeline.card import NoteCard
from pipeline.desk.note_desk import CardView


class DiscordMessageView:
    """A Discord message edited through the REST API (no gateway connection needed)."""

    def __init__(
        self, client: discord.Client, channel: int, message: int, interval_s: float
    ) -> None:
        self.message = client.get_partial_messageable(channel).get_partial_message(message)
        self.throttle = EditThrottle(interval_s)

    async def show(self, card: NoteCard, force: bool = False) -> None:
        if self.throttle.ready(force):
            await self.message.edit(embed=card_embed(card), view=card_view(card))


@dataclass(frozen=True)
class DiscordReach:
    """Discord as this process holds it: a client, on the gateway or over REST only."""

    client: discord.Client
    settings: DiscordSettings

    def card_view(self, channel: str, message: str) -> CardView:
        return DiscordMessageView(
            self.client, int(channel), int(message), self.settings.progress_interval_s
        )

    def digest_poster(self) -> Callable[[Digest], Awaitable[None]] | None:
        channel = self.settings.digest_channel
        return partial(post_to_discord, self.client, int(channel)) if channel else None

    def watch_follower(self) -> Callable[[int], None] | None:
        return None  # watch cards appear on Slack (EVONOTE_X__WATCH_CHANNEL)

    def describe(self, state: ServiceState) -> str:
        return f"Discord ({state.describe('Discord')})"


async def discord_login(client: discord.Client, token: str) -> None:
    """Log in once Discord answers at all: a failed login leaves discord.py's HTTP session
    half made, so reachability is tested first with a plain request."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{discord.http.Route.BASE}/gateway"),
    ):
        pass
    try:
        await client.login(token)
    except discord.LoginFailure as e:
        raise ServiceRefused("Discord refused the token: check EVONOTE_DISCORD__BOT_TOKEN") from e


async def start_discord(
    app: App, stack: AsyncExitStack, state: ServiceState, run_episodes: bool = True
) -> DiscordReach | None:
    frontend = make_discord_frontend(app, run_episodes)
    token = app.settings.discord.bot_token
    if frontend is None or token is None:
        return None
    stack.push_async_callback(frontend.client.close)
    stack.push_async_callback(frontend.background.drain)

    async def connect() -> None:
        await discord_login(frontend.client, token.get_secret_value())
        # discord.py reconnects by itself from here on, with its own backoff.
        frontend.background.spawn(frontend.client.connect())

    state.connect_in(connection_tasks(stack, "discord connection"), "Discord", connect)
    return DiscordReach(frontend.client, app.settings.discord)


async def reach_discord(
    app: App, stack: AsyncExitStack, state: ServiceState
) -> DiscordReach | None:
    """A worker's Discord: REST only, it edits messages, it does not listen."""
    client = make_discord_rest_client(app.settings)
    token = app.settings.discord.bot_token
    if client is None or token is None:
        return None
    stack.push_async_callback(client.close)
    secret = token.get_secret_value()

    async def login() -> None:
        await discord_login(client, secret)

    state.connect_in(connection_tasks(stack, "discord login"), "Discord", login)
    return DiscordReach(client, app.settings.discord)


def schedule_discord(app: App) -> HeldFrontEnd | None:
    """The scheduler role opens no Discord client: the Discord digest goes out only where
    `serve` runs every role."""
    return None


DISCORD = Platform(
    name="discord",
    absent="no Discord bot",
    listen=start_discord,
    reach=reach_discord,
    schedule=schedule_discord,
)
