"""Whether a draft's sentences are borne out by the pages they cite: by code, when a sentence
is, word for word, one a cited page of standing asserts (no model call), else by the model's
blind support check, whose request is built here and whose verdicts become findings."""

from __future__ import annotations

from pipeline.drafting.carried import quote_problem
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding
from pipeline.drafting.grounding import restates_a_claim, ungrounded_terms
from pipeline.drafting.prompts import CheckedClause, support_messages
from pipeline.drafting.provenance import normalise
from pipeline.drafting.rules import RuleId
from pipeline.drafting.stance import asserts, said_on_its_own_word
from pipeline.drafting.words import (
    content_words,
    note_clauses,
    page_sentences,
    stems,
)
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatMessage


def quotes_bear_out(context: DraftContext, draft: Draft) -> bool:
    """Every sentence is borne out by code (`borne_out_by_code`): no model call needed."""
    return len(borne_out_by_code(context, draft)) == len(draft.sentences)


def borne_out_by_code(context: DraftContext, draft: Draft) -> set[int]:
    """The sentences (1-based) borne out by code: each one, word for word (`same_words`), a
    sentence of a vouching page it cites that asserts it (`stance.asserts`: a page sentence
    that reports, attributes or frames a claim, "According to some websites, …", "Some
    parents worry that …", a question, bears out nothing). The model checks the others, and
    its verdict does not overrule these. Anything less than the page's whole sentence is a
    question of meaning: compared as a bag of stems, code published "Getting measles is much
    safer than getting MMR vaccine." from the CDC's "Getting MMR vaccine is much safer than
    getting measles", a double negation, a myth with its frame cut off ("Claim: …; Verdict:
    False.") and words of three letters swapped ("HIV" for "RSV"), 26 drafts of an independent
    red team (#59). A sentence that restates a claim with its polarity is left to the model."""
    # only a page that may vouch (`DraftContext.vouching`) bears anything out
    cited = context.vouching(draft.action.cited_urls())
    said: dict[tuple[str, ...], list[str]] = {}
    for s in sentences_of(context, cited):
        said.setdefault(same_words(s), []).append(s)
    borne: set[int] = set()
    for i, sentence in enumerate(draft.sentences, start=1):
        if len(stems(sentence)) < 2 or restates_a_claim(context, sentence):
            continue
        if any(asserts(s, sentence) for s in said.get(same_words(sentence), [])):
            borne.add(i)
    return borne


def same_words(sentence: str) -> tuple[str, ...]:
    """A sentence's words as code compares two: lower-cased, the punctuation around them
    stripped ("Measles is deadly." and "measles is deadly" are the same words)."""
    words = (w.strip("()[]\"'“”‘’«».,;:!?…*").lower() for w in normalise(sentence).split())
    return tuple(w for w in words if w)


def sentences_of(context: DraftContext, urls: list[str]) -> list[str]:
    """The sentences of the pages read at `urls` (their excerpts and quotes): where code
    looks for one that bears a note's sentence out when the model quoted another (seen with
    the real model: "The FDA has not approved Ivermectin for COVID-19.", its page's own words,
    refused by its support check for quoting the wrong sentence)."""
    return [
        s
        for u in urls
        for text in (*context.evidence[u].quotes, context.evidence[u].excerpt)
        for s in said_on_its_own_word(page_sentences(text))
    ]


def support_request(
    context: DraftContext, draft: Draft, mark_unused: bool = True
) -> list[ChatMessage]:
    """The messages asking the model whether each clause of the draft is borne out by the
    sources cited for it (`checked_clauses`). Blind: only the clauses and the pages that may
    vouch (`DraftContext.vouching`), never the post, its requesters, the brief or the
    lessons. `mark_unused=False` is the prompt before the marking of the words no source
    uses, for the benchmark's comparison."""
    sources = [context.evidence[u] for u in context.vouching(draft.action.cited_urls())]
    return support_messages(checked_clauses(context, draft, mark_unused), sources)


def checked_clauses(
    context: DraftContext, draft: Draft, mark_unused: bool = True
) -> list[CheckedClause]:
    """The draft's clauses as the check numbers them (`numbered_clauses`), each with the
    sources cited for its sentence (`cited_for_each`) and the words of the claims it speaks
    of that none of them uses (`unused_terms`), the one question code cannot answer."""
    support = cited_for_each(context, draft)
    unused = unused_terms(context, draft, support) if mark_unused else {}
    return [
        CheckedClause(
            sentence=i,
            text=clause,
            cites=tuple(support.get(i, [])),
            unused=tuple(t for t in unused.get(i, []) if t.lower() in clause.lower()),
        )
        for i, clause in numbered_clauses(draft)
    ]


def numbered_clauses(draft: Draft) -> list[tuple[int, str]]:
    """(sentence number, clause) for every clause of the draft, in order: the check's
    numbering, from 1."""
    return [(i, c) for i, s in enumerate(draft.sentences, start=1) for c in note_clauses(s)]


def cited_for_each(context: DraftContext, draft: Draft) -> dict[int, list[str]]:
    """Each sentence's (1-based) sources: those whose supported claim shares two content
    words with it; none means the draft's sources as a whole."""
    cited: dict[int, list[str]] = {}
    for i, sentence in enumerate(draft.sentences, start=1):
        words = content_words(sentence)
        cited[i] = [
            s.url.strip()
            for s in draft.action.support
            if len(words & content_words(s.claim)) >= 2 and context.vouches(s.url.strip())
        ]
    return cited


def unused_terms(
    context: DraftContext, draft: Draft, cited: dict[int, list[str]]
) -> dict[int, list[str]]:
    """For each sentence that has them, its `ungrounded_terms` by its own sources (`cited`:
    `cited_for_each`)."""
    every = draft.action.cited_urls()
    found = {
        i: ungrounded_terms(context, sentence, cited[i] or every)
        for i, sentence in enumerate(draft.sentences, start=1)
    }
    return {i: terms for i, terms in found.items() if terms}


def support_findings(
    context: DraftContext,
    draft: Draft,
    verdicts: SupportVerdicts,
    borne_out: set[int] | None = None,
) -> list[Finding]:
    """What the model's verdicts on the draft's clauses (`numbered_clauses`) refuse: one
    finding per clause not borne out, on its sentence. A clause without a verdict is not borne
    out; a sentence code bore out (`borne_out`) is (seen with the real model: "The FDA has not
    approved Ivermectin for COVID-19.", its page's own words, refused for quoting another
    sentence). A clause the model calls supported is borne out only when its quote is a
    sentence a cited source of standing says on its own word and that sentence carries what
    the clause commits to (`carried.quote_problem`): a checker that obeys the attacker, or is
    too weak to judge, cannot pass a clause no such sentence says (#59)."""
    by_index = {v.index: v for v in verdicts.verdicts}
    cited = draft.action.cited_urls()
    findings = []
    for n, (i, clause) in enumerate(numbered_clauses(draft), start=1):
        if i in (borne_out or set()):
            continue
        verdict = by_index.get(n)
        said = f"Sentence {i} ('{clause[:80]}')"
        if verdict is None:
            findings.append(Finding(RuleId.UNSUPPORTED, f"{said} was not checked.", i))
        elif not verdict.supported:
            why = verdict.problem or "no reason given"
            findings.append(
                Finding(RuleId.UNSUPPORTED, f"{said} is not supported by its sources: {why}.", i)
            )
        elif (problem := quote_problem(context, cited, clause, verdict.quote)) is not None:
            findings.append(
                Finding(RuleId.UNSUPPORTED, f"{said} is not shown supported: {problem}.", i)
            )
    return findings


def check_findings(
    context: DraftContext, draft: Draft, verdicts: SupportVerdicts, *, by_quotes: bool = False
) -> list[Finding]:
    """What the model's check refuses of the draft as the writing step reads it: with code's own
    word on (`by_quotes`, `EVONOTE_BUDGET__SUPPORT_BY_QUOTES`), a sentence code bears out stands
    whatever the model said; off (the default), the verified verdicts alone decide."""
    borne = borne_out_by_code(context, draft) if by_quotes else set()
    return support_findings(context, draft, verdicts, borne)
