"""One episode: claim analysis, then a budgeted search / visit / write loop, then checks.

The model proposes; code disposes. Budgets, the visit and citation rules, the length rule and
the deadline are enforced here, whatever the model says. The run's concepts live apart: its
research (`pipeline.research`), the checks a draft must pass (`pipeline.drafting`) and its
step log and progress (`pipeline.step_log`); here are its state, the loop and the writing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from pipeline.actions import Abstain, AgentTurn, FinalTurn, Search, Visit
from pipeline.brief import NoteNeed, VerificationBrief, no_note_needed, unanalysed_brief
from pipeline.budget import EvidenceBudget
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.episode_state import MAX_REFUSED_IN_A_ROW, MIN_SECONDS_FOR_A_CALL, EpisodeState
from pipeline.errors import (
    EvoNoteError,
    ModelOutputInvalid,
    ModelTimeout,
)
from pipeline.ports import (
    Captioner,
    ChatMessage,
    ChatModel,
    Lesson,
    MemoryPhase,
    MemoryRetriever,
    PageReader,
    SearchEngine,
)
from pipeline.post import Post
from pipeline.prompts import agent_messages, analysis_messages
from pipeline.research import Research
from pipeline.self_description import self_description
from pipeline.step_log import HeldStep
from pipeline.trajectory import (
    EpisodeOutcome,
    ProgressListener,
    StepJournal,
)
from pipeline.writing import Drafting

T = TypeVar("T", bound=BaseModel)


class EpisodeRunner:
    """Runs episodes with one set of collaborators and one budget."""

    def __init__(
        self,
        *,
        model: ChatModel,
        search: SearchEngine,
        reader: PageReader,
        memory: MemoryRetriever,
        budget: EvidenceBudget,
        clock: Callable[[], float] = time.monotonic,
        captioner: Captioner | None = None,
        call_timeout_s: float = 60.0,
        lessons_per_phase: int = 4,
    ) -> None:
        """`call_timeout_s`: the limit of one model call (EVONOTE_LLM__CALL_TIMEOUT_S);
        `lessons_per_phase`: lessons retrieved per phase (EVONOTE_MEMORY__TOP_K)."""
        self.model = model
        self.search = search
        self.reader = reader
        self.memory = memory
        self.budget = budget
        self.clock = clock
        self.captioner = captioner
        self.call_timeout_s = call_timeout_s
        self.lessons_per_phase = lessons_per_phase

    async def run(
        self,
        post: Post,
        *,
        journal: StepJournal | None = None,
        progress: ProgressListener | None = None,
    ) -> EpisodeOutcome:
        state = EpisodeState(self, post, journal, progress)
        try:
            return await _Run(state).execute()
        finally:
            # pages begun for the analysis that no visit chose, their notes, and searches
            # begun ahead that the agent never asked for
            for early in state.found.begun():
                early.cancel()


class _Run:
    """One episode: its state, research and drafting, and the loop that drives them."""

    def __init__(self, state: EpisodeState) -> None:
        self.s = state
        self.research = Research(self.s)
        self.drafting = Drafting(self.s, self.research)

    async def lessons_for(self, phase: MemoryPhase, query: str) -> list[Lesson]:
        found = await self.s.r.memory.retrieve(
            phase, query, k=self.s.r.lessons_per_phase, learned_before=self.s.date_cap
        )
        self.s.memory_ids.extend(m.id for m in found if m.id not in self.s.memory_ids)
        return found

    async def execute(self) -> EpisodeOutcome:
        await self.s.tell("analysing")
        await load_word_lists()  # the draft checks' word lists, read off the event loop
        await self.caption_media()
        if self.s.b.claim_analysis:
            # The post's own words are searched while the claim is analysed: the first agent
            # turn then starts with results instead of spending a turn to get them.
            early = (
                asyncio.create_task(self.research.search_the_post())
                if self.s.b.search_post_first and self.s.b.max_searches > 1
                else None
            )
            try:
                claim_lessons = await self.lessons_for(
                    MemoryPhase.CLAIM_ANALYSIS, self.s.post.all_text()
                )
                reply = await self.s.ask(
                    analysis_messages(self.s.post, claim_lessons),
                    VerificationBrief,
                    self.s.loop_deadline,
                )
            except BaseException:
                if early is not None:
                    early.cancel()
                raise
            self.s.brief = reply.value
            analysis: HeldStep = (
                "claim_analysis",
                {"lessons": [m.id for m in claim_lessons]},
                self.s.brief.model_dump_json(),
                reply,
            )
            if self.s.brief.note_need is not NoteNeed.NEEDED and self_description(
                self.s.post.all_text()
            ):
                # the post's words about itself never decide (issue 60): a claim stated as
                # fact under "satire" needs its note, and a hostile model's decline is overruled
                self.s.brief = self.s.brief.model_copy(update={"note_need": NoteNeed.NEEDED})
            if self.s.b.decline_unneeded and self.s.brief.note_need is not NoteNeed.NEEDED:
                # one short call, no research: the post's own search is not waited for
                if early is not None:
                    early.cancel()
                    await asyncio.gather(early, return_exceptions=True)
                await self.s.record_steps([analysis])
                return await self.s.abstain(no_note_needed(self.s.brief.note_need))
            await load_word_lists(self.s.brief.language.split("-")[0].lower())
            # the post search's steps follow the analysis in the trajectory, in the same write
            await self.s.record_steps([analysis, *(await early if early is not None else [])])
            if early is not None:
                await self.research.read_before_the_first_turn()
            self.research.search_ahead()
        else:
            self.s.brief = unanalysed_brief(self.s.post.all_text())
        # The claims are the post's point in a few words: a short query embeds in a third of
        # the time the post and claims together took, and lessons are keyed to claims anyway.
        query = "\n".join(self.s.brief.checkworthy_claims) or self.s.post.all_text()
        self.s.lessons = await self.lessons_for(
            MemoryPhase.EVIDENCE_ACQUISITION, query
        ) + await self.lessons_for(MemoryPhase.NOTE_WRITING, query)

        stop_reason = await self.loop()
        if isinstance(stop_reason, EpisodeOutcome):
            return stop_reason
        return await self.final(stop_reason)

    async def caption_media(self) -> None:
        """Describe the images (and videos' preview frames) a vision model may read."""
        captioner = self.s.r.captioner
        if captioner is None:
            return
        posts = [p for p in (self.s.post, self.s.post.quoted, self.s.post.replied_to) if p]
        media = [
            m
            for p in posts
            for m in p.media
            if m.url and not m.caption and captioner.can_read(m.url)
        ]
        if not media:
            return
        started = self.s.r.clock()
        timeout = min(self.s.r.call_timeout_s, max(1.0, self.s.seconds_left(self.s.loop_deadline)))
        results = await asyncio.gather(
            *(captioner.caption(m.url or "", self.s.post.text, timeout_s=timeout) for m in media),
            return_exceptions=True,
        )
        failed = []
        for item, result in zip(media, results, strict=True):
            if isinstance(result, EvoNoteError):
                failed.append(str(result))
            elif isinstance(result, BaseException):
                raise result
            elif result:
                item.caption = result
        self.s.timings.inference_s += self.s.r.clock() - started
        await self.s.record(
            "caption",
            {"media": [m.url for m in media]},
            f"captioned {len(media) - len(failed)} of {len(media)} images"
            + (f"; failed: {'; '.join(failed)}" if failed else ""),
        )

    async def loop(self) -> EpisodeOutcome | str:
        while True:
            if self.s.use.steps >= self.s.b.max_steps:
                return f"the step budget ({self.s.b.max_steps}) was spent"
            if self.s.seconds_left(self.s.loop_deadline) < MIN_SECONDS_FOR_A_CALL:
                return f"the {self.s.b.deadline_s:.0f} s deadline came near"
            if self.s.drafts.unchecked is not None:
                return "the deadline came near while the draft was checked"
            if self.s.refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
                # a weak model repeats a refused action turn after turn (seen: the same search
                # twelve times): the turns left go to writing from what was read
                return f"the agent repeated refused actions {self.s.refused_in_a_row} times"
            await self.s.tell(*self.phase_now())
            try:
                reply = await self.s.ask(self.messages(), AgentTurn, self.s.loop_deadline)
            except ModelTimeout as e:
                self.s.use.steps += 1
                await self.s.record("error", {}, f"model call timed out: {e}")
                continue
            except ModelOutputInvalid as e:
                self.s.use.steps += 1
                self.s.feedback = f"Your last answer was rejected: {e}"
                await self.s.record("error", {}, self.s.feedback)
                continue
            self.s.use.steps += 1
            action = reply.value.action
            if isinstance(action, Search):
                await self.research.do_search(action, reply)
            elif isinstance(action, Visit):
                await self.research.do_visit(action, reply)
            elif isinstance(action, Abstain):
                return await self.drafting.model_abstains(action, reply)
            else:
                outcome = await self.drafting.do_write(action, reply, self.s.loop_deadline)
                if outcome is not None:
                    return outcome

    async def final(self, why: str) -> EpisodeOutcome:
        """Budget or time is spent: write from what was read, or abstain with the reason."""
        if not self.s.evidence:
            return await self.s.abstain(f"{why} before any source could be read")
        if self.s.drafts.unchecked is not None:
            draft, reply = self.s.drafts.unchecked
            self.s.drafts.unchecked = None
            await self.s.tell("writing", "checking each sentence against its sources")
            outcome = await self.drafting.do_write(draft, reply, self.s.deadline)
            if outcome is not None:
                return outcome
        while True:
            if self.s.seconds_left() < MIN_SECONDS_FOR_A_CALL:
                found = self.drafting.what_was_found()
                return await self.s.abstain(
                    f"{why}, and no time was left to write the note: {found}"
                )
            await self.s.tell("writing", "final")
            try:
                reply = await self.s.ask(self.messages(finishing=True), FinalTurn, self.s.deadline)
            except (ModelTimeout, ModelOutputInvalid) as e:
                await self.s.record("error", {}, f"final write failed: {e}")
                if (outcome := await self.drafting.write_focused_once()) is not None:
                    return outcome
                return await self.s.abstain(
                    f"{why}, and the final write failed ({e}): {self.drafting.what_was_found()}"
                )
            action = reply.value.action
            if isinstance(action, Abstain):
                return await self.drafting.model_abstains(action, reply)
            outcome = await self.drafting.do_write(action, reply, self.s.deadline)
            if outcome is not None:
                return outcome

    def phase_now(self) -> tuple[str, str]:
        if self.s.use.searches == 0:
            return "searching", ""
        if not self.s.evidence:
            return "reading", ""
        return "writing", ""

    def messages(self, finishing: bool = False) -> list[ChatMessage]:
        assert self.s.brief is not None
        budget = {
            "steps_left": self.s.use.steps_left(self.s.b),
            "searches_left": self.s.use.searches_left(self.s.b),
            "visits_left": self.s.use.visits_left(self.s.b),
            "rewrites_left": max(0, self.s.b.max_rewrites - self.s.use.rewrites),
            "seconds_left": round(max(0.0, self.s.seconds_left()), 1),
        }
        messages = agent_messages(
            self.s.post,
            self.s.brief,
            self.s.lessons,
            self.s.post_links,
            self.s.research_log,
            budget,
            self.s.feedback,
            finishing=finishing,
        )
        self.count_shared_prefix("\n".join(m.content for m in messages))
        return messages

    def count_shared_prefix(self, prompt: str) -> None:
        """How much of this turn's prompt the previous turn's already had (the share a
        prefix-caching server need not compute again)."""
        if self.s.last_prompt:
            self.s.shared_chars += shared_prefix(self.s.last_prompt, prompt)
            self.s.prompt_chars += len(prompt)
            self.s.timings.prompt_prefix_shared = round(
                self.s.shared_chars / self.s.prompt_chars, 4
            )
        self.s.last_prompt = prompt


def shared_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix, by halving (slices compare in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
