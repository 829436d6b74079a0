"""A card that cannot be edited never fails the episode behind it (the chat platform down
mid-episode, a deleted message): the episode ends as it would have, the failure is logged."""

from __future__ import annotations

import logging

import discord
import pytest
from slack_sdk.errors import SlackClientError

from bot.app import build
from bot.settings import Settings
from pipeline.card import NoteCard
from pipeline.desk.note_desk import NoteDesk
from pipeline.request import NoteRequest
from tests.fakes.model_server import ScriptedModelServer


class BrokenView:
    """Shows the first card, then every edit raises as the platform's client does."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.shown: list[NoteCard] = []

    async def show(self, card: NoteCard, force: bool = False) -> None:
        if self.shown:
            raise self.error
        self.shown.append(card)


@pytest.mark.parametrize(
    "error",
    [
        SlackClientError("Slack is unreachable"),
        discord.HTTPException(
            type("Response", (), {"status": 404, "reason": "Not Found"})(), "Unknown Message"
        ),
    ],
    ids=["slack", "discord"],
)
async def test_a_card_edit_that_raises_leaves_the_episode_noted(
    app_env: ScriptedModelServer, error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    view = BrokenView(error)

    async def place(card: NoteCard) -> tuple[BrokenView, str | None]:
        await view.show(card, force=True)
        return view, None

    async with build(Settings()) as app:
        cards = NoteDesk(app.notes, app.desk)
        with caplog.at_level(logging.ERROR, logger="pipeline.desk.note_desk"):
            await cards.request(NoteRequest(post_ref="The MMR vaccine causes autism."), place)
        [episode] = await app.store.recent(1)
    assert episode.status == "noted", episode.failure_reason
    assert len(view.shown) == 1  # the first card; every later edit failed
    assert any("could not edit the card of episode" in r.message for r in caplog.records)
