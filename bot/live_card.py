"""Running an episode behind a card that chat front ends edit as it goes (Slack, Discord)."""

from __future__ import annotations

import contextlib
from typing import Protocol

from bot.cards import load_card
from bot.service import EpisodeFailed, NoteService
from bot.submit import NoteSubmitter
from pipeline.card import NoteCard
from pipeline.desk.ports import EpisodeRepository
from pipeline.trajectory import Progress


class CardView(Protocol):
    """A card a person is looking at; `force` skips the edit throttle (final states)."""

    async def show(self, card: NoteCard, force: bool = False) -> None: ...


def progress_text(p: Progress) -> str:
    parts = {"analysing": "Analysing the claim…", "done": "Finishing…"}
    if p.phase in parts:
        return parts[p.phase]
    if p.phase == "queued":
        return f"Waiting in the queue ({p.detail})…"
    text = f"Searching {p.searches}/{p.max_searches} · Read {p.sources_read} sources"
    return text + (" · Writing…" if p.phase == "writing" else "")


async def run_behind_card(
    notes: NoteService,
    store: EpisodeRepository,
    episode_id: int,
    view: CardView,
    submitter: NoteSubmitter | None,
) -> None:
    """Run a queued episode, editing the card at each phase and once more at the end."""

    async def progress(event: Progress) -> None:
        card = await load_card(
            store, episode_id, submitter=submitter, progress=progress_text(event)
        )
        if card is not None:
            await view.show(card)

    finished = None
    with contextlib.suppress(EpisodeFailed):  # the card shows a failure, with Retry
        finished = await notes.run(episode_id, progress)
    card = await load_card(store, episode_id, submitter=submitter)
    if card is not None:
        await view.show(card, force=True)  # the note, at once
    if finished is not None and (await notes.forecast(finished)).forecast:
        card = await load_card(store, episode_id, submitter=submitter)
        if card is not None:
            await view.show(card, force=True)  # then its rater forecast, as an edit
