"""/lessons: this week's lessons, only for the person asking, with buttons for moderators."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import discord

from bot.discord.views import lessons_embed, lessons_view
from memory.curation import LessonAction, LessonDesk
from pipeline.desk.moderation import Voter

MEMORY_OFF = "The experience memory is off (EVONOTE_MEMORY__MODE)."


class LessonsBoard:
    def __init__(
        self, lessons: LessonDesk | None, voter: Callable[[discord.Interaction[Any]], Voter]
    ) -> None:
        self.lessons = lessons
        self.voter = voter

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        if self.lessons is None:
            await interaction.response.send_message(MEMORY_OFF, ephemeral=True)
            return
        board = await self.lessons.board(datetime.now(UTC))
        moderator = self.voter(interaction).is_moderator
        await interaction.response.send_message(
            embed=lessons_embed(board), view=lessons_view(board, moderator), ephemeral=True
        )

    async def act(self, interaction: discord.Interaction[Any], action: str, lesson: int) -> None:
        """Approve / Retire / Restore: the lesson desk decides, for moderators only."""
        if self.lessons is None:
            await interaction.response.send_message(MEMORY_OFF, ephemeral=True)
            return
        answer = await self.lessons.act(self.voter(interaction), lesson, LessonAction(action))
        if answer.message:
            await interaction.response.send_message(answer.message, ephemeral=True)
            return
        board = await self.lessons.board(datetime.now(UTC))
        await interaction.response.edit_message(
            embed=lessons_embed(board), view=lessons_view(board, True)
        )
