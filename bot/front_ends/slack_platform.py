"""Slack as `serve` runs it: the app listening (socket mode, or HTTP behind a public URL), or
only its Web API client, which edits cards and posts the digest and the watch cards."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import partial

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import App, make_slack_client, make_slack_frontend
from bot.connecting import ServiceRefused, ServiceState, connection_tasks, listen
from bot.digest import Digest, post_to_slack
from bot.front_ends.platform import HeldFrontEnd, Platform
from bot.settings import ConfigurationError, SlackSettings
from bot.slack.frontend import SlackFrontend
from bot.slack.messages import CardMessage
from pipeline.desk.note_desk import CardView


@dataclass(frozen=True)
class SlackReach:
    """Slack as this process holds it: the Web API client, and the front end where one was
    made (watch cards need it)."""

    client: AsyncWebClient
    settings: SlackSettings
    frontend: SlackFrontend | None = None
    watch_channel: str | None = None  # EVONOTE_X__WATCH_CHANNEL

    def card_view(self, channel: str, message: str) -> CardView:
        return CardMessage(self.client, channel, message, self.settings.progress_interval_s)

    def digest_poster(self) -> Callable[[Digest], Awaitable[None]] | None:
        channel = self.settings.digest_channel
        return partial(post_to_slack, self.client, channel) if channel else None

    def watch_follower(self) -> Callable[[int], None] | None:
        frontend, channel = self.frontend, self.watch_channel
        if frontend is None or not channel:
            return None
        return lambda episode_id: frontend.background.spawn(frontend.follow(episode_id, channel))

    def describe(self, state: ServiceState) -> str:
        return f"Slack ({self.settings.mode} mode, {state.describe('Slack')})"


def slack_http_app(frontend: SlackFrontend) -> web.Application:
    """POST /slack/events takes events, commands and interactivity (Bolt checks signatures)."""

    async def events(request: web.Request) -> web.Response:
        # Bolt parses the body before it checks the signature and raises on a malformed one.
        try:
            bolt_request = await to_bolt_request(request)
        except (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError):
            return web.Response(status=400, text="malformed request body")
        stamp = bolt_request.headers.get("x-slack-request-timestamp", [""])
        if not isinstance(bolt_request.body, dict) or not (stamp and stamp[0].isdigit()):
            return web.Response(status=400, text="malformed request")
        response = await frontend.app.async_dispatch(bolt_request)
        if response.status >= 500:
            # Listeners answer after the ack, so a 5xx here is Bolt failing to read a signed
            # but malformed body (it has logged why): the sender's fault, not the server's.
            return web.Response(status=400, text="this request could not be processed")
        return await to_aiohttp_response(response)

    application = web.Application()
    application.router.add_post("/slack/events", events)
    return application


async def slack_refusal(check: Awaitable[object], variable: str) -> None:
    """A Web API call that must succeed before connecting; a refused token is final."""
    try:
        await check
    except SlackApiError as e:
        error = e.response.get("error", "an error") if e.response is not None else "an error"
        raise ServiceRefused(f"Slack refused the token ({error}): check {variable}") from e


async def start_slack(
    app: App, stack: AsyncExitStack, state: ServiceState, run_episodes: bool = True
) -> SlackReach | None:
    frontend = make_slack_frontend(app, run_episodes)
    if frontend is None:
        return None
    s = app.settings.slack
    stack.push_async_callback(frontend.background.drain)
    if s.mode == "socket":
        if s.app_token is None:
            raise ConfigurationError(
                "EVONOTE_SLACK__APP_TOKEN is not set (socket mode needs "
                "an xapp- token; or set EVONOTE_SLACK__MODE=http)"
            )
        app_token = s.app_token.get_secret_value()
        handler = AsyncSocketModeHandler(frontend.app, app_token)
        stack.push_async_callback(handler.close_async)

        async def connect() -> None:
            # The socket-mode client retries forever with a traceback each time; it is
            # started only once Slack has answered both tokens.
            client = frontend.client
            await slack_refusal(client.auth_test(), "EVONOTE_SLACK__BOT_TOKEN")
            opened = client.apps_connections_open(app_token=app_token)
            await slack_refusal(opened, "EVONOTE_SLACK__APP_TOKEN")
            await handler.connect_async()  # type: ignore[no-untyped-call]

    else:
        if s.signing_secret is None:
            raise ConfigurationError(
                "EVONOTE_SLACK__SIGNING_SECRET is not set (HTTP mode verifies every request)"
            )
        runner = web.AppRunner(slack_http_app(frontend))
        await runner.setup()
        stack.push_async_callback(runner.cleanup)
        await listen(runner, "0.0.0.0", s.port, "EVONOTE_SLACK__PORT")

        async def connect() -> None:  # requests come in already; cards need the Web API
            await slack_refusal(frontend.client.auth_test(), "EVONOTE_SLACK__BOT_TOKEN")

    state.connect_in(connection_tasks(stack, "slack connection"), "Slack", connect)
    return held(app, frontend)


def held(app: App, frontend: SlackFrontend) -> SlackReach:
    return SlackReach(frontend.client, app.settings.slack, frontend, app.settings.x.watch_channel)


async def reach_slack(app: App, stack: AsyncExitStack, state: ServiceState) -> SlackReach | None:
    """A worker's Slack: the Web API client alone (it edits cards, it listens to nothing)."""
    client = make_slack_client(app.settings)
    return SlackReach(client, app.settings.slack) if client is not None else None


def schedule_slack(app: App) -> HeldFrontEnd | None:
    """The scheduler's Slack: the digest and the watch cards, posted; not listening."""
    frontend = make_slack_frontend(app, run_episodes=False)
    return held(app, frontend) if frontend is not None else None


SLACK = Platform(
    name="slack",
    absent="no Slack app",
    listen=start_slack,
    reach=reach_slack,
    schedule=schedule_slack,
)
