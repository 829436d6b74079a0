"""Lessons entering a memory from outside it — `evonote memory import`, or a benchmark that
starts from a memory learned on an earlier stream. Every one passes the same filter as a
distilled lesson (an exported file is text anyone could have edited)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memory.distil import normalised, rejection_reason
from memory.experience import ExperienceMemory
from memory.models import LessonKind, MemoryItem
from memory.prompts import (
    RATIONALE_MAX_CHARS,
    STRATEGY_MAX_CHARS,
    TRIGGER_MAX_CHARS,
    DistilledLesson,
)
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.ports import MemoryPhase


@dataclass
class ImportReport:
    added: int = 0
    merged: int = 0
    refused: list[str] = field(default_factory=list)  # "line N: why"


class LessonLine(BaseModel):
    """One line of `evonote memory export`, validated (the table model itself is not: SQLModel
    skips validation for tables). The other columns of an export are ignored on import."""

    model_config = ConfigDict(extra="ignore")

    phase: MemoryPhase
    # a distilled lesson's bounds: a longer one is no lesson (it was a traceback)
    trigger: str = Field(min_length=1, max_length=TRIGGER_MAX_CHARS)
    strategy: str = Field(min_length=1, max_length=STRATEGY_MAX_CHARS)
    rationale: str = Field(default="", max_length=RATIONALE_MAX_CHARS)
    kind: LessonKind
    source_episodes: list[int] = Field(default_factory=list)
    learned_from_post_at: datetime | None = None
    support: int = Field(default=1, ge=1)
    requesters: list[str] = Field(default_factory=list)


def read_jsonl(text: str) -> list[MemoryItem]:
    """`evonote memory export`'s lines; a ValueError names each bad line and what is wrong."""
    items: list[MemoryItem] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            lesson = LessonLine.model_validate_json(line)
        except ValidationError as e:
            problems.append(f"line {number}: {_problem(e)}")
            continue
        items.append(MemoryItem(**lesson.model_dump()))
    if problems:
        shown = "; ".join(problems[:5]) + (
            f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        )
        raise ValueError(f"{len(problems)} line(s) are not lessons: {shown}")
    return items


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    if first["type"] == "json_invalid":
        return "not JSON"
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] == "missing":
        return f"no '{where}'"
    return f"'{where}': {first['msg']}"  # enum messages list the allowed values


async def import_lessons(
    memory: ExperienceMemory,
    items: list[MemoryItem],
    actor: str,
    *,
    keep_support: bool = False,
) -> ImportReport:
    """Add each lesson as a provisional one that names no episode: a file is text anyone could
    have edited, so its episode ids (a vote on this database's episode N must not reach them),
    its support and its requesters are not believed, the same lesson twice in one file counts
    once, and a lesson already known is left as it is (an import never reinforces).
    `keep_support`: a benchmark's own memory, learned on an earlier stream, keeps its support
    and requesters."""
    report = ImportReport()
    seen: set[tuple[str, str, str, str]] = set()
    await load_word_lists()  # the lesson filter's word lists, read off the event loop
    for n, item in enumerate(items, start=1):
        lesson = normalised(
            DistilledLesson(
                phase=MemoryPhase(item.phase),
                trigger=item.trigger,
                strategy=item.strategy,
                rationale=item.rationale,
            )
        )
        if (reason := rejection_reason(lesson, kind=LessonKind(item.kind))) is not None:
            report.refused.append(f"line {n}: {reason}")
            continue
        key = (lesson.phase, lesson.trigger.casefold(), lesson.strategy.casefold(), item.kind)
        if key in seen:
            report.merged += 1
            continue
        seen.add(key)
        fresh = MemoryItem(
            phase=MemoryPhase(item.phase),
            trigger=lesson.trigger,
            strategy=lesson.strategy,
            rationale=lesson.rationale,
            kind=LessonKind(item.kind),
            source_episodes=[],
            learned_from_post_at=item.learned_from_post_at,
            support=item.support if keep_support else 1,
            requesters=item.requesters if keep_support else [],
        )
        _, merged = await memory.add_or_reinforce(fresh, actor, reinforce=keep_support)
        report.merged += merged
        report.added += not merged
    await memory.persist()
    return report
