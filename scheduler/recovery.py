"""Episodes nobody runs any more (their front end or worker is gone), run again behind their
cards; each restart runs the job at once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from pipeline.desk.episode import Episode
from pipeline.trajectory import ProgressListener

# Episodes queued for two minutes are nobody's: their front end or worker is gone.
ORPHANED_AFTER_S = 120


class Recovering(Protocol):
    """The note service (`pipeline.desk.notes.NoteService`)."""

    async def recover(
        self,
        max_attempts: int,
        queued_for_s: float,
        progress_for: Callable[[Episode], ProgressListener | None] | None = None,
        finished: Callable[[Episode], Awaitable[None]] | None = None,
    ) -> object: ...


class EpisodeCards(Protocol):
    """Each episode's card, where it was asked (`bot.worker.CardViews`)."""

    def progress_for(self, row: Episode) -> ProgressListener | None: ...

    async def finished(self, row: Episode) -> None: ...


async def recover_episodes(notes: Recovering, cards: EpisodeCards, max_attempts: int) -> None:
    await notes.recover(
        max_attempts,
        queued_for_s=ORPHANED_AFTER_S,
        progress_for=cards.progress_for,
        finished=cards.finished,
    )
