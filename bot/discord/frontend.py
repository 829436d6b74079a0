"""Discord: /note, the "Draft Community Note" message menu, an optional 🔎 reaction, and
buttons that keep working across restarts (DynamicItem with the episode id in the custom id).

A translator only: an interaction → who and which episode → a call to the note service or the
desk → an embed. Handlers answer Discord within its 3 s (defer, or a modal), then hand the slow
part to a tracked task. An interaction token lasts 15 minutes; a longer episode is finished by
editing the message itself.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.background import BackgroundTasks
from bot.discord.embeds import card_embed, evidence_text
from bot.discord.lessons import LessonsBoard
from bot.discord.triggers import MessageTriggers
from bot.discord.views import (
    CardButton,
    DraftLinkButton,
    Interaction,
    InteractionEditor,
    LessonButton,
    ReasonModal,
    card_view,
)
from bot.settings import DiscordSettings
from memory.curation import LessonDesk
from pipeline.card import NoteCard
from pipeline.desk.moderation import Answer, Voter
from pipeline.desk.note_desk import CardView, NoteDesk
from pipeline.request import NoteRequest, ReplyTarget

log = logging.getLogger(__name__)


class EvoNoteClient(discord.Client):
    def __init__(self, frontend: DiscordFrontend, intents: discord.Intents) -> None:
        super().__init__(intents=intents)
        self.evonote = frontend

    async def setup_hook(self) -> None:
        await self.evonote.setup()

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self.evonote.triggers.on_reaction(payload)

    async def on_message(self, message: discord.Message) -> None:
        await self.evonote.triggers.on_posted(message)


class DiscordFrontend:
    def __init__(
        self,
        cards: NoteDesk,
        settings: DiscordSettings,
        client: discord.Client | None = None,
        run_episodes: bool = True,
        lessons: LessonDesk | None = None,
    ) -> None:
        self.cards = cards  # the one NoteDesk the app built
        self.desk = cards.moderation
        self.run_episodes = run_episodes  # False where workers in other processes run them
        self.settings = settings
        intents = discord.Intents.default()
        # Only the 🔎 trigger and link channels read arbitrary messages; commands and menus
        # get their content in the interaction itself.
        intents.message_content = settings.reaction_trigger or bool(settings.link_channel_ids)
        self.client = client or EvoNoteClient(self, intents)
        self.client.evonote = self  # type: ignore[attr-defined]
        self.lessons = LessonsBoard(lessons, self.voter)
        self.tree = app_commands.CommandTree(self.client)
        self.tree.command(name="note", description="Draft a Community Note for a post")(
            self._note_command
        )
        self.tree.context_menu(name="Draft Community Note")(self._message_menu)
        self.tree.command(name="lessons", description="This week's lessons, to curate")(
            self.lessons.show
        )
        self.background = BackgroundTasks("discord")
        self.triggers = MessageTriggers(
            cards,
            settings,
            self.client,
            allowed=self.allowed,
            moderates=self.moderates,
            start=self.start,
            tell=self.tell,
            note=self.on_note,
        )

    async def setup(self) -> None:
        self.client.add_dynamic_items(CardButton, LessonButton, DraftLinkButton)
        for guild in self.settings.guild_ids:
            self.tree.copy_global_to(guild=discord.Object(id=guild))
            await self.tree.sync(guild=discord.Object(id=guild))
        if not self.settings.guild_ids:
            await self.tree.sync()

    def allowed(self, guild: int | None, channel: int | None) -> bool:
        guilds, channels = self.settings.guild_ids, self.settings.channel_ids
        return (not guilds or guild in guilds) and (not channels or channel in channels)

    def voter(self, interaction: Interaction) -> Voter:
        user = interaction.user
        return Voter(
            "discord", str(user.id), self.moderates(user), "EVONOTE_DISCORD__MODERATOR_ROLES"
        )

    def moderates(self, user: object) -> bool:
        """Whether a member holds a moderator role (a user outside a server holds none)."""
        return bool({r.id for r in getattr(user, "roles", [])} & self.settings.moderator_role_ids)

    def start(
        self,
        text: str,
        editor: CardView,
        user: int,
        channel: int | None,
        key: str,
        vouched: bool,
    ) -> None:
        """Persist the request, show its card in `editor`, run the episode behind it.
        `vouched`: the requester holds a moderator role, so their episodes' lessons count as
        support."""
        message = getattr(getattr(editor, "message", None), "id", None)
        request = NoteRequest(
            post_ref=text,
            requester=str(user),
            source="discord",
            key=key,
            vouched=vouched,
            reply_to=ReplyTarget(
                platform="discord",
                channel=None if channel is None else str(channel),
                message=None if message is None else str(message),
            ),
        )

        async def place(card: NoteCard) -> tuple[CardView, str | None]:
            await editor.show(card, force=True)
            message_id = getattr(getattr(editor, "message", None), "id", None)
            return editor, None if message_id is None else str(message_id)

        # Every Discord interaction waits for an answer ("thinking…"): a repeat gets the card.
        self.background.spawn(
            self.cards.request(request, place, run=self.run_episodes, answer_repeats=True)
        )

    async def _note_command(self, interaction: Interaction, url_or_text: str) -> None:
        await self.on_note(interaction, url_or_text)

    async def _message_menu(self, interaction: Interaction, message: discord.Message) -> None:
        await self.on_message(interaction, message)

    async def on_note(
        self, interaction: Interaction, url_or_text: str, key: str | None = None
    ) -> None:
        if not self.allowed(interaction.guild_id, interaction.channel_id):
            await self.tell(interaction, "EvoNote is not enabled in this channel.")
            return
        if not url_or_text.strip():
            await self.tell(interaction, "Give a post to check: a post URL or its text.")
            return
        await interaction.response.defer(thinking=True)
        editor = InteractionEditor(interaction, self.settings.progress_interval_s)
        key = key or f"discord:interaction:{interaction.id}"
        user = interaction.user
        vouched = self.moderates(user)
        self.start(url_or_text.strip(), editor, user.id, interaction.channel_id, key, vouched)

    async def on_message(self, interaction: Interaction, message: discord.Message) -> None:
        links = [e.url for e in message.embeds if e.url and e.url not in message.content]
        text = " ".join([message.content.strip(), *links]).strip()
        if not text:
            await self.tell(interaction, "That message has no text or link to check.")
            return
        await self.on_note(interaction, text)

    async def on_button(self, interaction: Interaction, action: str, episode_id: int) -> None:
        episode = await self.desk.episode(episode_id)
        if episode is None:
            await self.tell(interaction, f"Episode {episode_id} no longer exists.")
        elif action == "up":
            await self.vote(interaction, episode_id, 1, None)
        elif action == "down":
            await interaction.response.send_modal(ReasonModal(self, episode_id))
        elif action in ("regenerate", "retry"):
            key = f"discord:regenerate:{episode_id}"
            await self.on_note(interaction, episode.post_ref, key)
        elif action == "evidence":
            await self.tell(interaction, evidence_text(episode.evidence))
        elif action == "approve":
            answer = await self.desk.approve(self.voter(interaction), episode_id)
            await self.answer(interaction, episode_id, answer)
        elif action in ("submit", "submit_anyway"):
            # evaluating and revising take longer than an interaction's 3 s to answer
            await interaction.response.defer(ephemeral=True, thinking=True)
            answer = await self.desk.submit(
                self.voter(interaction), episode_id, anyway=action == "submit_anyway"
            )
            await self.answer(interaction, episode_id, answer)

    async def vote(
        self, interaction: Interaction, episode_id: int, vote: int, reason: str | None
    ) -> None:
        answer = await self.desk.vote(self.voter(interaction), episode_id, vote, reason)
        await self.answer(interaction, episode_id, answer)

    async def answer(self, interaction: Interaction, episode_id: int, answer: Answer) -> None:
        """The desk's answer, in Discord: the card shown again, or a message for the person."""
        deferred = interaction.response.is_done()
        if answer.refresh and (card := await self.desk.card(episode_id)) is not None:
            embed, view = card_embed(card), card_view(card)
            if deferred and interaction.message is not None:
                await interaction.message.edit(embed=embed, view=view)
            elif not answer.message:
                await interaction.response.edit_message(embed=embed, view=view)
        if answer.message:
            if deferred:
                await interaction.followup.send(answer.message[:2000], ephemeral=True)
            else:
                await self.tell(interaction, answer.message)

    async def tell(self, interaction: Interaction, text: str) -> None:
        await interaction.response.send_message(text[:2000], ephemeral=True)
