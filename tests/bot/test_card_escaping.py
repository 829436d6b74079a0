"""Untrusted text on cards stays text: post, pages, the model's gaps and reasons cannot ping a
channel, mask a link or close one of ours, on Slack (mrkdwn) and Discord (markdown)."""

from __future__ import annotations

import json
import re

import pytest

from bot.discord.embeds import card_embed, evidence_text
from bot.slack.blocks import card_blocks
from pipeline.card import NoteCard
from pipeline.evidence import Evidence
from pipeline.trajectory import EpisodeStatus
from tests.fakes.cards import hostile_card


def slack_texts(card: NoteCard) -> list[str]:
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "mrkdwn":
                found.append(str(node["text"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(card_blocks(card))
    return found


@pytest.mark.parametrize(
    "status",
    [EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED, EpisodeStatus.FAILED, EpisodeStatus.RUNNING],
)
def test_slack_cards_show_hostile_text_as_text(status: str) -> None:
    text = "\n".join(slack_texts(hostile_card(status)))
    assert "<!channel>" not in text and "&lt;!channel&gt;" in text
    assert "<https://evil.example" not in text  # no masked link of the attacker's
    # the only links are ours: <url|title>, with the page's URL unable to end it early
    links = re.findall(r"<([^<>]*)>", text)
    for link in links:
        assert link.startswith("https://a.org/x?q=1&amp;r=2%7C%3Chttps://evil.example%3E|"), link
    if status == EpisodeStatus.NOTED:
        assert "(p&lt;0.05) show no link &amp; no harm" in text


@pytest.mark.parametrize(
    "status",
    [EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED, EpisodeStatus.FAILED, EpisodeStatus.RUNNING],
)
def test_discord_embeds_show_hostile_text_as_text(status: str) -> None:
    embed = json.dumps(card_embed(hostile_card(status)).to_dict(), ensure_ascii=False)
    assert "[the CDC's statement](https://evil.example/phish)" not in embed.replace("\\\\[", "")
    assert "\\\\[the CDC's statement](https://evil.example/phish)" in embed
    assert "@everyone" not in embed and "**now**" not in embed


def test_discord_evidence_escapes_page_text() -> None:
    page = Evidence(
        url="https://a.org/(x)",
        title="**Title** @everyone",
        excerpt="e",
        quotes=["[click](https://evil.example)"],
    )
    text = evidence_text([page])
    assert "<https://a.org/%28x%29>" in text
    assert "**Title**" not in text and "@everyone" not in text
    assert "\\[click](https://evil.example)" in text
