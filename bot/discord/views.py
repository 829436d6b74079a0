"""Discord's pieces of a card: its buttons (they survive restarts: the custom id carries the
episode), the reason modal, and the two ways a card is edited (through the interaction while
its token lives, then through the message itself)."""

from __future__ import annotations

import logging
import re
import time
from typing import Any, Protocol

import discord

from bot.discord.embeds import card_embed
from bot.throttle import EditThrottle
from memory.curation import LessonBoard, actions_for, provenance
from pipeline.card import CardAction, NoteCard

Interaction = discord.Interaction[Any]


class LessonActs(Protocol):
    async def act(
        self, interaction: discord.Interaction[Any], action: str, lesson: int
    ) -> None: ...


class DraftLinks(Protocol):
    async def on_draft_link(self, interaction: discord.Interaction[Any]) -> None: ...


class ButtonHandlers(Protocol):
    """What the buttons call, across restarts: the front end the client carries
    (`client.evonote`, `bot/discord/frontend.py`)."""

    @property
    def lessons(self) -> LessonActs: ...

    @property
    def triggers(self) -> DraftLinks: ...

    async def on_button(
        self, interaction: discord.Interaction[Any], action: str, episode_id: int
    ) -> None: ...

    async def vote(
        self, interaction: discord.Interaction[Any], episode_id: int, vote: int, reason: str | None
    ) -> None: ...


log = logging.getLogger(__name__)
TOKEN_LIFETIME_S = 14 * 60  # Discord's is 15 minutes; leave a margin
BUTTONS = {  # CardAction value: (label, style)
    CardAction.VOTE_UP.value: ("👍", discord.ButtonStyle.secondary),
    CardAction.VOTE_DOWN.value: ("👎", discord.ButtonStyle.secondary),
    CardAction.REGENERATE.value: ("Regenerate", discord.ButtonStyle.secondary),
    CardAction.EVIDENCE.value: ("Show evidence", discord.ButtonStyle.secondary),
    CardAction.APPROVE.value: ("Approve", discord.ButtonStyle.success),
    CardAction.RETRY.value: ("Retry", discord.ButtonStyle.primary),
    CardAction.SUBMIT.value: ("Submit to X", discord.ButtonStyle.danger),
    CardAction.SUBMIT_ANYWAY.value: ("Submit anyway", discord.ButtonStyle.danger),
}


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # An allowlist: only our actions and an id the database can hold; a custom id outside it
    # is never dispatched here.
    template=rf"evonote:(?P<action>{'|'.join(BUTTONS)}):(?P<episode>[1-9][0-9]{{0,17}})",
):
    """A card button whose custom id carries the episode, so it survives restarts."""

    def __init__(self, action: str, episode: int, label: str | None = None) -> None:
        default, style = BUTTONS[action]
        label = label or default
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"evonote:{action}:{episode}")
        )
        self.action = action
        self.episode = episode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardButton:
        return cls(match["action"], int(match["episode"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        frontend: ButtonHandlers = interaction.client.evonote
        await frontend.on_button(interaction, self.action, self.episode)


class DraftLinkButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"evonote:draft-link"
):
    """Draft a note, under a post link's preview: the post is the preview's own link."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                label="Draft a note",
                style=discord.ButtonStyle.primary,
                custom_id="evonote:draft-link",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DraftLinkButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        frontend: ButtonHandlers = interaction.client.evonote
        await frontend.triggers.on_draft_link(interaction)


def draft_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftLinkButton())
    return view


def card_view(card: NoteCard) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in card.actions():
        label = card.label_of(action, BUTTONS[action.value][0])
        view.add_item(CardButton(action.value, card.episode_id, label))
    return view


class ReasonModal(discord.ui.Modal, title="Why is this note not helpful?"):
    reason: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="What is wrong with it?", style=discord.TextStyle.paragraph, max_length=1000
    )

    def __init__(self, frontend: ButtonHandlers, episode: int) -> None:
        super().__init__(timeout=600)
        self.frontend = frontend
        self.episode = episode

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.frontend.vote(interaction, self.episode, -1, str(self.reason.value) or None)


class InteractionEditor:
    """Edits the interaction's response while its token lives, then the message itself."""

    def __init__(self, interaction: discord.Interaction[Any], interval_s: float) -> None:
        self.interaction = interaction
        self.started = time.monotonic()
        self.throttle = EditThrottle(interval_s)
        self.message: discord.InteractionMessage | None = None

    async def show(self, card: NoteCard, force: bool = False) -> None:
        if not self.throttle.ready(force):
            return
        embed, view = card_embed(card), card_view(card)
        try:
            if time.monotonic() - self.started < TOKEN_LIFETIME_S:
                self.message = await self.interaction.edit_original_response(embed=embed, view=view)
            elif self.message is not None:
                await self.message.edit(embed=embed, view=view)
        except discord.HTTPException as e:
            log.warning("discord edit failed: %s", e)


class MessageEditor:
    def __init__(self, message: discord.Message, interval_s: float) -> None:
        self.message = message
        self.throttle = EditThrottle(interval_s)

    async def show(self, card: NoteCard, force: bool = False) -> None:
        if self.throttle.ready(force):
            await self.message.edit(embed=card_embed(card), view=card_view(card))


class LessonButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"evonote:lesson:(?P<action>approve|retire|restore):(?P<lesson>[1-9][0-9]{0,17})",
):
    """Approve / Retire / Restore on the /lessons board; survives restarts like card buttons."""

    def __init__(self, action: str, lesson: int) -> None:
        style = discord.ButtonStyle.danger if action == "retire" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=f"{action.title()} {lesson}",
                style=style,
                custom_id=f"evonote:lesson:{action}:{lesson}",
            )
        )
        self.action = action
        self.lesson = lesson

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LessonButton:
        return cls(match["action"], int(match["lesson"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        frontend: ButtonHandlers = interaction.client.evonote
        await frontend.lessons.act(interaction, self.action, self.lesson)


MAX_BUTTONS = 25  # Discord's limit on one message's components


def lessons_embed(board: LessonBoard) -> discord.Embed:
    embed = discord.Embed(
        title=f"EvoNote's lessons this week (since {board.since:%Y-%m-%d})",
        description="Advice for later episodes, never evidence.",
        colour=0x1565C0,
    )
    for title, items in board.sections():
        lines = [
            f"**{item.id}** when {item.trigger} → {item.strategy}\n-# {provenance(item)}"
            + "".join(f"\n-# raters on X: {said}" for said in board.crowd.get(item.id or 0, []))
            for item in items
        ]
        embed.add_field(name=title, value=("\n".join(lines) or "none")[:1024], inline=False)
    return embed


def lessons_view(board: LessonBoard, moderator: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if not moderator:
        return view
    seen: set[int] = set()
    for _, items in board.sections():
        for item in items:
            if item.id is None or item.id in seen:
                continue
            seen.add(item.id)
            for action in actions_for(item):
                if len(view.children) < MAX_BUTTONS:
                    view.add_item(LessonButton(action.value, item.id))
    return view
