"""Which buttons a card offers is decided once, for every platform."""

from __future__ import annotations

import pytest

from bot.discord.views import card_view
from bot.slack.blocks import card_blocks
from pipeline.card import CardAction, NoteCard
from pipeline.trajectory import EpisodeStatus

A = CardAction


@pytest.mark.parametrize(
    ("card", "actions"),
    [
        (NoteCard(episode_id=1, status=EpisodeStatus.RUNNING), []),
        (NoteCard(episode_id=1, status=EpisodeStatus.FAILED), [A.RETRY]),
        (
            NoteCard(episode_id=1, status=EpisodeStatus.ABSTAINED),
            [A.VOTE_UP, A.VOTE_DOWN, A.REGENERATE],
        ),
        (
            NoteCard(episode_id=1, status=EpisodeStatus.NOTED, note="n"),
            [A.VOTE_UP, A.VOTE_DOWN, A.REGENERATE, A.EVIDENCE, A.APPROVE],
        ),
        (
            NoteCard(
                episode_id=1, status=EpisodeStatus.NOTED, note="n", approved_by="U", can_submit=True
            ),
            [A.VOTE_UP, A.VOTE_DOWN, A.REGENERATE, A.EVIDENCE, A.SUBMIT],
        ),
    ],
)
def test_the_button_set_and_both_renderers_follow_it(
    card: NoteCard, actions: list[CardAction]
) -> None:
    assert card.actions() == actions
    blocks = card_blocks(card)
    buttons = [e["action_id"] for b in blocks if b["type"] == "actions" for e in b["elements"]]
    # the votes are Slack's feedback buttons, carrying their direction and the episode
    feedback = [
        (e[side]["value"])
        for b in blocks
        if b["type"] == "context_actions"
        for e in b["elements"]
        for side in ("positive_button", "negative_button")
    ]
    votes = [a for a in actions if a in (CardAction.VOTE_UP, CardAction.VOTE_DOWN)]
    assert feedback == (["up:1", "down:1"] if votes else [])
    assert len(buttons) == len(actions) - len(votes)
    discord_ids = [item.custom_id for item in card_view(card).children]  # type: ignore[attr-defined]
    assert discord_ids == [f"evonote:{a.value}:1" for a in actions]
