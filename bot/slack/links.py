"""Slack: post links pasted into a channel get a preview card with a "Draft a note" button;
in an auto-draft channel a sent post link starts its draft, once per post and channel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import SlackSettings
from bot.slack.events import Ack, Asked, DraftClick, LinksShared, parsed
from bot.slack.messages import NOT_ENABLED
from bot.slack.unfurls import DRAFT_ACTION, preview_blocks
from pipeline.desk.note_desk import NoteDesk

Tell = Callable[[str, str, str], Awaitable[None]]


class SlackLinks:
    """The link listeners: `start` begins a request, `tell` answers one person, `allowed`
    says whether EvoNote works in a channel (the front end's own)."""

    def __init__(
        self,
        cards: NoteDesk,
        settings: SlackSettings,
        client: AsyncWebClient,
        *,
        start: Callable[[Asked], None],
        tell: Tell,
        allowed: Callable[[str], bool],
    ) -> None:
        self.previews = cards.previews
        self.asked_before = cards.asked_before
        self.settings = settings
        self.client = client
        self.start = start
        self.tell = tell
        self.allowed = allowed

    def register(self, app: AsyncApp) -> None:
        app.event("link_shared")(self.on_link_shared)
        app.action(DRAFT_ACTION)(self.on_draft_link)

    async def on_link_shared(self, ack: Ack, body: dict[str, Any]) -> None:
        """Post links pasted (or being written: the composer) get a preview each; in an
        auto-draft channel a sent post link starts its draft, once per post and channel."""
        await ack()
        if (shared := parsed(LinksShared.parse, body, "link_shared event")) is None:
            return
        if not shared.composing and not self.allowed(shared.channel):
            return
        drafting = not shared.composing and shared.channel in self.settings.auto_draft_ids
        unfurls: dict[str, Any] = {}
        for url in shared.urls:
            key = self.previews.request_key("slack", shared.channel, url)
            if key is None:  # a link of those domains that is no post (x.com/home)
                continue
            preview = await self.previews.preview(url, key)
            starts = drafting and preview.episode is None and preview.post is not None
            if starts:
                thread = shared.thread or shared.message_ts
                self.start(Asked("link", url, shared.channel, shared.user, thread, key))
            unfurls[url] = {"blocks": preview_blocks(preview, drafting=starts)}
        if not unfurls:
            return
        if shared.composing:
            await self.client.chat_unfurl(
                source="composer", unfurl_id=shared.unfurl_id, unfurls=unfurls
            )
        else:
            await self.client.chat_unfurl(
                channel=shared.channel, ts=shared.message_ts, unfurls=unfurls
            )

    async def on_draft_link(self, ack: Ack, body: dict[str, Any]) -> None:
        """Draft a note, on a link's preview: the draft of that post in this channel, once."""
        await ack()
        if (click := parsed(DraftClick.parse, body, "Draft a note click")) is None:
            return
        if not self.allowed(click.channel):
            await self.tell(click.channel, click.user, NOT_ENABLED)
            return
        key = self.previews.request_key("slack", click.channel, click.url)
        if key is None:
            await self.tell(click.channel, click.user, "That button does not point at a post.")
            return
        if (seen := await self.asked_before(key)) is not None:
            await self.tell(
                click.channel,
                click.user,
                f"A note for this post was already asked for in this channel (episode {seen.id}).",
            )
            return
        self.start(Asked("link", click.url, click.channel, click.user, click.message_ts, key))
