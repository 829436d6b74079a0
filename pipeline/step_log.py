"""What an episode tells as it runs: its steps, numbered and journaled, and its progress.

Steps done by a side task (the post's search while the claim is analysed) are held in that
task's context and recorded by the main one, after the step they ran beside, so the
trajectory reads in order. Progress is told only when it changed: each event may be a card
edit, a rate-limited API call.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from pipeline.ports import ModelReply
from pipeline.trajectory import Progress, ProgressListener, StepJournal, StepRecord, bounded

HeldStep = tuple[str, dict[str, Any], str, "ModelReply[Any] | None"]
_HELD_STEPS: ContextVar[list[HeldStep] | None] = ContextVar("held_steps", default=None)


def hold_steps() -> list[HeldStep]:
    """From now on, this task's steps are kept in the list returned (its context only)."""
    held: list[HeldStep] = []
    _HELD_STEPS.set(held)
    return held


class StepLog:
    def __init__(self, journal: StepJournal | None, progress: ProgressListener | None) -> None:
        self.journal = journal
        self.progress = progress
        self.index = 0
        self.last_progress: Progress | None = None

    async def record(
        self,
        phase: str,
        action: dict[str, Any],
        observation: str,
        reply: ModelReply[Any] | None = None,
    ) -> None:
        if (held := _HELD_STEPS.get()) is not None:  # a side task: recorded by the main one
            held.append((phase, action, observation, reply))
            return
        await self.record_steps([(phase, action, observation, reply)])

    async def record_steps(self, steps: list[HeldStep]) -> None:
        """Steps that happened together, numbered in order and journaled in one write."""
        records = []
        for phase, action, observation, reply in steps:
            step = StepRecord(
                index=self.index, phase=phase, action=action, observation=bounded(observation)
            )
            if reply is not None:
                step.model = reply.model
                step.prompt_tokens = reply.prompt_tokens
                step.completion_tokens = reply.completion_tokens
                step.latency_s = round(reply.latency_s, 4)
            self.index += 1
            records.append(step)
        if self.journal is not None:
            await self.journal.record(*records)

    async def tell(self, event: Progress) -> None:
        if self.progress is None or event == self.last_progress:
            return
        self.last_progress = event
        await self.progress(event)
