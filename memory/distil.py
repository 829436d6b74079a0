"""The Memory Evolver's distillation: a judged episode becomes (trigger, strategy, phase) items.

The model proposes; code refuses lessons that carry URLs, @handles or instructions aimed at
the system itself — a post must not be able to plant a rule through the memory.
"""

from __future__ import annotations

import re

from memory.models import KIND_FOR_MODE, MemoryItem
from memory.ports import FinishedEpisode
from memory.prompts import DistilledLesson, DistilledLessons, JudgeVerdict, distil_messages
from pipeline.ports import ChatModel

_URL = re.compile(r"https?://|www\.|\b[\w-]+\.(com|org|gov|net|int|edu|io|ly)(/|\b)", re.IGNORECASE)
_HANDLE = re.compile(r"(^|[\s(])@\w{2,}")
_AIMED_AT_SYSTEM = re.compile(
    r"ignore (all|any|every|previous|prior|the above|your)|disregard|system prompt|"
    r"you are now|override|jailbreak|do not (follow|obey)|new instructions|"
    r"(always|never) (abstain|write|cite|approve|submit)\b.*\b(this|these) (account|user)|"
    r"developer mode|reveal (your|the) (prompt|instructions)",
    re.IGNORECASE,
)


def rejection_reason(lesson: DistilledLesson) -> str | None:
    text = f"{lesson.trigger}\n{lesson.strategy}\n{lesson.rationale}"
    if _URL.search(text):
        return "contains a URL or domain"
    if _HANDLE.search(text):
        return "contains an @handle"
    if _AIMED_AT_SYSTEM.search(text):
        return "reads as an instruction to the system"
    if len(lesson.trigger.split()) < 3 or len(lesson.strategy.split()) < 4:
        return "too short to be a reusable lesson"
    return None


class Distiller:
    def __init__(self, model: ChatModel, timeout_s: float = 60.0) -> None:
        self.model = model
        self.timeout_s = timeout_s

    async def distil(
        self, episode: FinishedEpisode, verdict: JudgeVerdict
    ) -> tuple[list[MemoryItem], list[str]]:
        """(items to add or merge, reasons for the lessons refused)."""
        reply = await self.model.structured(
            distil_messages(episode, verdict), DistilledLessons, timeout_s=self.timeout_s
        )
        kind = KIND_FOR_MODE[verdict.utility_mode]
        items: list[MemoryItem] = []
        refused: list[str] = []
        for lesson in reply.value.lessons:
            reason = rejection_reason(lesson)
            if reason is not None:
                refused.append(f"'{lesson.trigger[:60]}': {reason}")
                continue
            items.append(
                MemoryItem(
                    phase=lesson.phase,
                    trigger=lesson.trigger.strip(),
                    strategy=lesson.strategy.strip(),
                    rationale=lesson.rationale.strip(),
                    kind=kind,
                    source_episodes=[episode.id],
                    learned_from_post_at=episode.post_created_at,
                )
            )
        return items, refused
