"""Doubles of what the scheduled jobs use (`scheduler/`): each records the calls it got, in
one shared list, so a test sees their order."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pipeline.desk.episode import Episode
from pipeline.desk.standing import WriterStanding
from pipeline.trajectory import ProgressListener


@dataclass
class Calls:
    made: list[str] = field(default_factory=list)


@dataclass
class RecordingEvolver:
    calls: Calls

    async def run_once(self) -> None:
        self.calls.made.append("evolve")


@dataclass
class RecordingMemory:
    calls: Calls

    async def retire_unused(self, actor: str) -> None:
        self.calls.made.append(f"retire by {actor}")

    async def persist(self) -> None:
        self.calls.made.append("persist")


@dataclass(frozen=True)
class Sent:
    message: str


@dataclass
class QueueOfNotes:
    calls: Calls
    outcomes: list[Sent]

    async def sync(self) -> int:
        self.calls.made.append("sync")
        return 0

    async def withdraw_failing(self) -> list[str]:
        self.calls.made.append("withdraw failing")
        return []

    async def send_queued(self) -> list[Sent]:
        self.calls.made.append("send queued")
        return self.outcomes


@dataclass
class StandingDesk:
    standing_now: WriterStanding | None
    outcome_now: str | None

    async def standing(self) -> WriterStanding | None:
        return self.standing_now

    async def live_outcome(self) -> str | None:
        return self.outcome_now


@dataclass
class FoundPosts:
    found: list[int]
    scans: int = 0

    async def run_once(self) -> list[int]:
        self.scans += 1
        return list(self.found)


@dataclass
class RecoveringNotes:
    asked: list[tuple[int, float, object, object]] = field(default_factory=list)

    async def recover(
        self,
        max_attempts: int,
        queued_for_s: float,
        progress_for: Callable[[Episode], ProgressListener | None] | None = None,
        finished: Callable[[Episode], Awaitable[None]] | None = None,
    ) -> list[int]:
        self.asked.append((max_attempts, queued_for_s, progress_for, finished))
        return []


class NoCards:
    def progress_for(self, row: Episode) -> ProgressListener | None:
        return None

    async def finished(self, row: Episode) -> None:
        return None
