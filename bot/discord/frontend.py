"""Discord: /note, the "Draft Community Note" message menu, an optional 🔎 reaction, and
buttons that keep working across restarts (DynamicItem with the episode id in the custom id).

Handlers are thin: they answer Discord within its 3 s (defer, or a modal), then hand the slow
part to a tracked task. An interaction token lasts 15 minutes; a longer episode is finished by
editing the message itself.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.background import BackgroundTasks
from bot.cards import load_card
from bot.discord.embeds import card_embed
from bot.discord.views import (
    CardButton,
    InteractionEditor,
    LessonButton,
    MessageEditor,
    ReasonModal,
    card_view,
    lessons_embed,
    lessons_view,
)
from bot.live_card import CardView, request_behind_card
from bot.settings import DiscordSettings
from bot.submit import NoteSubmitter
from memory.curation import LessonAction, LessonDesk
from pipeline.card import NoteCard
from pipeline.desk.moderation import Answer, ModeratorDesk, Voter
from pipeline.desk.notes import NoteService
from pipeline.desk.ports import EpisodeRepository
from pipeline.request import NoteRequest, ReplyTarget
from pipeline.trajectory import EpisodeStatus

log = logging.getLogger(__name__)
SEARCH_EMOJI = "🔎"


class EvoNoteClient(discord.Client):
    def __init__(self, frontend: DiscordFrontend, intents: discord.Intents) -> None:
        super().__init__(intents=intents)
        self.evonote = frontend

    async def setup_hook(self) -> None:
        await self.evonote.setup()

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self.evonote.on_reaction(payload)


class DiscordFrontend:
    def __init__(
        self,
        notes: NoteService,
        store: EpisodeRepository,
        settings: DiscordSettings,
        client: discord.Client | None = None,
        submitter: NoteSubmitter | None = None,
        run_episodes: bool = True,
        desk: ModeratorDesk | None = None,
        lessons: LessonDesk | None = None,
    ) -> None:
        self.desk = desk or ModeratorDesk(store, submitter)
        self.lessons = lessons
        self.run_episodes = run_episodes
        self.notes = notes
        self.submitter = submitter
        self.store = store
        self.settings = settings
        intents = discord.Intents.default()
        # Only the 🔎 trigger reads arbitrary messages; commands and menus get their content
        # in the interaction itself.
        intents.message_content = settings.reaction_trigger
        self.client = client or EvoNoteClient(self, intents)
        self.client.evonote = self  # type: ignore[attr-defined]
        self.tree = app_commands.CommandTree(self.client)
        self.tree.command(name="note", description="Draft a Community Note for a post")(
            self._note_command
        )
        self.tree.context_menu(name="Draft Community Note")(self._message_menu)
        self.tree.command(name="lessons", description="This week's lessons, to curate")(
            self.on_lessons
        )
        self.background = BackgroundTasks("discord")

    # ---- plumbing -----------------------------------------------------------------------

    async def setup(self) -> None:
        self.client.add_dynamic_items(CardButton, LessonButton)
        for guild in self.settings.guild_ids:
            self.tree.copy_global_to(guild=discord.Object(id=guild))
            await self.tree.sync(guild=discord.Object(id=guild))
        if not self.settings.guild_ids:
            await self.tree.sync()

    def allowed(self, guild: int | None, channel: int | None) -> bool:
        guilds, channels = self.settings.guild_ids, self.settings.channel_ids
        return (not guilds or guild in guilds) and (not channels or channel in channels)

    def is_moderator(self, user: Any) -> bool:
        roles = {role.id for role in getattr(user, "roles", [])}
        return bool(roles & self.settings.moderator_role_ids)

    # ---- the episode --------------------------------------------------------------------

    async def start(
        self,
        text: str,
        editor: CardView,
        *,
        user: str,
        channel: str | None,
        message: str | None,
        key: str,
    ) -> None:
        request = NoteRequest(
            post_ref=text,
            requester=user,
            source="discord",
            key=key,
            reply_to=ReplyTarget(platform="discord", channel=channel, message=message),
        )

        async def place(card: NoteCard) -> tuple[CardView, str | None]:
            await editor.show(card, force=True)
            message_id = getattr(getattr(editor, "message", None), "id", None)
            return editor, None if message_id is None else str(message_id)

        await request_behind_card(
            self.notes,
            self.store,
            request,
            place,
            submitter=self.submitter,
            run_episodes=self.run_episodes,
        )

    async def card(self, episode_id: int, progress: str | None = None) -> NoteCard | None:
        return await load_card(self.store, episode_id, submitter=self.submitter, progress=progress)

    async def show_card(self, interaction: discord.Interaction[Any], episode: int) -> None:
        card = await self.card(episode)
        if card is not None:
            await interaction.response.edit_message(embed=card_embed(card), view=card_view(card))

    async def _refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    # ---- entry points -------------------------------------------------------------------

    async def _note_command(self, interaction: discord.Interaction[Any], url_or_text: str) -> None:
        await self.on_note(interaction, url_or_text)

    async def _message_menu(
        self, interaction: discord.Interaction[Any], message: discord.Message
    ) -> None:
        await self.on_message(interaction, message)

    async def on_note(self, interaction: discord.Interaction[Any], url_or_text: str) -> None:
        if not self.allowed(interaction.guild_id, interaction.channel_id):
            await self._refuse(interaction, "EvoNote is not enabled in this channel.")
            return
        if not url_or_text.strip():
            await self._refuse(interaction, "Give a post to check: a post URL or its text.")
            return
        await interaction.response.defer(thinking=True)
        editor = InteractionEditor(interaction, self.settings.progress_interval_s)
        self.background.spawn(
            self.start(
                url_or_text.strip(),
                editor,
                user=str(interaction.user.id),
                channel=str(interaction.channel_id),
                message=None,
                key=f"discord:interaction:{interaction.id}",
            )
        )

    async def on_message(
        self, interaction: discord.Interaction[Any], message: discord.Message
    ) -> None:
        links = [e.url for e in message.embeds if e.url]
        text = " ".join(
            [message.content.strip(), *[u for u in links if u not in message.content]]
        ).strip()
        if not text:
            await self._refuse(interaction, "That message has no text or link to check.")
            return
        await self.on_note(interaction, text)

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
        reply = await target.reply(
            embed=card_embed(NoteCard(episode_id=0, status=EpisodeStatus.QUEUED))
        )
        editor = MessageEditor(reply, self.settings.progress_interval_s)
        self.background.spawn(
            self.start(
                target.content,
                editor,
                user=str(payload.user_id),
                channel=str(payload.channel_id),
                message=str(reply.id),
                key=f"discord:reaction:{payload.message_id}",
            )
        )

    # ---- buttons ------------------------------------------------------------------------

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, episode: int
    ) -> None:
        row = await self.store.get(episode)
        if row is None:
            await self._refuse(interaction, f"Episode {episode} no longer exists.")
            return
        if action == "up":
            await self.vote(interaction, episode, 1, None)
        elif action == "down":
            await interaction.response.send_modal(ReasonModal(self, episode))
        elif action in ("regenerate", "retry"):
            await interaction.response.defer(thinking=True)
            editor = InteractionEditor(interaction, self.settings.progress_interval_s)
            self.background.spawn(
                self.start(
                    row.post_ref,
                    editor,
                    user=str(interaction.user.id),
                    channel=str(interaction.channel_id),
                    message=None,
                    key=f"discord:regenerate:{episode}",
                )
            )
        elif action == "evidence":
            lines = [
                f"**{e.title or e.url}** <{e.url}>\n"
                + "\n".join(f"> {' '.join(q.split())}" for q in e.quotes)
                for e in row.evidence
            ]
            await interaction.response.send_message(
                ("\n\n".join(lines) or "No sources were read.")[:2000], ephemeral=True
            )
        elif action == "approve":
            answer = await self.desk.approve(self.voter(interaction), episode)
            await self.answer(interaction, episode, answer)
        elif action == "submit":
            answer = await self.desk.submit(self.voter(interaction), episode)
            await self.answer(interaction, episode, answer)

    async def vote(
        self, interaction: discord.Interaction[Any], episode: int, vote: int, reason: str | None
    ) -> None:
        answer = await self.desk.vote(self.voter(interaction), episode, vote, reason)
        await self.answer(interaction, episode, answer)

    async def on_lessons(self, interaction: discord.Interaction[Any]) -> None:
        """/lessons: this week's board, only for the person asking, with buttons for
        moderators."""
        if self.lessons is None:
            await self._refuse(interaction, "The experience memory is off (EVONOTE_MEMORY__MODE).")
            return
        board = await self.lessons.board(datetime.now(UTC))
        moderator = self.is_moderator(interaction.user)
        await interaction.response.send_message(
            embed=lessons_embed(board), view=lessons_view(board, moderator), ephemeral=True
        )

    async def on_lesson_button(
        self, interaction: discord.Interaction[Any], action: str, lesson: int
    ) -> None:
        if self.lessons is None:
            await self._refuse(interaction, "The experience memory is off.")
            return
        answer = await self.lessons.act(self.voter(interaction), lesson, LessonAction(action))
        if answer.message:
            await self._refuse(interaction, answer.message)
            return
        board = await self.lessons.board(datetime.now(UTC))
        await interaction.response.edit_message(
            embed=lessons_embed(board), view=lessons_view(board, True)
        )

    def voter(self, interaction: discord.Interaction[Any]) -> Voter:
        user = interaction.user
        return Voter(
            "discord", str(user.id), self.is_moderator(user), "EVONOTE_DISCORD__MODERATOR_ROLES"
        )

    async def answer(
        self, interaction: discord.Interaction[Any], episode: int, answer: Answer
    ) -> None:
        """The desk's answer, in Discord: the card shown again, or a message for the person."""
        if answer.message:
            await self._refuse(interaction, answer.message)
        elif answer.refresh:
            await self.show_card(interaction, episode)
