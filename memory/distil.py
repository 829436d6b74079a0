"""The Memory Evolver's distillation: a judged episode becomes (trigger, strategy, phase) items.

The model proposes; code disposes. A lesson is normalised and must pass the same allowlist as
a published note with no URL allowed (no link, domain or @handle however spelled, no hidden
characters, nothing instruction-like), and may not repeat 8 consecutive words of the post, the
pages or the note it came from, nor restate the post in other words (`memory.echo`): a post must
not be able to plant a rule through the memory.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory.echo import PostEcho
from memory.lesson_sources import source_problem
from memory.models import KIND_FOR_MODE, LessonKind, MemoryItem
from memory.ports import FinishedEpisode
from memory.prompts import (
    EXAMPLE_STRATEGY,
    EXAMPLE_TRIGGER,
    DistilledLesson,
    DistilledLessons,
    JudgeVerdict,
    distil_messages,
)
from memory.support import supporters
from pipeline.drafting.policy import disallowed_content, shared_run
from pipeline.drafting.provenance import normalise
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.ports import ChatModel

# A lesson must not repeat this many consecutive words of what it was learned from.
COPIED_WORDS = 8


def episode_texts(episode: FinishedEpisode) -> list[str]:
    """The untrusted words an episode saw: its post (all parts), its pages, its note."""
    texts = [episode.post.model_dump_json()]
    for page in episode.evidence:
        texts += [page.title, page.excerpt, *page.quotes]
    texts.extend(s.observation for s in episode.steps if s.phase in ("visit", "search"))
    if episode.note:
        texts.append(episode.note)
    return texts


def rejection_reason(
    lesson: DistilledLesson, sources: Sequence[str] = (), kind: LessonKind | None = None
) -> str | None:
    """Why a lesson may not be stored (None: it may). Same rules for distilled and imported;
    `kind` reads a lesson of what to avoid as the order it becomes ("avoid: …")."""
    text = f"{lesson.trigger}\n{lesson.strategy}\n{lesson.rationale}"
    problems = disallowed_content(text, lesson=True)
    if problems:
        return problems[0]
    if sourced := source_problem(lesson.strategy, lesson.rationale, kind):
        return sourced
    copied = shared_run(text, sources, COPIED_WORDS)
    if copied:
        return f"repeats {COPIED_WORDS}+ words of its episode ('{copied[:60]}')"
    if shared_run(text, [EXAMPLE_TRIGGER, EXAMPLE_STRATEGY], 5):
        return "repeats the distil prompt's own example instead of a lesson of its episode"
    if len(lesson.trigger.split()) < 3 or len(lesson.strategy.split()) < 4:
        return "too short to be a reusable lesson"
    return None


def normalised(lesson: DistilledLesson) -> DistilledLesson:
    return lesson.model_copy(
        update={
            "trigger": normalise(lesson.trigger),
            "strategy": normalise(lesson.strategy),
            "rationale": normalise(lesson.rationale),
        }
    )


class Distiller:
    def __init__(
        self, model: ChatModel, timeout_s: float = 60.0, echo: PostEcho | None = None
    ) -> None:
        self.model = model
        self.timeout_s = timeout_s
        self.echo = echo

    async def distil(
        self, episode: FinishedEpisode, verdict: JudgeVerdict
    ) -> tuple[list[MemoryItem], list[str]]:
        """(items to add or merge, reasons for the lessons refused)."""
        await load_word_lists()  # the lesson filter's word lists, read off the event loop
        reply = await self.model.structured(
            distil_messages(episode, verdict), DistilledLessons, timeout_s=self.timeout_s
        )
        kind = KIND_FOR_MODE[verdict.utility_mode]
        items: list[MemoryItem] = []
        refused: list[str] = []
        sources = episode_texts(episode)
        for raw in reply.value.lessons:
            lesson = normalised(raw)
            reason = rejection_reason(lesson, sources, kind)
            if reason is None and self.echo is not None:
                reason = await self.echo.restated(lesson, episode.post.all_text())
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
                    requesters=supporters(episode, kind, lesson, verdict),
                    learned_from_post_at=episode.post_created_at,
                )
            )
        return items, refused
