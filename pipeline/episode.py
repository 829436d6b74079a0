"""One episode: claim analysis, then a budgeted search / visit / write loop, then checks.

The model proposes; code disposes. Budgets, the visit and citation rules, the length rule and
the deadline are enforced here, whatever the model says. The run's concepts live apart: its
research (`pipeline.research`), the checks a draft must pass (`pipeline.draft_checks`) and its
step log and progress (`pipeline.step_log`); here are its state, the loop and the writing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from pipeline.actions import Abstain, AgentTurn, FinalTurn, Search, Visit, Write
from pipeline.brief import VerificationBrief, unanalysed_brief
from pipeline.budget import BudgetUse, EvidenceBudget
from pipeline.draft_checks import DraftChecks, support_findings
from pipeline.draft_rules import Finding, RuleId, what_was_said_wrong
from pipeline.errors import (
    EvoNoteError,
    ModelOutputInvalid,
    ModelTimeout,
)
from pipeline.evidence import Evidence, SearchResult, SupportVerdicts
from pipeline.focused_write import focused_draft, sentences_on_the_claims, subject_of
from pipeline.note_text import (
    NOTE_CHAR_LIMIT,
    assemble_note,
    split_sentences,
)
from pipeline.ports import (
    Captioner,
    ChatMessage,
    ChatModel,
    Lesson,
    MemoryPhase,
    MemoryRetriever,
    ModelReply,
    PageReader,
    SearchEngine,
)
from pipeline.post import Post
from pipeline.prompts import (
    FocusedNote,
    agent_messages,
    analysis_messages,
    focused_messages,
)
from pipeline.research import EpisodeResearch
from pipeline.step_log import HeldStep, StepLog
from pipeline.text_policy import disallowed_content, normalise
from pipeline.trajectory import (
    EpisodeOutcome,
    EpisodeStatus,
    ProgressListener,
    StepJournal,
    Timings,
)
from pipeline.vocabulary import load_word_lists

T = TypeVar("T", bound=BaseModel)

# Below this many seconds a final model call cannot be expected to answer.
MIN_SECONDS_FOR_A_CALL = 2.0
# Refused agent actions in a row (a repeated search, a visit of unknown URLs) before the loop
# ends and the final write begins.
MAX_REFUSED_IN_A_ROW = 3


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
        return await _Run(self, post, journal, progress).execute()


class _Run(EpisodeResearch):
    """The mutable state of one episode."""

    def __init__(
        self,
        runner: EpisodeRunner,
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
        self.queries: list[str] = []
        self.results: dict[str, SearchResult] = {}
        # the post's links and the sources its note requesters suggested: the only pages
        # besides search results a visit may read
        self.post_links = list(dict.fromkeys([*post.all_links(), *post.suggested_links()]))
        self.evidence: dict[str, Evidence] = {}
        self.checks = DraftChecks(self.post, self.evidence, post_links=self.post_links)
        self.unreadable: dict[str, str] = {}
        self.research: list[str] = []  # the research log, append-only (see `agent_messages`)
        self.fresh: list[str] = []  # the last search's results
        self.last_prompt = ""  # the previous agent turn's prompt, for the prefix-cache share
        self.prompt_chars = self.shared_chars = 0
        self.feedback = ""
        self.model_name: str | None = None
        self.support_checked: bool | None = None
        # A draft that passed every code check but whose support check the loop deadline cut:
        # the final phase checks it within the reserve before asking for a new draft.
        self.unchecked: tuple[Write, ModelReply[Any]] | None = None
        self.refused_in_a_row = 0  # agent actions refused in a row (see `loop`)
        self.focused_tried = False  # the focused write comes once (see `write_focused`)
        self.last_refused: list[Finding] = []  # what the checks said of the last refused draft
        # Benchmarks on old posts must not find what was published after them.
        self.date_cap = post.created_at if self.b.as_of_post_time else None

    # ---- bookkeeping -------------------------------------------------------------------

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
        outcome.support_checked = self.support_checked
        outcome.post = self.post
        return outcome

    async def abstain(self, reason: str) -> EpisodeOutcome:
        await self.tell("done", "abstained")
        return self.finish(EpisodeOutcome(status=EpisodeStatus.ABSTAINED, abstain_reason=reason))

    async def model_abstains(self, action: Abstain, reply: ModelReply[Any]) -> EpisodeOutcome:
        """The model's reason is shown on cards, so it obeys the same rules as a note. A model
        that drafted a note and then gave up once the checks refused it still gets the focused
        write: seen with the real 1.5B model, after one refusal, abstaining "so the note should
        be rejected" with the page on the claim read. One that never drafted judged no note
        needed, and that stands."""
        reason = normalise(action.reason)
        if disallowed_content(reason, self.checks.provenance()):
            reason = "the model abstained; its reason was withheld (it held links or instructions)"
        elif not reason:
            reason = "the model abstained without giving a readable reason"
        await self.record("abstain", action.model_dump(), reason, reply)
        if self.use.rewrites and (outcome := await self.write_focused_once()) is not None:
            return outcome
        return await self.abstain(reason)

    async def lessons_for(self, phase: MemoryPhase, query: str) -> list[Lesson]:
        found = await self.r.memory.retrieve(
            phase, query, k=self.r.lessons_per_phase, learned_before=self.date_cap
        )
        self.memory_ids.extend(m.id for m in found if m.id not in self.memory_ids)
        return found

    # ---- the episode -------------------------------------------------------------------

    async def execute(self) -> EpisodeOutcome:
        await self.tell("analysing")
        await load_word_lists()  # the draft checks' word lists, read off the event loop
        await self.caption_media()
        if self.b.claim_analysis:
            # The post's own words are searched while the claim is analysed: the first agent
            # turn then starts with results instead of spending a turn to get them.
            early = (
                asyncio.create_task(self.search_the_post())
                if self.b.search_post_first and self.b.max_searches > 1
                else None
            )
            try:
                claim_lessons = await self.lessons_for(
                    MemoryPhase.CLAIM_ANALYSIS, self.post.all_text()
                )
                reply = await self.ask(
                    analysis_messages(self.post, claim_lessons),
                    VerificationBrief,
                    self.loop_deadline,
                )
            except BaseException:
                if early is not None:
                    early.cancel()
                raise
            self.brief = self.checks.brief = reply.value
            await load_word_lists(self.brief.language.split("-")[0].lower())
            analysis: HeldStep = (
                "claim_analysis",
                {"lessons": [m.id for m in claim_lessons]},
                self.brief.model_dump_json(),
                reply,
            )
            # the post search's steps follow the analysis in the trajectory, in the same write
            await self.record_steps([analysis, *(await early if early is not None else [])])
            if early is not None:
                await self.search_the_gap()
        else:
            self.brief = self.checks.brief = unanalysed_brief(self.post.all_text())
        # The claims are the post's point in a few words: a short query embeds in a third of
        # the time the post and claims together took, and lessons are keyed to claims anyway.
        query = "\n".join(self.brief.checkworthy_claims) or self.post.all_text()
        self.lessons = await self.lessons_for(
            MemoryPhase.EVIDENCE_ACQUISITION, query
        ) + await self.lessons_for(MemoryPhase.NOTE_WRITING, query)

        stop_reason = await self.loop()
        if isinstance(stop_reason, EpisodeOutcome):
            return stop_reason
        return await self.final(stop_reason)

    async def caption_media(self) -> None:
        """Describe the images (and videos' preview frames) a vision model may read."""
        captioner = self.r.captioner
        if captioner is None:
            return
        posts = [p for p in (self.post, self.post.quoted, self.post.replied_to) if p]
        media = [
            m
            for p in posts
            for m in p.media
            if m.url and not m.caption and captioner.can_read(m.url)
        ]
        if not media:
            return
        started = self.r.clock()
        timeout = min(self.r.call_timeout_s, max(1.0, self.seconds_left(self.loop_deadline)))
        results = await asyncio.gather(
            *(captioner.caption(m.url or "", self.post.text, timeout_s=timeout) for m in media),
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
        self.timings.inference_s += self.r.clock() - started
        await self.record(
            "caption",
            {"media": [m.url for m in media]},
            f"captioned {len(media) - len(failed)} of {len(media)} images"
            + (f"; failed: {'; '.join(failed)}" if failed else ""),
        )

    async def loop(self) -> EpisodeOutcome | str:
        while True:
            if self.use.steps >= self.b.max_steps:
                return f"the step budget ({self.b.max_steps}) was spent"
            if self.seconds_left(self.loop_deadline) < MIN_SECONDS_FOR_A_CALL:
                return f"the {self.b.deadline_s:.0f} s deadline came near"
            if self.unchecked is not None:
                return "the deadline came near while the draft was checked"
            if self.refused_in_a_row >= MAX_REFUSED_IN_A_ROW:
                # a weak model repeats a refused action turn after turn (seen: the same search
                # twelve times): the turns left go to writing from what was read
                return f"the agent repeated refused actions {self.refused_in_a_row} times"
            await self.tell(*self.phase_now())
            try:
                reply = await self.ask(self.messages(), AgentTurn, self.loop_deadline)
            except ModelTimeout as e:
                self.use.steps += 1
                await self.record("error", {}, f"model call timed out: {e}")
                continue
            except ModelOutputInvalid as e:
                self.use.steps += 1
                self.feedback = f"Your last answer was rejected: {e}"
                await self.record("error", {}, self.feedback)
                continue
            self.use.steps += 1
            action = reply.value.action
            if isinstance(action, Search):
                await self.do_search(action, reply)
            elif isinstance(action, Visit):
                await self.do_visit(action, reply)
            elif isinstance(action, Abstain):
                return await self.model_abstains(action, reply)
            else:
                outcome = await self.do_write(action, reply, self.loop_deadline)
                if outcome is not None:
                    return outcome

    async def final(self, why: str) -> EpisodeOutcome:
        """Budget or time is spent: write from what was read, or abstain with the reason."""
        if not self.evidence:
            return await self.abstain(f"{why} before any source could be read")
        if self.unchecked is not None:
            draft, reply = self.unchecked
            self.unchecked = None
            await self.tell("writing", "checking each sentence against its sources")
            outcome = await self.do_write(draft, reply, self.deadline)
            if outcome is not None:
                return outcome
        while True:
            if self.seconds_left() < MIN_SECONDS_FOR_A_CALL:
                return await self.abstain(
                    f"{why}, and no time was left to write the note: {self.what_was_found()}"
                )
            await self.tell("writing", "final")
            try:
                reply = await self.ask(self.messages(finishing=True), FinalTurn, self.deadline)
            except (ModelTimeout, ModelOutputInvalid) as e:
                await self.record("error", {}, f"final write failed: {e}")
                if (outcome := await self.write_focused_once()) is not None:
                    return outcome
                return await self.abstain(
                    f"{why}, and the final write failed ({e}): {self.what_was_found()}"
                )
            action = reply.value.action
            if isinstance(action, Abstain):
                return await self.model_abstains(action, reply)
            outcome = await self.do_write(action, reply, self.deadline)
            if outcome is not None:
                return outcome

    def phase_now(self) -> tuple[str, str]:
        if self.use.searches == 0:
            return "searching", ""
        if not self.evidence:
            return "reading", ""
        return "writing", ""

    def messages(self, finishing: bool = False) -> list[ChatMessage]:
        assert self.brief is not None
        budget = {
            "steps_left": self.use.steps_left(self.b),
            "searches_left": self.use.searches_left(self.b),
            "visits_left": self.use.visits_left(self.b),
            "rewrites_left": max(0, self.b.max_rewrites - self.use.rewrites),
            "seconds_left": round(max(0.0, self.seconds_left()), 1),
        }
        messages = agent_messages(
            self.post,
            self.brief,
            self.lessons,
            self.post_links,
            self.research,
            budget,
            self.feedback,
            finishing=finishing,
        )
        self.count_shared_prefix("\n".join(m.content for m in messages))
        return messages

    def count_shared_prefix(self, prompt: str) -> None:
        """How much of this turn's prompt the previous turn's already had (the share a
        prefix-caching server need not compute again)."""
        if self.last_prompt:
            self.shared_chars += shared_prefix(self.last_prompt, prompt)
            self.prompt_chars += len(prompt)
            self.timings.prompt_prefix_shared = round(self.shared_chars / self.prompt_chars, 4)
        self.last_prompt = prompt

    # ---- actions -----------------------------------------------------------------------

    async def do_write(
        self, action: Write, reply: ModelReply[Any], until: float
    ) -> EpisodeOutcome | None:
        """Accept the note, or send it back with the reasons (None), or abstain at the limit.
        Its support check ends by `until`: in the loop, before the final write's reserve."""
        action = await self.read_what_it_cites(action)
        findings = self.too_soon_to_write()
        repair = ""
        by_code = False  # every sentence borne out by a cited page sentence
        if findings:
            findings += self.checks.findings(action)
        else:
            decision = self.checks.decide(action)
            findings = [] if decision.verdict != "refused" else list(decision.findings)
            by_code = decision.verdict == "published_by_code"
            if decision.repaired:
                removed = len(split_sentences(action.text)) - len(
                    split_sentences(decision.action.text)
                )
                repair = f"; code removed what the checks refused ({removed} sentence(s) dropped)"
                action = decision.action
        support_checked: bool | None = None
        if not findings and self.b.check_support:
            if self.b.support_by_quotes and by_code:
                support_checked = True  # by code: no model call needed
            else:
                await self.tell("writing", "checking each sentence against its sources")
                support_checked, findings, unsupported = await self.check_support(action, until)
                if findings and (kept := self.checks.without_unsupported(action, unsupported)):
                    dropped = len(split_sentences(action.text)) - len(split_sentences(kept.text))
                    repair += f"; code dropped {dropped} unsupported sentence(s)"
                    action, findings = kept, []
                if support_checked is None:  # cut by the loop deadline: checked in the final
                    self.unchecked = (action, reply)
                    await self.record(  # the reply is recorded with the draft's verdict
                        "write",
                        action.model_dump(),
                        "support check deferred to the final phase: the loop's time ran out",
                    )
                    return None
        if not findings:
            note = assemble_note(action.text, action.cited_urls())
            checked = {
                True: "; every sentence supported",
                False: "; support not verified",
                None: "",
            }[support_checked]
            await self.record(
                "write",
                action.model_dump(),
                f"accepted: {note.length}/{NOTE_CHAR_LIMIT} characters{checked}{repair}",
                reply,
            )
            await self.tell("done", "noted")
            self.support_checked = support_checked
            return self.finish(
                EpisodeOutcome(
                    status=EpisodeStatus.NOTED,
                    note=note.text,
                    urls=note.urls,
                    char_count=note.length,
                )
            )
        self.use.rewrites += 1
        rules = list(dict.fromkeys(f.rule.value for f in findings))
        self.use.failed_checks.extend(rules)
        self.last_refused = findings
        self.feedback = "Write rejected: " + " ".join(f.feedback for f in findings)
        await self.record(
            "write", {**action.model_dump(), "refused_by": rules}, self.feedback, reply
        )
        if self.use.rewrites > self.b.max_rewrites:
            if (outcome := await self.write_focused_once()) is not None:
                return outcome
            return await self.abstain(self.why_no_note(findings))
        return None

    async def write_focused_once(self) -> EpisodeOutcome | None:
        """The focused write, if the budget allows it and it has not run: once the rewrites are
        spent, when the final write failed (its answer is far shorter than a final turn's), or
        when the model abstains after a refused draft."""
        if not self.b.focused_write or self.focused_tried:
            return None
        self.focused_tried = True
        return await self.write_focused()

    async def write_focused(self) -> EpisodeOutcome | None:
        """One more draft once the rewrites are spent: the model words a note from sentences
        code picked from the pages read, and code cites them (`pipeline.focused_write`). None
        when there is nothing to word it from, no time, or nothing usable came back."""
        sentences = sentences_on_the_claims(self.checks)
        if not sentences or self.seconds_left() < MIN_SECONDS_FOR_A_CALL:
            return None
        await self.tell("writing", "from the sentences read")
        subject = subject_of(self.checks, sentences)
        messages = focused_messages(subject, [s for _, s in sentences])
        try:
            reply = await self.ask(messages, FocusedNote, self.deadline)
        except (ModelTimeout, ModelOutputInvalid) as e:
            await self.record("error", {}, f"the focused write failed: {e}")
            return None
        draft = focused_draft(reply.value, sentences)
        if draft is None:
            await self.record(
                "write", reply.value.model_dump(), "focused write: no sentence bears on the claims"
            )
            return None
        return await self.do_write(draft, reply, self.deadline)

    async def read_what_it_cites(self, action: Write) -> Write:
        """The draft citing the pages read by their own URLs, after code has read the search
        results it cites unopened that are on the claims (one visit's worth, within the
        budget). Seen with the real model: drafts citing results it never visited, refused
        "Read at least 1 page" five times running. Reading adds nothing to the prose; the
        checks then judge the pages."""
        cited = [self.known_spelling(u) for u in action.cited_urls()]
        unopened = [u for u in cited if u not in self.evidence and u in self.results]
        if unopened and self.seconds_left() >= MIN_SECONDS_FOR_A_CALL:
            await self.read_best("a page the draft cites", unopened)
        return self.checks.citing_read_pages(action)

    def too_soon_to_write(self) -> list[Finding]:
        """The budget's minimums of research before a draft is considered."""
        findings: list[Finding] = []
        if self.use.searches < self.b.min_searches_before_write:
            findings.append(
                Finding(
                    RuleId.TOO_FEW_SEARCHES,
                    f"Search at least {self.b.min_searches_before_write} time(s) before writing.",
                )
            )
        if len(self.evidence) < self.b.min_visits_before_write:
            findings.append(
                Finding(
                    RuleId.TOO_FEW_READS,
                    f"Read at least {self.b.min_visits_before_write} page(s) before writing.",
                )
            )
        return findings

    def why_no_note(self, findings: list[Finding]) -> str:
        """The reason on the card when no draft passed: what the evidence was, and what the
        last draft said wrong. Never the draft's form (its length, a cut sentence, a citation
        spelt wrong): code repairs what it can of that, and the rest is the model's, in the
        trajectory."""
        found = self.what_was_found(findings)
        return f"no note passed the checks after {self.b.max_rewrites} rewrites: {found}"

    def what_was_found(self, findings: list[Finding] | None = None) -> str:
        """The pages read and how many are on the claims, then what the last refused draft
        said wrong (`findings`, else the episode's last refusal): the reason a card gives when
        time or drafts ran out, about the evidence and never the model's speed or form."""
        read = len(self.evidence)
        on_topic = sum(self.checks.about_the_claims(u) for u in self.evidence)
        pages = f"{read} page{'s' if read != 1 else ''} read"
        evidence = (
            "no page was read"
            if not read
            else f"none of the {pages} is about the claims"
            if not on_topic
            else f"{on_topic} of the {pages} {'is' if on_topic == 1 else 'are'} about the claims"
        )
        kinds = what_was_said_wrong(self.last_refused if findings is None else findings)
        said = f"; the last draft {'; '.join(kinds)}" if kinds else ""
        return evidence + said

    async def check_support(
        self, action: Write, until: float
    ) -> tuple[bool | None, list[Finding], set[int]]:
        """(ran, findings, the sentences not supported): each sentence against the sources
        cited for it. `ran` is None when the loop deadline cut the check before the final
        phase (it runs there, in the reserve)."""
        sentences, messages = self.checks.support_request(action)
        try:
            reply = await self.ask(messages, SupportVerdicts, until)
        except ModelTimeout as e:
            if until < self.deadline:
                return None, [], set()
            await self.record("error", {}, f"support check could not run: {e}")
            return False, [], set()
        except ModelOutputInvalid as e:
            await self.record("error", {}, f"support check could not run: {e}")
            return False, [], set()
        borne = self.checks.borne_out_by_code(action) if self.b.support_by_quotes else set()
        findings = support_findings(sentences, reply.value, borne)
        return True, findings, {f.sentence for f in findings if f.sentence}


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
