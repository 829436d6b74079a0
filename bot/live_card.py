"""Running an episode behind a card that chat front ends edit as it goes (Slack, Discord)."""

from __future__ import annotations

import contextlib
import logging
from typing import Protocol

from pipeline.card import NoteCard
from pipeline.desk.cards import card_for, unstored_card
from pipeline.desk.episode import Episode
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.notes import EpisodeFailed, NoteService
from pipeline.errors import StorageUnavailable
from pipeline.request import NoteRequest
from pipeline.trajectory import Progress

log = logging.getLogger(__name__)


class CardView(Protocol):
    """A card a person is looking at; `force` skips the edit throttle (final states)."""

    async def show(self, card: NoteCard, force: bool = False) -> None: ...


async def show_safely(view: CardView, card: NoteCard, force: bool = False) -> None:
    """Edit a card; a failed edit (the chat platform down, the message deleted) is logged and
    never fails or stops the episode behind it. Every card edit after the first goes here."""
    try:
        await view.show(card, force)
    except Exception:
        log.exception("could not edit the card of episode %s", card.episode_id)


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


class LiveCards:
    """The one request-behind-a-card flow of every chat front end."""

    def __init__(self, notes: NoteService, desk: ModeratorDesk, run_episodes: bool) -> None:
        self.notes = notes
        self.desk = desk
        self.run_episodes = run_episodes  # False where workers in other processes run them

    async def request(
        self, request: NoteRequest, place: CardPlacer, *, answer_repeats: bool = False
    ) -> None:
        """A person's request, on any platform: stored once (a retried event or a double click
        starts nothing), its card shown at once — the failure card when the input is refused or
        the database cannot take it — then run behind the card here, or left queued for a
        worker."""
        try:
            episode = await self.notes.submit_once(request)
        except EpisodeFailed as failed:
            await place(card_for(failed.episode))
            return
        except StorageUnavailable as e:  # never acknowledged and then silently dropped
            await place(unstored_card(request.post_ref, str(e)))
            return
        if episode is not None:
            await self.attend(episode, place)
        elif answer_repeats and request.key:
            # Asked before (a second Regenerate): a platform whose every interaction must be
            # answered shows the episode already asked for; nothing runs twice.
            seen = await self.notes.asked_before(request.key)
            if seen is not None:
                await place(await self.desk.card_of(seen))

    async def attend(self, episode: Episode, place: CardPlacer) -> None:
        """Show a queued episode's card, remember where it is, and run it behind the card."""
        view, message_id = await place(await self.desk.card_of(episode))
        if message_id is not None:
            await self.notes.card_placed(episode.id, message_id)
        if self.run_episodes:
            await self.run(episode.id, view)

    async def run(self, episode_id: int, view: CardView) -> None:
        """Run a queued episode, editing the card at each phase and once more at the end. The
        card is read once and kept here: a progress event changes only its progress line."""
        running = await self.desk.card(episode_id)

        async def progress(event: Progress) -> None:
            if running is not None:
                await show_safely(
                    view, running.model_copy(update={"progress": progress_text(event)})
                )

        finished = None
        with contextlib.suppress(EpisodeFailed):  # the card shows a failure, with Retry
            finished = await self.notes.run(episode_id, progress)
        card = await self.desk.card(episode_id)
        if card is not None:
            await show_safely(view, card, force=True)  # the note, at once
        if finished is not None and (await self.notes.forecast(finished)).forecast:
            card = await self.desk.card(episode_id)
            if card is not None:
                await show_safely(view, card, force=True)  # then its forecast, as an edit
