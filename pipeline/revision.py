"""A stored note written again from the pages read for it, with feedback (X's evaluator's
score), through every check an episode's draft passes (`pipeline.draft_checks`).

A revision that fails a check is dropped, never shown: code only removes (sentences,
sources off the topic), the model may not bring in a page that was not read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.brief import VerificationBrief
from pipeline.draft_checks import DraftChecks, Verdict, support_findings
from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.note_text import assemble_note
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.prompts import NoteRevision, revision_messages
from pipeline.vocabulary import load_word_lists


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
        checks = DraftChecks(draft.post, evidence, draft.brief)
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
            decision = checks.decide(checks.citing_read_pages(reply.value.action))
            if decision.verdict == Verdict.REFUSED:
                return Revision(problems=[f.feedback for f in decision.findings])
            action = decision.action
            if decision.verdict == Verdict.TO_MODEL:
                sentences, messages = checks.support_request(action)
                verdicts = await self.model.structured(
                    messages, SupportVerdicts, timeout_s=self.timeout_s
                )
                findings = support_findings(
                    sentences, verdicts.value, checks.borne_out_by_code(action)
                )
                if findings:
                    unsupported = {f.sentence for f in findings if f.sentence}
                    kept = checks.without_unsupported(action, unsupported)
                    if kept is None:
                        return Revision(problems=[f.feedback for f in findings])
                    action = kept
        except (ModelTimeout, ModelOutputInvalid) as e:
            return Revision(problems=[f"the revision could not be written: {e}"])
        note = assemble_note(action.text, action.cited_urls())
        return Revision(note=note.text, urls=note.urls, char_count=note.length)
