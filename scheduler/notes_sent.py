"""The notes sent to a notes destination: their status read back (and those early ratings
condemn withdrawn), those that waited for the writing limit sent once a slot opens, and those
looked at again 1 h and 3 h after they went out (revised only when that adds evidence)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

log = logging.getLogger(__name__)


class SentOutcome(Protocol):
    @property
    def message(self) -> str: ...


class NotesSender(Protocol):
    """The submission desk (`pipeline.desk.submission.SubmissionDesk`)."""

    async def sync(self) -> int: ...

    async def send_queued(self) -> Sequence[SentOutcome]: ...

    async def withdraw_failing(self) -> list[str]: ...


async def sync_note_status(sender: NotesSender) -> None:
    await sender.sync()
    # then the notes whose early ratings predict Not Helpful go, by X's writer's rules
    for line in await sender.withdraw_failing():
        log.warning("%s", line)


class NotesReviser(Protocol):
    """The late revisions (`pipeline.desk.late_revisions.LateRevisions`)."""

    async def run(self) -> list[str]: ...


async def revise_sent_notes(reviser: NotesReviser) -> None:
    # each revision sent, dropped (with its reason), failed or waiting, in one line
    for line in await reviser.run():
        log.info("%s", line)


async def submit_queued(sender: NotesSender) -> None:
    # what waited for the writing limit goes as soon as a slot opens
    for outcome in await sender.send_queued():
        log.info("queued submission: %s", outcome.message)
