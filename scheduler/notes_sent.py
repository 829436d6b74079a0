"""The notes sent to a notes destination: their status read back (and those early ratings
condemn withdrawn), and those that waited for the writing limit sent once a slot opens."""

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


async def submit_queued(sender: NotesSender) -> None:
    # what waited for the writing limit goes as soon as a slot opens
    for outcome in await sender.send_queued():
        log.info("queued submission: %s", outcome.message)
