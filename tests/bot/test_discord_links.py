"""Post links in Discord's link channels: recorded stand-ins for messages and the button's
interaction; the post's embed answered by respx; the episode behind them is real."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import respx

from adapters.x.oembed import OEMBED_URL
from bot.app import App
from bot.discord.frontend import DiscordFrontend
from tests.fakes.discord_interactions import Interaction
from tests.fakes.x_links import EMBED, GONE_ID, LINK


@pytest.fixture
def x_embed() -> Iterator[None]:
    with respx.mock(assert_all_called=False) as web:
        web.get(OEMBED_URL, params={"url": f"https://x.com/i/status/{GONE_ID}"}).respond(404)
        web.get(OEMBED_URL).respond(200, json=EMBED)
        web.route(host="127.0.0.1").pass_through()
        yield


class Message:
    """What `on_posted` uses of discord.Message, recording every reply."""

    def __init__(self, content: str, channel: int = 20, bot: bool = False) -> None:
        self.content = content
        self.channel = SimpleNamespace(id=channel)
        self.guild = SimpleNamespace(id=10)
        self.author = SimpleNamespace(id=5, bot=bot)
        self.replies: list[dict[str, Any]] = []

    async def reply(self, **kwargs: Any) -> Any:
        sent = SimpleNamespace(id=900 + len(self.replies), edits=[], **kwargs)

        async def edit(**changes: Any) -> None:
            sent.edits.append(changes)

        sent.edit = edit
        self.replies.append(kwargs)
        return sent


@pytest.fixture
async def linked(app: App, x_embed: None) -> AsyncIterator[DiscordFrontend]:
    settings = app.settings.discord.model_copy(update={"link_channels": "20"})
    frontend = DiscordFrontend(app.cards, settings)
    yield frontend
    await frontend.background.drain()


def test_the_message_content_intent_is_asked_for_only_with_link_channels(app: App) -> None:
    assert DiscordFrontend(app.cards, app.settings.discord).client.intents.message_content is False
    settings = app.settings.discord.model_copy(update={"link_channels": "20"})
    assert DiscordFrontend(app.cards, settings).client.intents.message_content is True


async def test_a_post_link_gets_a_preview_and_one_draft_per_post(linked: DiscordFrontend) -> None:
    message = Message(f"look at this {LINK} and https://www.cdc.gov/vaccines")
    await linked.triggers.on_posted(message)  # type: ignore[arg-type]
    [preview] = message.replies  # the CDC page is no post
    embed = preview["embed"]
    assert embed.url == LINK and embed.title == "Post by drexample"
    assert (
        embed.description == "“The measles vaccine causes autism <\\!channel>”"
        or "channel" in embed.description
    )
    assert [i.custom_id for i in preview["view"].children] == ["evonote:draft-link"]
    assert await linked.desk.book.recent() == []
    # the button, twice (and the second time spelt another way): one episode
    for _ in range(2):
        click = Interaction(linked.client)
        click.message = SimpleNamespace(embeds=[embed])  # type: ignore[attr-defined]
        await linked.triggers.on_draft_link(click)  # type: ignore[arg-type]
        await linked.background.drain()
    [episode] = await linked.desk.book.recent()
    assert episode.status == "noted" and episode.post_ref == LINK
    assert "already asked for in this channel" in click.response.calls[-1][1]["content"]
    # pasted again: the preview is the note, without a button
    again = Message("https://twitter.com/drexample/status/1890?s=20")
    await linked.triggers.on_posted(again)  # type: ignore[arg-type]
    assert "a note is drafted for this post" in again.replies[0]["embed"].description
    assert "view" not in again.replies[0]


@pytest.mark.parametrize(
    "message",
    [Message(LINK, bot=True), Message(LINK, channel=21), Message("no link here")],
    ids=["from-a-bot", "channel-not-listed", "no-link"],
)
async def test_messages_not_for_the_bot_get_no_reply(
    linked: DiscordFrontend, message: Message
) -> None:
    await linked.triggers.on_posted(message)  # type: ignore[arg-type]
    assert message.replies == []
    assert await linked.desk.book.recent() == []


async def test_a_post_that_cannot_be_read_says_why(linked: DiscordFrontend) -> None:
    message = Message(f"https://x.com/someone/status/{GONE_ID}")
    await linked.triggers.on_posted(message)  # type: ignore[arg-type]
    [reply] = message.replies
    assert reply["embed"].title == "EvoNote cannot read this post" and "view" not in reply
    assert "does not exist on X" in reply["embed"].description


async def test_with_auto_draft_the_draft_starts_at_once(app: App, x_embed: None) -> None:
    settings = app.settings.discord.model_copy(update={"link_channels": "20", "auto_draft": True})
    frontend = DiscordFrontend(app.cards, settings)
    message = Message(LINK)
    await frontend.triggers.on_posted(message)  # type: ignore[arg-type]
    await frontend.background.drain()
    [episode] = await frontend.desk.book.recent()
    assert episode.status == "noted"
    assert message.replies[0]["embed"].footer.text.endswith("Drafting a note…")
