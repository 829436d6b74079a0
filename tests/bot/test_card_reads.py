"""What one request's cards cost the store (#46: a request read ~19 times to draw its card 4
times): a queued or running card reads nothing, a finished one its facts in one call."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from bot.app import build
from bot.settings import Settings
from pipeline.card import NoteCard
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus
from tests.fakes.model_server import ScriptedModelServer

# the reads a card's facts are made of: votes, what was sent, queued, evaluated
FACT_READS = {
    EpisodeStore: ("votes",),
    SubmissionStore: (
        "card_records",
        "for_episode",
        "for_post",
        "queued_for",
        "evaluations",
    ),
}


def counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    calls: Counter[str] = Counter()
    for store, names in FACT_READS.items():
        for name in names:
            original = getattr(store, name)

            async def counted(self: Any, *args: Any, _o: Any = original, _n: str = name) -> Any:
                calls[_n] += 1
                return await _o(self, *args)

            monkeypatch.setattr(store, name, counted)
    return calls


class Cards:
    def __init__(self) -> None:
        self.shown: list[NoteCard] = []

    async def show(self, card: NoteCard, force: bool = False) -> None:
        self.shown.append(card)


@pytest.mark.parametrize("submitting", [False, True], ids=["no-destination", "x-test-mode"])
async def test_one_request_reads_its_cards_facts_at_most_twice(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch, submitting: bool
) -> None:
    if submitting:
        for key in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
            monkeypatch.setenv(f"EVONOTE_X__{key}", "fake")
    calls = counting(monkeypatch)
    view = Cards()

    async def place(card: NoteCard) -> tuple[Cards, str | None]:
        await view.show(card, force=True)
        return view, None

    async with build(Settings()) as app:
        assert (app.desk.submitter is not None) == submitting
        await app.cards.request(NoteRequest(post_ref="The MMR vaccine causes autism."), place)
    statuses = [card.status for card in view.shown]
    assert statuses[0] == EpisodeStatus.QUEUED and statuses[-1] == EpisodeStatus.NOTED
    # the note's card, then its forecast's: one read each, whatever the destinations
    assert sum(calls.values()) <= 2, calls
    assert set(calls) == ({"card_records"} if submitting else {"votes"})
