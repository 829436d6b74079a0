"""Signed Slack requests as Slack sends them, and the Slack app over the mock Web API: what
the Slack tests, the unfurl tests and the process tests share."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import build
from bot.settings import Settings
from bot.slack.frontend import SlackFrontend
from tests.fakes.slack_api import MockSlackApi

SECRET = "test-signing-secret"


@asynccontextmanager
async def slack_frontend(slack_api: MockSlackApi) -> AsyncIterator[SlackFrontend]:
    """The Slack app of the settings in the environment, against the mock Web API."""
    settings = Settings()
    async with build(settings) as app:
        client = AsyncWebClient(
            token="xoxb-test", base_url=f"http://127.0.0.1:{slack_api.port}/api/"
        )
        # Listeners run before the response, so a test can wait for what they started.
        frontend = SlackFrontend(app.cards, settings.slack, client, process_before_response=True)
        yield frontend
        await frontend.background.drain()


def signed(
    body: str,
    content_type: str,
    *,
    secret: str = SECRET,
    age_s: int = 0,
    extra: dict[str, str] | None = None,
) -> AsyncBoltRequest:
    ts = str(int(time.time()) - age_s)
    signature = (
        "v0=" + hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    )
    headers = {
        "content-type": [content_type],
        "x-slack-request-timestamp": [ts],
        "x-slack-signature": [signature],
    }
    for key, value in (extra or {}).items():
        headers[key] = [value]
    return AsyncBoltRequest(body=body, headers=headers)


def command(text: str, channel: str = "C1", trigger: str = "T-1") -> AsyncBoltRequest:
    return signed(
        urlencode(
            {
                "command": "/note",
                "text": text,
                "channel_id": channel,
                "user_id": "U1",
                "team_id": "T1",
                "trigger_id": trigger,
                "response_url": "http://127.0.0.1/unused",
            }
        ),
        "application/x-www-form-urlencoded",
    )


def interaction(payload: dict[str, Any]) -> AsyncBoltRequest:
    return signed(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")


def button(
    action: str, episode: int, user: str = "U1", ts: str = "1700000001.000100"
) -> AsyncBoltRequest:
    return interaction(
        {
            "type": "block_actions",
            "team": {"id": "T1"},
            "user": {"id": user},
            "channel": {"id": "C1"},
            "trigger_id": f"trig-{action}-{user}",
            "message": {"ts": ts},
            "container": {"message_ts": ts},
            "actions": [
                {
                    "action_id": action,
                    "value": str(episode),
                    "type": "button",
                    "block_id": "b",
                    "action_ts": str(time.time()),
                }
            ],
        }
    )
