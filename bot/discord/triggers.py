"""Discord: drafts a message itself asks for. A post link sent in a link channel gets a
preview with "Draft a note", or its draft at once (`auto_draft`), one episode per post and
channel; a 🔎 reaction (`reaction_trigger`) drafts a note on the message."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.discord.embeds import card_embed, preview_embed
from bot.discord.views import Interaction, MessageEditor, draft_view
from bot.settings import DiscordSettings
from pipeline.card import NoteCard
from pipeline.desk.note_desk import CardView, NoteDesk
from pipeline.drafting.note import find_urls
from pipeline.trajectory import EpisodeStatus

SEARCH_EMOJI = "🔎"
MAX_LINKS = 5  # post links previewed in one message


class MessageTriggers:
    """The message listeners. The front end's own: `allowed` (EvoNote works in a guild and
    channel), `moderates` (a member vouched for), `start` (a request with its card), `tell`
    (an answer to one person) and `note` (a request from an interaction)."""

    def __init__(
        self,
        cards: NoteDesk,
        settings: DiscordSettings,
        client: discord.Client,
        *,
        allowed: Callable[[int | None, int | None], bool],
        moderates: Callable[[object], bool],
        start: Callable[[str, CardView, int, int | None, str, bool], None],
        tell: Callable[[Interaction, str], Awaitable[None]],
        note: Callable[[Interaction, str, str | None], Awaitable[None]],
    ) -> None:
        self.previews = cards.previews
        self.asked_before = cards.asked_before
        self.settings = settings
        self.client = client
        self.allowed = allowed
        self.moderates = moderates
        self.start = start
        self.tell = tell
        self.note = note

    async def on_posted(self, message: discord.Message) -> None:
        """A message in a link channel: each post link in it gets a preview reply with Draft a
        note, or its draft at once (`auto_draft`); one episode per post and channel. Bots'
        messages, and channels not listed, are ignored."""
        channel, guild = message.channel.id, getattr(message.guild, "id", None)
        if (
            message.author.bot
            or channel not in self.settings.link_channel_ids
            or not self.allowed(guild, channel)
        ):
            return
        for url in find_urls(message.content)[:MAX_LINKS]:
            key = self.previews.request_key("discord", str(channel), url)
            if key is None:
                continue
            preview = await self.previews.preview(url, key)
            if self.settings.auto_draft and preview.episode is None and preview.post is not None:
                reply = await message.reply(embed=preview_embed(preview, drafting=True))
                editor = MessageEditor(reply, self.settings.progress_interval_s)
                vouched = self.moderates(message.author)
                self.start(url, editor, message.author.id, channel, key, vouched)
            else:
                if preview.post is not None:
                    await message.reply(embed=preview_embed(preview), view=draft_view())
                else:
                    await message.reply(embed=preview_embed(preview))

    async def on_draft_link(self, interaction: Interaction) -> None:
        """Draft a note, under a preview: that post's draft in this channel, once."""
        embeds = getattr(interaction.message, "embeds", None) or []
        url = embeds[0].url if embeds else None
        channel = str(interaction.channel_id)
        key = self.previews.request_key("discord", channel, url) if url else None
        if url is None or key is None:
            await self.tell(interaction, "That button does not point at a post.")
        elif (seen := await self.asked_before(key)) is not None:
            await self.tell(
                interaction,
                f"A note for this post was already asked for in this channel (episode {seen.id}).",
            )
        else:
            await self.note(interaction, url, key)

    async def on_reaction(self, payload: discord.RawReactionActionEvent) -> None:
        if (
            not self.settings.reaction_trigger
            or str(payload.emoji) != SEARCH_EMOJI
            or not self.allowed(payload.guild_id, payload.channel_id)
        ):
            return
        channel = self.client.get_channel(payload.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        target = await channel.fetch_message(payload.message_id)
        if not target.content.strip():
            return
        queued = NoteCard(episode_id=0, status=EpisodeStatus.QUEUED)
        reply = await target.reply(embed=card_embed(queued))
        editor = MessageEditor(reply, self.settings.progress_interval_s)
        key = f"discord:reaction:{payload.message_id}"
        vouched = self.moderates(payload.member)
        self.start(target.content, editor, payload.user_id, payload.channel_id, key, vouched)
