"""Writing for one episode: a draft decided by code (`pipeline.drafting.decide`), its support
checked by the model where code cannot bear it out, refused drafts sent back with their
findings, and the focused write once the rewrites are spent."""

from __future__ import annotations

from typing import Any

from pipeline.actions import Abstain, Write
from pipeline.drafting.answering import subject_words
from pipeline.drafting.decide import Verdict, decide
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding, RuleCard
from pipeline.drafting.focused import focused_draft, sentences_on_the_claims, subject_of
from pipeline.drafting.note import NOTE_CHAR_LIMIT, assemble_note
from pipeline.drafting.policy import disallowed_content
from pipeline.drafting.prompts import ClaimAnswered, FocusedNote, answers_messages, focused_messages
from pipeline.drafting.provenance import normalise
from pipeline.drafting.repair import citing_read_pages, without_unsupported
from pipeline.drafting.rules import RULES, UNSUPPORTED_KIND, RuleId
from pipeline.drafting.rules import findings as rule_findings
from pipeline.drafting.support import check_findings, support_request
from pipeline.episode_state import MIN_SECONDS_FOR_A_CALL, EpisodeState
from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ModelReply
from pipeline.research import Research
from pipeline.trajectory import EpisodeOutcome, EpisodeStatus

# How a card speaks of the refusals that come from no rule of `RULES`: the episode's minimums
# of research and the model's support check.
CARDS: dict[str, RuleCard] = {
    **{r.id: r.card for r in RULES},
    RuleId.TOO_FEW_SEARCHES: RuleCard("came before enough searching", False),
    RuleId.TOO_FEW_READS: RuleCard("came before enough reading", False),
    RuleId.UNSUPPORTED: RuleCard(UNSUPPORTED_KIND, True),
    RuleId.UNCHECKED: RuleCard("could not be checked against its sources (the check failed)", True),
}


def what_was_said_wrong(found: list[Finding]) -> list[str]:
    """The card's words for what the findings say the draft said wrong, each once, in order;
    never its form."""
    kinds = (CARDS[f.rule] for f in found)
    return list(dict.fromkeys(card.kind for card in kinds if card.said))


# A draft whose support check could not run (the model server down, its answer malformed past
# the retries, the deadline) goes back, never out unverified: code's own word is off by
# default (`EVONOTE_BUDGET__SUPPORT_BY_QUOTES`), so the check is all that stands between a
# writer that obeys a page and a published note, and a writer that could make the check fail
# (an injection that breaks its answer) would otherwise publish whatever it wrote.
UNCHECKED = Finding(
    RuleId.UNCHECKED,
    "The sentence-by-sentence support check could not run, and no note goes out unchecked: "
    "write the note again, each sentence from a page you read.",
)


class Drafting:
    """The writing step of one episode, on its state and its research (code reads the pages a
    draft cites unopened)."""

    def __init__(self, state: EpisodeState, research: Research) -> None:
        self.s = state
        self.research = research
        self.drafts = state.drafts

    async def model_abstains(self, action: Abstain, reply: ModelReply[Any]) -> EpisodeOutcome:
        """The model's reason is shown on cards, so it obeys the same rules as a note. A model
        that drafted a note and then gave up once the checks refused it still gets the focused
        write: seen with the real 1.5B model, after one refusal, abstaining "so the note should
        be rejected" with the page on the claim read. One that never drafted judged no note
        needed, and that stands."""
        reason = normalise(action.reason)
        if disallowed_content(reason, self.s.context().provenance):
            reason = "the model abstained; its reason was withheld (it held links or instructions)"
        elif not reason:
            reason = "the model abstained without giving a readable reason"
        await self.s.record("abstain", action.model_dump(), reason, reply)
        if self.s.use.rewrites and (outcome := await self.write_focused_once()) is not None:
            return outcome
        return await self.s.abstain(reason)

    async def do_write(
        self, action: Write, reply: ModelReply[Any], until: float
    ) -> EpisodeOutcome | None:
        """Accept the note, or send it back with the reasons (None), or abstain at the limit.
        Its support check ends by `until`: in the loop, before the final write's reserve. The
        draft is parsed once (`Draft.parse`); every check and repair after takes that parse."""
        draft = await self.read_what_it_cites(action)
        context = self.s.context()
        findings = self.too_soon_to_write()
        repair = ""
        by_code = False  # every sentence borne out by a cited page sentence
        if findings:
            findings += rule_findings(context, draft)
        else:
            decision = decide(context, draft, by_quotes=self.s.b.support_by_quotes)
            findings = [] if decision.verdict != Verdict.REFUSED else list(decision.findings)
            by_code = decision.verdict == Verdict.PUBLISHED_BY_CODE
            if decision.repaired:
                removed = len(draft.sentences) - len(decision.draft.sentences)
                repair = f"; code removed what the checks refused ({removed} sentence(s) dropped)"
                draft = decision.draft
        support_checked: bool | None = None
        if not findings and self.s.b.check_support:
            if self.s.b.support_by_quotes and by_code:
                support_checked = True  # by code: no model call needed
            else:
                await self.s.tell("writing", "checking each sentence against its sources")
                support_checked, findings, unsupported = await self.check_support(draft, until)
                if findings and (kept := without_unsupported(context, draft, unsupported)):
                    dropped = len(draft.sentences) - len(kept.sentences)
                    repair += f"; code dropped {dropped} unsupported sentence(s)"
                    draft, findings = kept, []
                if support_checked is None:  # cut by the loop deadline: checked in the final
                    self.drafts.unchecked = (draft.action, reply)
                    await self.s.record(  # the reply is recorded with the draft's verdict
                        "write",
                        draft.action.model_dump(),
                        "support check deferred to the final phase: the loop's time ran out",
                    )
                    return None
                if support_checked is False:
                    findings = [UNCHECKED]
        if not findings and self.s.b.check_answers:
            findings = await self.check_answers(draft, until)
        if not findings:
            return await self.accept(draft, reply, support_checked, repair)
        return await self.refuse(draft, reply, findings)

    async def accept(
        self, draft: Draft, reply: ModelReply[Any], support_checked: bool | None, repair: str
    ) -> EpisodeOutcome:
        note = assemble_note(draft.text, draft.action.cited_urls())
        checked = "; every sentence supported" if support_checked else ""
        await self.s.record(
            "write",
            draft.action.model_dump(),
            f"accepted: {note.length}/{NOTE_CHAR_LIMIT} characters{checked}{repair}",
            reply,
        )
        await self.s.tell("done", EpisodeStatus.NOTED)
        self.drafts.support_checked = support_checked
        return self.s.finish(
            EpisodeOutcome(
                status=EpisodeStatus.NOTED,
                note=note.text,
                urls=note.urls,
                char_count=note.length,
            )
        )

    async def refuse(
        self, draft: Draft, reply: ModelReply[Any], findings: list[Finding]
    ) -> EpisodeOutcome | None:
        """The draft goes back with its findings; its rules are stored with the step
        (`refused_by`) and with the episode's outcome (`refused_drafts`: `episodes show` and the
        card say which rules refused its drafts)."""
        self.s.use.rewrites += 1
        rules = list(dict.fromkeys(str(f.rule) for f in findings))
        self.drafts.refused_drafts.append(rules)
        self.drafts.last_refused = findings
        self.s.feedback = "Write rejected: " + " ".join(f.feedback for f in findings)
        await self.s.record(
            "write", {**draft.action.model_dump(), "refused_by": rules}, self.s.feedback, reply
        )
        if self.s.use.rewrites > self.s.b.max_rewrites:
            if (outcome := await self.write_focused_once()) is not None:
                return outcome
            return await self.s.abstain(self.why_no_note(findings))
        return None

    async def check_answers(self, draft: Draft, until: float) -> list[Finding]:
        """The blind answer check (`EVONOTE_BUDGET__CHECK_ANSWERS`): shown only the claims and
        the note, does the note answer the claim itself? One that does not goes back with the
        claim's words to answer; a check that cannot run leaves the note as the support check
        left it, and the trajectory says so. The model's reason is recorded, never fed to the
        writer: it is a model's words about a post's claim."""
        claims = "\n".join(self.s.context().claims())
        try:
            reply = await self.s.ask(answers_messages(claims, draft.text), ClaimAnswered, until)
        except (ModelTimeout, ModelOutputInvalid) as e:
            await self.s.record("error", {}, f"answer check could not run: {e}")
            return []
        if reply.value.answers_the_claim:
            return []
        await self.s.record(
            "write", reply.value.model_dump(), "the answer check found the note off the claim"
        )
        words = ", ".join(subject_words(self.s.context()))
        return [
            Finding(
                RuleId.ANSWERS_THE_CLAIM,
                "Answer the post's claim itself, not a neighbouring fact or a source's standing"
                + (f": what the sources say of {words}." if words else "."),
            )
        ]

    async def write_focused_once(self) -> EpisodeOutcome | None:
        """The focused write, if the budget allows it and it has not run: once the rewrites are
        spent, when the final write failed (its answer is far shorter than a final turn's), or
        when the model abstains after a refused draft."""
        if not self.s.b.focused_write or self.drafts.focused_tried:
            return None
        self.drafts.focused_tried = True
        return await self.write_focused()

    async def write_focused(self) -> EpisodeOutcome | None:
        """One more draft once the rewrites are spent: the model words a note from sentences
        code picked from the pages read, and code cites them (`pipeline.drafting.focused`). None
        when there is nothing to word it from, no time, or nothing usable came back."""
        sentences = sentences_on_the_claims(self.s.context())
        if not sentences or self.s.seconds_left() < MIN_SECONDS_FOR_A_CALL:
            return None
        await self.s.tell("writing", "from the sentences read")
        subject = subject_of(self.s.context(), sentences)
        messages = focused_messages(subject, [s for _, s in sentences])
        try:
            reply = await self.s.ask(messages, FocusedNote, self.s.deadline)
        except (ModelTimeout, ModelOutputInvalid) as e:
            await self.s.record("error", {}, f"the focused write failed: {e}")
            return None
        draft = focused_draft(reply.value, sentences)
        if draft is None:
            await self.s.record(
                "write", reply.value.model_dump(), "focused write: no sentence bears on the claims"
            )
            return None
        return await self.do_write(draft, reply, self.s.deadline)

    async def read_what_it_cites(self, action: Write) -> Draft:
        """The draft citing the pages read by their own URLs, after code has read the search
        results it cites unopened that are on the claims (one visit's worth, within the
        budget). Seen with the real model: drafts citing results it never visited, refused
        "Read at least 1 page" five times running. Reading adds nothing to the prose; the
        checks then judge the pages."""
        cited = [self.research.known_spelling(u) for u in action.cited_urls()]
        unopened = [
            u for u in cited if u not in self.s.evidence and u in self.research.found.results
        ]
        if unopened and self.s.seconds_left() >= MIN_SECONDS_FOR_A_CALL:
            await self.research.read_best("a page the draft cites", unopened)
        context = self.s.context()
        return citing_read_pages(context, Draft.parse(action, context.read))

    def too_soon_to_write(self) -> list[Finding]:
        """The budget's minimums of research before a draft is considered."""
        findings: list[Finding] = []
        if (
            len(self.research.found.queries) < self.s.b.min_searches_before_write
        ):  # searches run, not begun
            findings.append(
                Finding(
                    RuleId.TOO_FEW_SEARCHES,
                    f"Search at least {self.s.b.min_searches_before_write} time(s) before writing.",
                )
            )
        if len(self.s.evidence) < self.s.b.min_visits_before_write:
            findings.append(
                Finding(
                    RuleId.TOO_FEW_READS,
                    f"Read at least {self.s.b.min_visits_before_write} page(s) before writing.",
                )
            )
        return findings

    def why_no_note(self, findings: list[Finding]) -> str:
        """The reason on the card when no draft passed: what the evidence was, and what the
        last draft said wrong. Never the draft's form (its length, a cut sentence, a citation
        spelt wrong): code repairs what it can of that, and the rest is the model's, in the
        trajectory."""
        found = self.what_was_found(findings)
        return f"no note passed the checks after {self.s.b.max_rewrites} rewrites: {found}"

    def what_was_found(self, findings: list[Finding] | None = None) -> str:
        """The pages read and how many are on the claims, then what the last refused draft
        said wrong (`findings`, else the episode's last refusal): the reason a card gives when
        time or drafts ran out, about the evidence and never the model's speed or form."""
        read = len(self.s.evidence)
        context = self.s.context()
        on_topic = sum(context.about_the_claims(u) for u in self.s.evidence)
        pages = f"{read} page{'s' if read != 1 else ''} read"
        evidence = (
            "no page was read"
            if not read
            else f"none of the {pages} is about the claims"
            if not on_topic
            else f"{on_topic} of the {pages} {'is' if on_topic == 1 else 'are'} about the claims"
        )
        kinds = what_was_said_wrong(self.drafts.last_refused if findings is None else findings)
        said = f"; the last draft {'; '.join(kinds)}" if kinds else ""
        return evidence + said

    async def check_support(
        self, draft: Draft, until: float
    ) -> tuple[bool | None, list[Finding], set[int]]:
        """(ran, findings, the sentences not supported): each sentence against the sources
        cited for it. `ran` is None when the loop deadline cut the check before the final
        phase (it runs there, in the reserve)."""
        context = self.s.context()
        messages = support_request(context, draft)
        asked = "\n".join(m.content for m in messages)
        try:
            verdicts = self.drafts.support_answers.get(asked)
            if verdicts is None:
                verdicts = (await self.s.ask(messages, SupportVerdicts, until)).value
                self.drafts.support_answers[asked] = verdicts
        except ModelTimeout as e:
            if until < self.s.deadline:
                return None, [], set()
            await self.s.record("error", {}, f"support check could not run: {e}")
            return False, [], set()
        except ModelOutputInvalid as e:
            await self.s.record("error", {}, f"support check could not run: {e}")
            return False, [], set()
        findings = check_findings(context, draft, verdicts, by_quotes=self.s.b.support_by_quotes)
        return True, findings, {f.sentence for f in findings if f.sentence}
