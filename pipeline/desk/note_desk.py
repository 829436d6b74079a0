"""An episode behind a card, from the request to its forecast: written once, for everyone.

The chat front ends (Slack, Discord), the workers, the recovery of orphaned episodes, the
watchlist and the CLI's `check` all run episodes through here: the request stored once, its
card shown at once, the episode run with the card's progress line edited as it goes, the note
shown, then its forecast as one more edit. A card that cannot be edited (the platform down,
the message deleted) is logged and never fails or stops the episode behind it: every edit goes
through `show`, the one place such a failure is caught. Where a card lives is the front end's
business (`CardView`, `CardPlacer`); what it says is the moderator desk's (`card_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from pipeline.card import NoteCard
from pipeline.desk.cards import card_for, unstored_card
from pipeline.desk.episode import Episode
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.notes import EpisodeFailed, NoteService
from pipeline.desk.previews import LinkPreviews
from pipeline.desk.spool import RequestSpool, SpoolReplay, queued_card, spool_request
from pipeline.errors import StorageUnavailable
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus, Progress, ProgressListener

log = logging.getLogger(__name__)


class CardView(Protocol):
    """A card a person is looking at; `force` skips the edit throttle (final states)."""

    async def show(self, card: NoteCard, force: bool = False) -> None: ...


class CardPlacer(Protocol):
    """How a platform shows an episode's first card: the view to edit afterwards, and the
    message id a worker in another process needs to edit it (None when it cannot)."""

    async def __call__(self, card: NoteCard) -> tuple[CardView, str | None]: ...


def progress_text(p: Progress) -> str:
    parts = {"analysing": "Analysing the claim…", "done": "Finishing…"}
    if p.phase in parts:
        return parts[p.phase]
    if p.phase == "queued":
        return f"Waiting in the queue ({p.detail})…"
    text = f"Searching {p.searches}/{p.max_searches} · Read {p.sources_read} sources"
    return text + (" · Writing…" if p.phase == "writing" else "")


# Without a spool (`serve` has one: see `pipeline.desk.spool`), a request that arrives while
# the database cannot take it is held, not lost: it is tried
# again (0.5 s, doubling to 8 s) for up to HOLD_S; past that, or with MAX_HELD requests already
# held, its card says it was not stored. A PostgreSQL restart takes 5-20 s; a full disk does
# not heal in a minute, and its card comes after the minute.
HOLD_S = 60.0
MAX_HELD = 100


class NoteDesk:
    def __init__(
        self,
        notes: NoteService,
        moderation: ModeratorDesk,
        *,
        hold_s: float = HOLD_S,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        spool: RequestSpool | None = None,
    ) -> None:
        self.notes = notes
        self.moderation = moderation
        self.previews = LinkPreviews(notes)  # a pasted link's preview, before any request
        self.hold_s = hold_s
        self.sleep = sleep
        self.held = 0  # requests waiting for the database now
        # `serve`'s: requests the database cannot take wait on disk instead of in memory
        self.spool = spool
        self.replay = (
            None if spool is None else SpoolReplay(spool, notes.enqueue_once, notes.asked_before)
        )

    async def asked_before(self, key: str) -> Episode | None:
        """The episode already asked for under this request key (a second paste or click)."""
        return await self.notes.asked_before(key)

    # ---- showing cards: the one place an edit may fail ---------------------------------

    @staticmethod
    async def show(view: CardView | None, card: NoteCard | None, force: bool = False) -> None:
        """Edit a card; a failed edit is logged and never reaches the episode."""
        if view is None or card is None:
            return
        try:
            await view.show(card, force)
        except Exception:
            log.exception("could not edit the card of episode %s", card.episode_id)

    def progress_on(self, view: CardView | None, running: NoteCard | None) -> ProgressListener:
        """Progress events as edits of the card's progress line. The card is read once, by
        the caller, and kept: an event changes only that line."""

        async def progress(event: Progress) -> None:
            if running is not None:
                card = running.model_copy(update={"progress": progress_text(event)})
                await self.show(view, card)

        return progress

    def progress_for_row(self, view: CardView | None, row: Episode) -> ProgressListener:
        """Like `progress_on`, from an episode in hand (a worker's claim): no read."""
        return self.progress_on(view, card_for(row))  # running: no buttons yet

    async def show_final(self, episode_id: int, view: CardView | None) -> None:
        """The episode's card as stored now (a note, an abstention, a failure), at once."""
        if view is not None:
            await self.show(view, await self.moderation.card(episode_id), force=True)

    async def forecast_then_show(self, row: Episode, view: CardView | None) -> Episode:
        """The persona forecast of a note, then its card once more (none: the card stays)."""
        forecasted = await self.notes.forecast(row)
        if forecasted.forecast is not None:
            await self.show_final(forecasted.id, view)
        return forecasted

    # ---- the use case ----------------------------------------------------------------------

    async def request(
        self,
        request: NoteRequest,
        place: CardPlacer,
        *,
        run: bool = True,
        answer_repeats: bool = False,
    ) -> None:
        """A person's request, on any platform: stored once (a retried event or a double click
        starts nothing), its card shown at once — the failure card when the input is refused or
        the database cannot take it — then run behind the card here (`run`), or left queued for
        a worker."""
        if self.replay is not None and await self.replay.spool.entries():
            await self.spooled(request, place)  # behind those that came before it
            return
        try:
            episode = await (
                self.notes.enqueue_once(request)  # a refusal goes to the spool at once
                if self.replay is not None
                else self.enqueue_held(request)
            )
        except EpisodeFailed as failed:
            await place(card_for(failed.episode))
            return
        except StorageUnavailable as e:  # never acknowledged and then silently dropped
            if not await self.spooled(request, place):
                await place(unstored_card(request.post_ref, str(e)))
            return
        if episode is not None:
            await self.attend(episode, place, run=run)
        elif answer_repeats and request.key:
            # Asked before (a second Regenerate): a platform whose every interaction must be
            # answered shows the episode already asked for; nothing runs twice.
            seen = await self.asked_before(request.key)
            if seen is not None:
                await place(await self.moderation.card_of(seen))

    async def spooled(self, request: NoteRequest, place: CardPlacer) -> bool:
        """The request kept in the spool and its card saying so; False when there is no
        spool or its disk refuses (then the card says it was not stored)."""
        if self.replay is None:
            return False
        seq = self.replay.spool.next_seq()
        self.replay.placing.add(seq)  # before it is on disk: the replay waits for its card
        try:
            entry = await spool_request(self.replay.spool, request, seq)
        except OSError as e:
            self.replay.placing.discard(seq)
            log.warning("request not spooled (%s): its card says it was not stored", e)
            return False
        try:
            _, message_id = await place(queued_card(request.post_ref))
            if message_id is not None:  # the card a replay after a restart edits
                await self.replay.spool.put(entry.model_copy(update={"card": message_id}))
        except OSError as e:
            log.warning("spooled request %s: its card's address not kept (%s)", entry.seq, e)
        finally:
            self.replay.placing.discard(entry.seq)
            self.replay.spooled.set()
        return True

    def replaying(
        self, view_for: Callable[[Episode], CardView | None], *, run: bool
    ) -> SpoolReplay | None:
        """The replay of the spool, each stored request attended behind its card (`view_for`
        finds it from the episode's reply address): run here (`run`), else shown queued for a
        worker. None without a spool."""
        if self.replay is None:
            return None

        async def attend(episode: Episode) -> None:
            view = view_for(episode)
            if run and episode.status == EpisodeStatus.QUEUED:
                await self.run_behind(episode.id, view)
            else:
                await self.show_final(episode.id, view)

        self.replay.attend = attend
        return self.replay

    async def enqueue_held(self, request: NoteRequest) -> Episode | None:
        """`enqueue_once`, tried again while the database cannot take it, for up to `hold_s`
        and while fewer than `MAX_HELD` requests wait (then its `StorageUnavailable`)."""
        waited, delay = 0.0, 0.5
        while True:
            try:
                return await self.notes.enqueue_once(request)
            except StorageUnavailable:
                if waited + delay > self.hold_s or self.held >= MAX_HELD:
                    raise
            self.held += 1
            try:
                await self.sleep(delay)
            finally:
                self.held -= 1
            waited, delay = waited + delay, min(delay * 2, 8.0)

    async def attend(self, episode: Episode, place: CardPlacer, *, run: bool = True) -> None:
        """Show a queued episode's card, remember where it is, and run it behind the card."""
        view, message_id = await place(await self.moderation.card_of(episode))
        if message_id is not None:
            await self.notes.card_placed(episode.id, message_id)
        if run:
            await self.run_behind(episode.id, view)

    async def run_behind(self, episode_id: int, view: CardView | None) -> Episode | None:
        """Run a queued episode behind its card (None: no card, as for a watched post): the
        progress as edits, the card at the end, then its forecast. None when it failed (the
        card says why, with Retry)."""
        running = await self.moderation.card(episode_id) if view is not None else None
        finished = None
        with contextlib.suppress(EpisodeFailed):
            finished = await self.notes.run(episode_id, self.progress_on(view, running))
        await self.show_final(episode_id, view)  # the note, at once
        if finished is None:
            return None
        return await self.forecast_then_show(finished, view)  # then its forecast, as an edit

    async def finish_recovered(self, row: Episode, view: CardView | None) -> None:
        """An episode a restart interrupted, run again: its card (that showed "Checking…"
        before the restart) gets the note, then the forecast."""
        await self.show_final(row.id, view)
        await self.forecast_then_show(row, view)

    async def check(
        self, request: NoteRequest, progress: ProgressListener | None = None
    ) -> Episode:
        """The CLI's `check`: stored, run and forecast here, with no card (the CLI prints the
        result); a failure raises `EpisodeFailed`."""
        row = await self.notes.enqueue(request)
        return await self.notes.forecast(await self.notes.run(row.id, progress))
