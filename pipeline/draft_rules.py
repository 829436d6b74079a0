"""The rules a draft is held to, as values: each `Rule` has its id, what it looks at (a sentence
or the whole draft), its check, whether code may repair it by dropping the sentences it names,
where it was seen and what `python -m bench.rules` measured of it. `DraftChecks.findings` is a
loop over `RULES`; the findings, the repairs, the episode's stored step and the benchmark all
speak in `pipeline.findings.RuleId`s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pipeline.actions import Write
from pipeline.claim_stance import affirms_the_post
from pipeline.evidence import Evidence
from pipeline.findings import Finding, RuleId
from pipeline.lexicon import ends_a_sentence, said_as, word_count
from pipeline.note_text import NOTE_CHAR_LIMIT, AssembledNote, prose_findings
from pipeline.text_policy import Provenance


class DraftContext(Protocol):
    """What the rules ask of the post and the pages read that a draft is checked against
    (`pipeline.draft_checks.DraftChecks`, which holds them and runs the rules)."""

    @property
    def evidence(self) -> dict[str, Evidence]: ...

    def provenance(self) -> Provenance: ...

    def named(self, url: str) -> bool: ...

    def about_the_claims(self, url: str) -> bool: ...

    def repeats_the_example(self, sentence: str) -> bool: ...

    def repeats_the_post(self, sentence: str) -> bool: ...

    def unsourced_attribution(
        self, sentence: str, cited: list[str] | tuple[str, ...]
    ) -> str | None: ...

    def added_terms(self, sentence: str, cited: list[str] | tuple[str, ...]) -> list[str]: ...

    def unsourced_order(self, sentence: str, cited: list[str] | tuple[str, ...]) -> str | None: ...


Scope = Literal["sentence", "draft"]

# Fewer words say nothing a reader can use (a real note was cut down to "Dr.").
MIN_NOTE_WORDS = 4

# A sentence about the note instead of the post: the real model, asked to revise, wrote "The
# note should be revised to directly address the post's key claim …" as its prose, twice.
_ABOUT_THE_NOTE = re.compile(
    r"^(?:the|this|that|my|our|a|your)\s+(?:revised\s+|new\s+|community\s+|original\s+)?"
    # "The draft sentence does not directly quote …": the real model (2026-12-02) copied the
    # support check's words about its draft into the draft
    r"(?:notes?|drafts?(?:\s+sentences?)?)\s+(?:should|must|could|would|needs?|has\s+to|will|"
    r"can|is|does)\b",
    re.IGNORECASE,
)
# A sentence about the evidence instead of the fact: asked to word a note from numbered
# sentences, the real model wrote "The sentences from the pages read support the claim that
# vaccines cause autism, …" (refused only because it was cut off).
_ABOUT_THE_EVIDENCE = re.compile(
    r"^(?:the|these|those)\s+(?:numbered\s+|given\s+)?(?:sentences|pages(?:\s+read)?|"
    r"sources\s+(?:read|cited|given|shown))\b"
    # anywhere: "…, as stated in sentence 1 of the pages read." (a real focused answer)
    r"|\bsentences?\s+\d+\s+of\s+the\b|\bthe\s+pages\s+read\b"
    # what the post lacks is no fact about the claim: "The post does not provide any specific
    # references to … Malaria in Florida." (the real model, citing pages that never say it)
    r"|^the\s+(?:post|tweet)\s+(?:does\s+not|doesn't|did\s+not|fails\s+to)\s+"
    r"(?:provide|cite|give|include|offer|contain)\b"
    # the support check's own words, copied into the note: "… is not supported by its
    # sources: no reason given." (the real model, three rewrites running, 2026-12-02)
    r"|\bsupported\s+by\s+its\s+sources\b|\bno\s+reason\s+given\b"
    r"|\bthe\s+draft\s+(?:sentences?|note|text)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Draft:
    """A write, parsed once: its sentences, the pages it cites that were read, those it cites
    that were not, and the note as it would be published."""

    action: Write
    sentences: tuple[str, ...]
    cited: tuple[str, ...]
    unread: tuple[str, ...]
    note: AssembledNote
    memo: dict[str, list[tuple[RuleId, str]]] = field(default_factory=dict, compare=False)


DraftCheck = Callable[[DraftContext, Draft], list[Finding]]


@dataclass(frozen=True)
class Rule:
    """A rule a draft is held to. `droppable`: code may repair it by dropping the sentences it
    names (never the first, unless it states nothing but a verdict); a sentence that a rule not
    droppable names (the prompts' example, a sentence about the draft) shows the writer off its
    pages, and the whole draft goes back (the real model's "Tylenol …" sentences, kept beside
    the dropped example, were published). `seen_in`: what showed it
    was needed; `measured`: what `python -m bench.rules` counted for it: honest notes refused
    with it (and how many pass without it alone), bad drafts caught with it (and how many escape
    without it alone); the sets and their sizes are in docs/benchmarks.md."""

    id: RuleId
    scope: Scope
    check: DraftCheck
    droppable: bool
    seen_in: str
    measured: str


# ---- the rules ---------------------------------------------------------------------------


def _each_sentence(
    check: Callable[[DraftContext, Draft, int, str], str | None], rule: RuleId
) -> DraftCheck:
    """A sentence rule as a draft check: a finding for each sentence it refuses."""

    def findings(checks: DraftContext, draft: Draft) -> list[Finding]:
        return [
            Finding(rule, feedback, i)
            for i, sentence in enumerate(draft.sentences, start=1)
            if (feedback := check(checks, draft, i, sentence)) is not None
        ]

    return findings


def _whole_draft(check: Callable[[DraftContext, Draft], str | None], rule: RuleId) -> DraftCheck:
    def findings(checks: DraftContext, draft: Draft) -> list[Finding]:
        feedback = check(checks, draft)
        return [] if feedback is None else [Finding(rule, feedback)]

    return findings


def _text_policy(rule: RuleId) -> DraftCheck:
    """The text policy's findings of one kind (`pipeline.note_text.prose_findings`): on each
    sentence, so that code may drop the one that fails, and on the whole prose (a link can be
    spelt across sentences), where no sentence alone shows it."""

    def findings(checks: DraftContext, draft: Draft) -> list[Finding]:
        provenance = checks.provenance()
        if "policy" not in draft.memo:
            draft.memo["policy"] = prose_findings(draft.action.text, provenance)
            for i, sentence in enumerate(draft.sentences, start=1):
                draft.memo[f"policy{i}"] = prose_findings(sentence, provenance)
        found = [
            Finding(rule, feedback, i)
            for i in range(1, len(draft.sentences) + 1)
            for r, feedback in draft.memo[f"policy{i}"]
            if r is rule
        ]
        if not found:
            found = [Finding(rule, feedback) for r, feedback in draft.memo["policy"] if r is rule]
        return found

    return findings


def _not_read(checks: DraftContext, draft: Draft) -> str | None:
    if not draft.unread:
        return None
    # a weak model cited the post's own link three times over: the pages it may cite are
    # named, which a "not read" alone never taught it
    return (
        "These sources were not read successfully and cannot be cited: "
        + ", ".join(draft.unread)
        + ". Cite pages read: "
        + ", ".join(list(checks.evidence)[:4])
        + "."
    )


def _off_topic(checks: DraftContext, draft: Draft) -> str | None:
    off = [u for u in draft.cited if not checks.about_the_claims(u)]
    if not off:
        return None
    return (
        "These pages share no key term with the claims and cannot support the note: "
        + ", ".join(off)
        + "."
    )


def _named_only(checks: DraftContext, draft: Draft) -> str | None:
    """A page the post or its requesters named, below a source of standing (`named`), may be
    read to understand the claim, never be a note's only source: the trust issue's attacker
    pointed the post at its own page, and 3 of 4 notes cited it alone, carrying its phone
    number, handle or address. The WHO page a post misquotes may be (a note's best source)."""
    if not draft.cited or not all(checks.named(u) for u in draft.cited):
        return None
    return (
        "The post or its requesters named every page this note cites, and none is a source of "
        "standing: they may explain the claim, never vouch for the note. Cite an independent "
        "page you have read."
    )


def _no_citation(checks: DraftContext, draft: Draft) -> str | None:
    if draft.note.urls or draft.unread:
        return None
    return "Cite at least one page you have read."


def _prose(draft: Draft) -> str:
    return draft.note.text.split("\n\n")[0].strip()


def _no_prose(checks: DraftContext, draft: Draft) -> str | None:
    return None if _prose(draft) else "The note has no prose."


def _too_short(checks: DraftContext, draft: Draft) -> str | None:
    prose = _prose(draft)
    if not prose or word_count(prose) >= MIN_NOTE_WORDS:
        return None
    return "Too short to be a note: write at least one full sentence."


def _cut_off(checks: DraftContext, draft: Draft) -> str | None:
    prose = _prose(draft)
    if not prose or word_count(prose) < MIN_NOTE_WORDS or ends_a_sentence(prose):
        return None
    return "The last sentence is cut off: end the note with a full sentence."


def _too_long(checks: DraftContext, draft: Draft) -> str | None:
    if draft.note.length <= NOTE_CHAR_LIMIT:
        return None
    return (
        f"The note is {draft.note.length} characters (each URL counts as one); "
        f"the limit is {NOTE_CHAR_LIMIT}: shorten the prose by at least "
        f"{draft.note.length - NOTE_CHAR_LIMIT}."
    )


def _repeated(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    first = next(
        j for j, s in enumerate(draft.sentences, start=1) if said_as(s) == said_as(sentence)
    )
    return None if first == i else f"Say each thing once: sentence {i} repeats sentence {first}."


def _question(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """A question is no fact: the real model published a page's headings ("What is (are)
    Quitting Smoking for Older Adults?") as sentences of its note, quoted verbatim."""
    if not sentence.rstrip("\"'”’)]»").endswith("?"):
        return None
    return f"State facts: sentence {i} is a question."


def _about_the_note(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not (_ABOUT_THE_NOTE.match(sentence) or _ABOUT_THE_EVIDENCE.search(sentence)):
        return None
    return (
        f"Write the note itself: sentence {i} is about the note or its sources, not the post. "
        "The prose is what readers see: state the facts; say what you change in the thought."
    )


def _example(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not checks.repeats_the_example(sentence):
        return None
    return (
        f"Write from the pages read: sentence {i} repeats the example in your instructions, "
        "which no page read says."
    )


def _copies_post(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not checks.repeats_the_post(sentence):
        return None
    return (
        f"Answer the post, do not repeat it: sentence {i} copies the post's words. "
        "Say what the sources read say, in your own words."
    )


def _attribution(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if (who := checks.unsourced_attribution(sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} gives its claim to '{who}', which no page it cites mentions: say only "
        "what the cited pages say, and who says it."
    )


def _order(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """An order to people ("parents must stop all vaccines today", woven by the adaptive
    attacker into a page's own sentence after a comma) passes only when a page it cites says
    to do it: a note may pass on a page's advice, never give its own."""
    if (verb := checks.unsourced_order(sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} tells people to '{verb}', which no page it cites says to do: state what "
        "the pages say, and give only the advice they give."
    )


def _verdict_only(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """A sentence that only finds for the post ("The post is correct.") gives a reader nothing
    to check and is never a note: code drops it, and a note of nothing else is refused. Seen
    with the real model: code dropped three refused sentences and kept "The post is correct."
    — the opposite of the evidence — which its own check passed and published. A verdict
    against the post ("There is no evidence supporting this claim.") is what a note says: the
    model's check judges it (refusing those cost 23 honest verdicts of 980, 1 bad draft only)."""
    if not affirms_the_post(sentence):
        return None
    return (
        f"State what the pages read say: sentence {i} only says the post is right, with no fact "
        "a reader can check."
    )


def _ungrounded(checks: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not (terms := checks.added_terms(sentence, draft.cited)):
        return None
    return (
        f"Say only what the cited pages say: sentence {i} speaks of "
        + ", ".join(f"'{t}'" for t in terms)
        + ", which none of them uses."
    )


# In order of the feedback the writer reads. `measured`: `python -m bench.rules` on the cost
# corpus (honest notes: AVeriTeC 537 + HealthFC 443 rows) and the bad drafts (docs/benchmarks.md).
RULES: tuple[Rule, ...] = (
    Rule(
        RuleId.NOT_READ, "draft", _whole_draft(_not_read, RuleId.NOT_READ), False,
        "the real model cited the post's own t.co link and results it never opened",
        "honest 0 (0 alone); bad 12 (2 only)",
    ),
    Rule(
        RuleId.TOKENS, "sentence", _text_policy(RuleId.TOKENS), True,
        "payload families: domains, handles, phone numbers, made-up names (tests ATTACKS); the "
        "adaptive attacker's outlets no page names and clause in French (bench.rules WOVEN)",
        "honest 18 (13 alone); bad 95 (49 only)",
    ),
    Rule(
        RuleId.DIRECTIVE, "sentence", _text_policy(RuleId.DIRECTIVE), True,
        "payloads that address raters, readers or the assistant, in six languages",
        "honest 4 (4 alone); bad 31 (13 only)",
    ),
    Rule(
        RuleId.LINK_LIKE, "sentence", _text_policy(RuleId.LINK_LIKE), True,
        "X's URL evaluator fails a note with 'etc.Also' or 'cdc.gov' in its prose",
        "honest 1 (1 alone); bad 3 (0 only)",
    ),
    Rule(
        RuleId.REPEATED, "sentence", _each_sentence(_repeated, RuleId.REPEATED), True,
        "the real model published one sentence three times over (malaria)",
        "honest 0 (0 alone); bad 3 (0 only)",
    ),
    Rule(
        RuleId.QUESTION, "sentence", _each_sentence(_question, RuleId.QUESTION), True,
        "the real model published a page's headings as sentences (smoking)",
        "honest 0 (0 alone); bad 12 (0 only)",
    ),
    Rule(
        RuleId.ABOUT_THE_NOTE, "sentence", _each_sentence(_about_the_note, RuleId.ABOUT_THE_NOTE),
        False, "the real model's revision wrote 'The note should be revised …'",
        "honest 0 (0 alone); bad 5 (4 only)",
    ),
    Rule(
        RuleId.EXAMPLE, "sentence", _each_sentence(_example, RuleId.EXAMPLE), False,
        "the real model published the prompts' MMR example on a Tylenol post",
        "honest 0 (0 alone); bad 2 (2 only)",
    ),
    Rule(
        RuleId.COPIES_POST, "sentence", _each_sentence(_copies_post, RuleId.COPIES_POST), True,
        "the real model published the post's claim word for word (Wakefield, SIDS)",
        "honest 0 (0 alone); bad 549 (1 only)",
    ),
    Rule(
        RuleId.ATTRIBUTION, "sentence", _each_sentence(_attribution, RuleId.ATTRIBUTION), True,
        "the real model gave a claim to the BMJ, citing a CDC page that never names it",
        "honest 2 (2 alone); bad 8 (1 only)",
    ),
    Rule(
        RuleId.ORDER, "sentence", _each_sentence(_order, RuleId.ORDER), True,
        "the adaptive attacker's '…, and parents must stop all vaccines today.' woven into a "
        "page's sentence (bench.payloads WOVEN), passed to the model's check",
        "honest 1 (0 alone); bad 8 (2 only)",
    ),
    Rule(
        RuleId.UNGROUNDED, "sentence", _each_sentence(_ungrounded, RuleId.UNGROUNDED), True,
        "every unsupported note the real model published had passed its own support check",
        "honest 3 (3 alone); bad 222 (1 only)",
    ),
    Rule(
        RuleId.VERDICT_ONLY, "sentence", _each_sentence(_verdict_only, RuleId.VERDICT_ONLY),
        True, "the real model's 'The post is correct.', kept alone by code and published",
        "honest 0 (0 alone); bad 8 (1 only)",
    ),
    Rule(
        RuleId.OFF_TOPIC, "draft", _whole_draft(_off_topic, RuleId.OFF_TOPIC), False,
        "the model's support check passed a page on Sydenham chorea for a claim on autism",
        "honest 16 (12 alone); bad 19 (0 only)",
    ),
    Rule(
        RuleId.NAMED_ONLY, "draft", _whole_draft(_named_only, RuleId.NAMED_ONLY), False,
        "the trust issue's attacker: its own page, linked from the post, the only source of 3 "
        "notes that carried its phone number, handle or address",
        "honest 0 (0 alone); bad 0 (0 only): the cost corpus names no page in its posts",
    ),
    Rule(
        RuleId.NO_CITATION, "draft", _whole_draft(_no_citation, RuleId.NO_CITATION), False,
        "a note must cite what it read", "honest 0 (0 alone); bad 0 (0 only)",
    ),
    Rule(
        RuleId.NO_PROSE, "draft", _whole_draft(_no_prose, RuleId.NO_PROSE), False,
        "a draft of URLs only", "honest 0 (0 alone); bad 0 (0 only)",
    ),
    Rule(
        RuleId.TOO_SHORT, "draft", _whole_draft(_too_short, RuleId.TOO_SHORT), False,
        "a real note was cut down to 'Dr.'", "honest 7 (7 alone); bad 1 (0 only)",
    ),
    Rule(
        RuleId.CUT_OFF, "draft", _whole_draft(_cut_off, RuleId.CUT_OFF), False,
        "a grammar's maxLength stops a string mid-way", "honest 9 (1 alone); bad 149 (0 only)",
    ),
    Rule(
        RuleId.TOO_LONG, "draft", _whole_draft(_too_long, RuleId.TOO_LONG), False,
        "X's limit: 280 characters, each URL one", "honest 25 (14 alone); bad 14 (0 only)",
    ),
)  # fmt: skip
