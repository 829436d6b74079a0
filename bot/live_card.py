"""Running an episode behind a card that chat front ends edit as it goes (Slack, Discord)."""

from __future__ import annotations

import contextlib
from typing import Protocol

from bot.cards import card_for, load_card
from bot.submit import NoteSubmitter
from pipeline.card import NoteCard
from pipeline.desk.episode import Episode
from pipeline.desk.notes import EpisodeFailed, NoteService
from pipeline.desk.ports import EpisodeRepository
from pipeline.request import NoteRequest
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


class CardPlacer(Protocol):
    """How a platform shows an episode's first card: the view to edit afterwards, and the
    message id a worker in another process needs to edit it (None when it cannot)."""

    async def __call__(self, card: NoteCard) -> tuple[CardView, str | None]: ...


async def request_behind_card(
    notes: NoteService,
    store: EpisodeRepository,
    request: NoteRequest,
    place: CardPlacer,
    *,
    submitter: NoteSubmitter | None,
    run_episodes: bool,
) -> None:
    """A person's request, on any platform: stored once (a retried event or a double click
    starts nothing), its card shown at once — the failure card when the input is refused —
    then run behind the card here, or left queued for a worker."""
    try:
        episode = await notes.submit_once(request)
    except EpisodeFailed as failed:
        await place(card_for(failed.episode))
        return
    if episode is not None:
        await attend(notes, store, episode, place, submitter=submitter, run_episodes=run_episodes)


async def attend(
    notes: NoteService,
    store: EpisodeRepository,
    episode: Episode,
    place: CardPlacer,
    *,
    submitter: NoteSubmitter | None,
    run_episodes: bool,
) -> None:
    """Show a queued episode's card, remember where it is, and run it behind the card."""
    view, message_id = await place(card_for(episode, submitting=submitter is not None))
    if message_id is not None:  # where a worker in another process edits the card
        await store.set_reply_message(episode.id, message_id)
    if run_episodes:
        await run_behind_card(notes, store, episode.id, view, submitter)


async def run_behind_card(
    notes: NoteService,
    store: EpisodeRepository,
    episode_id: int,
    view: CardView,
    submitter: NoteSubmitter | None,
) -> None:
    """Run a queued episode, editing the card at each phase and once more at the end. The
    card is read once and kept here: a progress event changes only its progress line."""
    running = await load_card(store, episode_id, submitter=submitter)

    async def progress(event: Progress) -> None:
        if running is not None:
            await view.show(running.model_copy(update={"progress": progress_text(event)}))

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
