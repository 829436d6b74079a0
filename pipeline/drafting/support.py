"""Whether a draft's sentences are borne out by the pages they cite: by code, when a cited
page's sentence holds every word and number of one (no model call), else by the model's
support check, whose request is built here and whose verdicts become findings."""

from __future__ import annotations

from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding
from pipeline.drafting.grounding import restates_a_claim, ungrounded_terms
from pipeline.drafting.prompts import support_messages
from pipeline.drafting.rules import RuleId
from pipeline.drafting.stance import reports_a_claim
from pipeline.drafting.words import content_words, negated, numbers, page_sentences, stems
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatMessage


def quotes_bear_out(context: DraftContext, draft: Draft) -> bool:
    """Every sentence is borne out by code (`borne_out_by_code`): no model call needed."""
    return len(borne_out_by_code(context, draft)) == len(draft.sentences)


def borne_out_by_code(context: DraftContext, draft: Draft) -> set[int]:
    """The sentences (1-based) borne out by their quotes: each verbatim on its page (its
    quotes or excerpt), the model's or, failing those, one sentence of a cited page, holding
    every content word (stem) and number of the sentence, negated as the sentence is (or
    neither). The model checks the others, and its verdict does not overrule these: a lexical
    test may pass only a sentence made of its sources' words, since one swapped word ("autism"
    for "measles") changes the claim. A page sentence that reports a claim to refute it
    ("Someone has claimed that …", a question) bears out nothing, and a sentence that restates
    a claim with its polarity is left to the model."""
    # a page the post named vouches for nothing (`named`): not even code's comparison
    cited = context.vouching(draft.action.cited_urls())
    page_sentences_cited = [s for s in sentences_of(context, cited) if not reports_a_claim(s)]
    borne: set[int] = set()
    for i, sentence in enumerate(draft.sentences, start=1):
        words = stems(sentence)
        if len(words) < 2 or restates_a_claim(context, sentence):
            continue
        quotes = [
            quote
            for s in draft.action.support
            if s.url.strip() in cited
            and (quote := verbatim_quote(context, s.url.strip(), s.quote))
            and words & stems(quote)
            and not reports_a_claim(quote)
        ]
        if _bears_out(sentence, quotes) or any(
            _bears_out(sentence, [s]) for s in page_sentences_cited
        ):
            borne.add(i)
    return borne


def sentences_of(context: DraftContext, urls: list[str]) -> list[str]:
    """The sentences of the pages read at `urls` (their excerpts and quotes): where code
    looks for one that bears a note's sentence out when the model quoted another (seen with
    the real model: "The FDA has not approved Ivermectin for COVID-19.", its page's own words,
    refused by its support check for quoting the wrong sentence)."""
    return [
        s
        for u in urls
        for text in (*context.evidence[u].quotes, context.evidence[u].excerpt)
        for s in page_sentences(text)
    ]


def verbatim_quote(context: DraftContext, url: str, quote: str) -> str:
    """The quote, whitespace normalised, when the page read at `url` holds it; else ""."""
    evidence = context.evidence.get(url)
    quote = " ".join(quote.split())
    if evidence is None or len(quote) < 20:
        return ""
    page = " ".join(" ".join([*evidence.quotes, evidence.excerpt]).split())
    return quote if quote in page else ""


def _bears_out(sentence: str, quotes: list[str]) -> bool:
    """The quotes together hold every content word (stem) and number of the sentence, and one
    of them is negated as the sentence is (or none is)."""
    said = " ".join(quotes)
    return (
        stems(sentence) <= stems(said)
        and numbers(sentence) <= numbers(said)
        and any(negated(q) == negated(sentence) for q in quotes)
    )


def support_request(
    context: DraftContext, draft: Draft, mark_unused: bool = True
) -> list[ChatMessage]:
    """The messages asking the model whether each of the draft's sentences is borne out by
    the sources cited for it; each sentence marked with the claims' words it speaks of that
    none of them uses (`unused_terms`), the one question code cannot answer.
    `mark_unused=False` is the prompt before that marking, for the benchmark's comparison."""
    support = cited_for_each(context, draft)
    unused = unused_terms(context, draft, support) if mark_unused else {}
    # the check judges by the pages that may vouch: never one the post named (`named`)
    sources = [context.evidence[u] for u in context.vouching(draft.action.cited_urls())]
    return support_messages(list(draft.sentences), support, sources, unused)


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
    draft: Draft, verdicts: SupportVerdicts, borne_out: set[int] | None = None
) -> list[Finding]:
    """What the model's verdicts refuse, one finding per sentence not supported; a sentence
    without a verdict is not supported, and one code bore out (`borne_out`) is (seen with the
    real model: "The FDA has not approved Ivermectin for COVID-19.", its page's own words,
    refused for quoting another sentence)."""
    by_index = {v.index: v for v in verdicts.verdicts}
    findings = []
    for i, sentence in enumerate(draft.sentences, start=1):
        if i in (borne_out or set()):
            continue
        verdict = by_index.get(i)
        if verdict is None:
            findings.append(
                Finding(RuleId.UNSUPPORTED, f"Sentence {i} ('{sentence[:80]}') was not checked.", i)
            )
        elif not verdict.supported:
            findings.append(
                Finding(
                    RuleId.UNSUPPORTED,
                    f"Sentence {i} ('{sentence[:80]}') is not supported by its "
                    f"sources: {verdict.problem or 'no reason given'}.",
                    i,
                )
            )
    return findings
