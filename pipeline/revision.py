"""A stored note written again from the pages read for it, with feedback (X's evaluator's
score), through every check an episode's draft passes (`pipeline.drafting`).

A revision that fails a check is dropped, never shown: code only removes (sentences,
sources off the topic), the model may not bring in a page that was not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.brief import VerificationBrief
from pipeline.drafting.context import DraftContext
from pipeline.drafting.decide import Verdict, decide
from pipeline.drafting.draft import Draft
from pipeline.drafting.note import assemble_note
from pipeline.drafting.repair import citing_read_pages, without_unsupported
from pipeline.drafting.support import check_findings, support_request
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.prompts import NoteRevision, revision_messages


def claim_opinion_feedback(score: float, bar: float) -> str:
    return (
        f"It scored {score:.2f}; notes must score at least {bar:.2f}. The score rises when the "
        "note answers the post's central claim head-on with a sourced fact, and falls with "
        "opinion, speculation, hedging and talk about the post."
    )


@dataclass(frozen=True)
class NoteDraft:
    """A note to revise: its prose and the pages it cites, with the post, the brief and the
    pages read for it (the desk makes one from a stored episode)."""

    post: Post
    brief: VerificationBrief | None
    evidence: list[Evidence]
    prose: str
    cited_urls: list[str]


@dataclass
class Revision:
    """The revised note (None when no revision passed the checks) and why not."""

    note: str | None = None
    urls: list[str] = field(default_factory=list)
    char_count: int = 0
    problems: list[str] = field(default_factory=list)


class EpisodeReviser:
    def __init__(self, model: ChatModel, *, timeout_s: float = 120.0) -> None:
        self.model = model
        self.timeout_s = timeout_s

    async def revise(self, draft: NoteDraft, feedback: str) -> Revision:
        language = draft.brief.language.split("-")[0].lower() if draft.brief else "en"
        await load_word_lists(language)  # read off the event loop, once a process
        evidence = {e.url: e for e in draft.evidence}
        context = DraftContext.of(draft.post, evidence, draft.brief)
        prose = draft.prose
        sources = [evidence[u] for u in draft.cited_urls if u in evidence] or list(
            evidence.values()
        )
        try:
            reply = await self.model.structured(
                revision_messages(draft.post, prose, sources, feedback),
                NoteRevision,
                timeout_s=self.timeout_s,
            )
            parsed = Draft.parse(reply.value.action, context.read)
            decision = decide(context, citing_read_pages(context, parsed))
            if decision.verdict == Verdict.REFUSED:
                return Revision(problems=[f.feedback for f in decision.findings])
            decided = decision.draft
            if decision.verdict == Verdict.TO_MODEL:
                verdicts = await self.model.structured(
                    support_request(context, decided), SupportVerdicts, timeout_s=self.timeout_s
                )
                # code's own word is off here as in an episode's default (`decide`'s too)
                findings = check_findings(context, decided, verdicts.value)
                if findings:
                    unsupported = {f.sentence for f in findings if f.sentence}
                    kept = without_unsupported(context, decided, unsupported)
                    if kept is None:
                        return Revision(problems=[f.feedback for f in findings])
                    decided = kept
        except (ModelTimeout, ModelOutputInvalid) as e:
            return Revision(problems=[f"the revision could not be written: {e}"])
        note = assemble_note(decided.text, decided.action.cited_urls())
        return Revision(note=note.text, urls=note.urls, char_count=note.length)
