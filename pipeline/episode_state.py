"""The state of one episode: its budget, clock and deadlines, what was searched and read, the
step log and the timings. The episode's run (`pipeline.episode`), its research
(`pipeline.research`) and its drafting (`pipeline.writing`) each hold it; none
inherits another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from pipeline.actions import Write
from pipeline.brief import VerificationBrief
from pipeline.budget import BudgetUse, EvidenceBudget
from pipeline.drafting.context import DraftContext
from pipeline.drafting.findings import Finding
from pipeline.errors import ModelTimeout
from pipeline.evidence import Evidence, NotesTaken, Page, SearchResult, SupportVerdicts
from pipeline.ports import (
    Captioner,
    ChatMessage,
    ChatModel,
    Lesson,
    MemoryRetriever,
    ModelReply,
    PageReader,
    SearchEngine,
)
from pipeline.post import Post
from pipeline.prompts import log_line
from pipeline.step_log import StepLog
from pipeline.trajectory import (
    EpisodeOutcome,
    EpisodeStatus,
    Progress,
    ProgressListener,
    StepJournal,
    Timings,
)


class EpisodeTools(Protocol):
    """What an episode works with: its collaborators, budget and clock
    (`pipeline.episode.EpisodeRunner`, which holds one set of them for every episode)."""

    @property
    def model(self) -> ChatModel: ...
    @property
    def search(self) -> SearchEngine: ...
    @property
    def reader(self) -> PageReader: ...
    @property
    def memory(self) -> MemoryRetriever: ...
    @property
    def budget(self) -> EvidenceBudget: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def captioner(self) -> Captioner | None: ...
    @property
    def call_timeout_s(self) -> float: ...
    @property
    def lessons_per_phase(self) -> int: ...


T = TypeVar("T", bound=BaseModel)

# Below this many seconds a final model call cannot be expected to answer.
MIN_SECONDS_FOR_A_CALL = 2.0
# Refused agent actions in a row (a repeated search, a visit of unknown URLs) before the loop
# ends and the final write begins.
MAX_REFUSED_IN_A_ROW = 3


@dataclass
class Found:
    """What research searched and began, which only research reads (`pipeline.research`)."""

    queries: list[str] = field(default_factory=list)
    results: dict[str, SearchResult] = field(default_factory=dict)
    fresh: list[str] = field(default_factory=list)  # the last search's results
    unreadable: dict[str, str] = field(default_factory=dict)
    # pages code began reading while the claim was analysed, by URL: a page chosen later is
    # taken from here (see `Research.prefetch`); the rest are cancelled at the end
    prefetched: dict[str, asyncio.Task[Page | str]] = field(default_factory=dict)
    # … and the notes begun on them, on the post's own words (`Research.notes_when_read`)
    early_notes: dict[str, asyncio.Task[NotesTaken | None]] = field(default_factory=dict)
    # searches code began before the agent asked for them, by query (lower case): the agent's
    # search of that query takes its results (`Research.search_ahead`)
    searches_ahead: dict[str, asyncio.Task[list[SearchResult]]] = field(default_factory=dict)

    def begun(self) -> list[asyncio.Task[Any]]:
        """Every task research began and may not have taken: cancelled when the episode ends."""
        return [
            *self.prefetched.values(),
            *self.early_notes.values(),
            *self.searches_ahead.values(),
        ]


@dataclass
class Drafts:
    """What became of the episode's drafts, which only drafting writes (`pipeline.writing`)."""

    support_checked: bool | None = None
    # A draft that passed every code check but whose support check the loop deadline cut: the
    # final phase checks it within the reserve before asking for a new draft.
    unchecked: tuple[Write, ModelReply[Any]] | None = None
    focused_tried: bool = False  # the focused write comes once (see `write_focused`)
    last_refused: list[Finding] = field(default_factory=list)  # the last refused draft's
    refused_drafts: list[list[str]] = field(default_factory=list)  # each refused draft's rules
    # The support check's verdicts by the question asked: the same draft on the same sources
    # gets the same verdict, never a second call (a weak model resubmits a refused draft word
    # for word, and asking again until the check says yes defeats it).
    support_answers: dict[str, SupportVerdicts] = field(default_factory=dict)


class EpisodeState:
    """The mutable state of one episode."""

    def __init__(
        self,
        runner: EpisodeTools,
        post: Post,
        journal: StepJournal | None,
        progress: ProgressListener | None,
    ) -> None:
        self.r = runner
        self.b = runner.budget
        self.post = post.model_copy(deep=True)  # captions are added to this copy
        self.steps = StepLog(journal, progress)
        self.record = self.steps.record
        self.record_steps = self.steps.record_steps
        self.use = BudgetUse()
        self.timings = Timings()
        self.started = runner.clock()
        self.deadline = self.started + self.b.deadline_s
        # The loop stops early enough to leave the final write its reserve.
        self.loop_deadline = self.deadline - min(self.b.writing_reserve_s, self.b.deadline_s / 2)
        self.brief: VerificationBrief | None = None
        self.lessons: list[Lesson] = []
        self.memory_ids: list[int] = []
        # the post's links and the sources its note requesters suggested: the only pages
        # besides search results a visit may read
        self.post_links = post.named_links()
        self.evidence: dict[str, Evidence] = {}
        self.found = Found()  # research's own: what was searched and begun (`Research`)
        self.drafts = Drafts()  # drafting's own: what became of the drafts (`Drafting`)
        self._context: tuple[tuple[object, ...], DraftContext] | None = None
        self.research_log: list[str] = []  # the research log, append-only (see `agent_messages`)
        self.last_prompt = ""  # the previous agent turn's prompt, for the prefix-cache share
        self.prompt_chars = self.shared_chars = 0
        self.feedback = ""
        self.model_name: str | None = None
        self.refused_in_a_row = 0  # agent actions refused in a row (see `loop`)
        # Benchmarks on old posts must not find what was published after them.
        self.date_cap = post.created_at if self.b.as_of_post_time else None

    def context(self) -> DraftContext:
        """What a draft is checked against now: the post, the pages read so far and the brief
        once the claims are analysed. A new value only when a page or the brief changed."""
        key = (self.brief, *self.evidence.items())  # by value: a page's notes may change it
        if self._context is None or self._context[0] != key:
            made = DraftContext.of(self.post, self.evidence, self.brief, self.post_links)
            self._context = key, made
        return self._context[1]

    def seconds_left(self, until: float | None = None) -> float:
        return (until if until is not None else self.deadline) - self.r.clock()

    async def tell(self, phase: Any, detail: str = "") -> None:
        await self.steps.tell(
            Progress(
                phase=phase,
                searches=self.use.searches,
                max_searches=self.b.max_searches,
                sources_read=len(self.evidence),
                detail=detail,
            )
        )

    async def ask(
        self, messages: list[ChatMessage], output: type[T], until: float, inference: bool = True
    ) -> ModelReply[T]:
        """A model call bounded by `until`; page notes count as visit time, not inference."""
        timeout = min(self.r.call_timeout_s, self.seconds_left(until))
        if timeout <= 0:
            raise ModelTimeout("no time left for a model call")
        reply = await self.r.model.structured(messages, output, timeout_s=timeout)
        if inference:
            self.timings.inference_s += reply.latency_s
        self.timings.prompt_tokens += reply.prompt_tokens
        self.timings.completion_tokens += reply.completion_tokens
        self.model_name = reply.model
        return reply

    def log(self, entry: dict[str, Any]) -> None:
        self.research_log.append(log_line(entry))

    def finish(self, outcome: EpisodeOutcome) -> EpisodeOutcome:
        self.timings.total_s = self.r.clock() - self.started
        self.timings.turns = self.use.steps
        outcome.brief = self.brief
        outcome.evidence = list(self.evidence.values())
        outcome.timings = self.timings.model_copy(
            update={
                k: round(v, 4) for k, v in self.timings.model_dump().items() if isinstance(v, float)
            }
        )
        outcome.memory_ids = self.memory_ids
        outcome.model = self.model_name
        outcome.support_checked = self.drafts.support_checked
        outcome.refused_drafts = self.drafts.refused_drafts
        outcome.post = self.post
        return outcome

    async def abstain(self, reason: str) -> EpisodeOutcome:
        await self.tell("done", EpisodeStatus.ABSTAINED)
        return self.finish(EpisodeOutcome(status=EpisodeStatus.ABSTAINED, abstain_reason=reason))
