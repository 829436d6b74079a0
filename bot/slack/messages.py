"""Slack messages: what a person typed, and the card message EvoNote edits as it goes."""

from __future__ import annotations

import logging
import re

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.blocks import card_blocks
from bot.throttle import EditThrottle
from pipeline.card import NoteCard
from pipeline.desk.note_desk import CardPlacer, CardView

log = logging.getLogger(__name__)
_MENTION = re.compile(r"<@[A-Z0-9]+>")
_SLACK_LINK = re.compile(r"<(https?://[^>|]+)(?:\|[^>]*)?>")
NOT_ENABLED = (
    "EvoNote is not enabled in this channel; ask an admin to add it to EVONOTE_SLACK__CHANNELS."
)
NOTHING_TO_CHECK = {
    "command": "Give a post to check: `/note https://x.com/user/status/123` or "
    "`/note <the post's text>`.",
    "shortcut": "That message has no text or link to check.",
    "mention": "Mention me with a post link or the post's text to check it.",
}


def plain_text(text: str) -> str:
    """Slack's markup → what the person typed: <https://x|x> → https://x, mentions dropped."""
    return _MENTION.sub("", _SLACK_LINK.sub(r"\1", text)).strip()


class CardMessage:
    """One card in a channel, edited as the episode progresses, at most once per interval."""

    def __init__(self, client: AsyncWebClient, channel: str, ts: str, interval_s: float) -> None:
        self.client = client
        self.channel = channel
        self.ts = ts
        self.throttle = EditThrottle(interval_s)

    async def show(self, card: NoteCard, force: bool = False) -> None:
        if not self.throttle.ready(force):
            return  # the next phase's edit will carry the news; Slack rate-limits chat.update
        try:
            await self.client.chat_update(
                channel=self.channel, ts=self.ts, text=fallback_text(card), blocks=card_blocks(card)
            )
        except SlackApiError as e:
            log.warning("chat.update failed: %s", e.response.get("error"))


def fallback_text(card: NoteCard) -> str:
    return card.note or card.abstain_reason or card.failure_reason or "Checking this post…"


def card_placer(
    client: AsyncWebClient, channel: str, thread: str | None, interval_s: float
) -> CardPlacer:
    """Posts an episode's first card; its `ts` is where a worker elsewhere edits it."""

    async def place(card: NoteCard) -> tuple[CardView, str | None]:
        posted = await client.chat_postMessage(
            channel=channel, thread_ts=thread, text=fallback_text(card), blocks=card_blocks(card)
        )
        ts = str(posted["ts"])
        return CardMessage(client, channel, ts, interval_s), ts

    return place
