"""Whether a note speaks of the post's claim itself: some sentence shares a word of the
claims, beyond the words a note judges a claim with ("false", "evidence") and those that speak
of a source's standing ("reputable organization", "trusted information"). "The CDC adds
poisoning deaths to the COVID tally" asks for poisoning, deaths, COVID or the tally; "The CDC
is a reputable organization that provides accurate and reliable health information" speaks of
none of them. A note that shares none of them may still judge the claim in other words ("Claim
denied in answers.", "Not a WHO approved treatment."); a neighbouring fact judges nothing
("Measles is a highly contagious disease …" on "The MMR vaccine causes autism")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.drafting.context import DraftContext
from pipeline.drafting.stance import DENYING_STEMS, JUDGING_STEMS
from pipeline.drafting.words import (
    LETTERS,
    content_words,
    everyday,
    negated,
    numbers,
    stem,
    stems,
)

# Words this common say nothing of a claim ("that", "have", "their", "being"): a sentence
# sharing only them shares nothing.
FUNCTION_WORD_ZIPF = 5.8

# What a sentence on a source's standing is made of, beside its name (the judging words hold
# "reputable", "reliable", "credible", "accurate").
STANDING_STEMS = frozenset(
    stem(w)
    for w in """organization organisation organizations agency agencies institution authority
    authorities information informed trusted trustworthy respected leading renowned recognized
    recognised official officials source sources provides provide provided guidance""".split()
)


# A sentence that judges the claim by pointing at it ("There is no evidence that this is
# true.", "Studies to date are too deficient to answer this question."): it speaks of the claim
# without its words; an off-claim note states another fact instead. Without this and
# `JUDGES_THE_EVIDENCE`, the rule added 64 refusals of people's verdicts; with them, 43 (62 ->
# 105 of 980; bench.rules, 2026-12-03); the hand-made off-claim notes caught: 7 of 8 either way.
REFERS_TO_THE_CLAIM = re.compile(
    r"\b(?:this|these|such)\s+(?:an?\s+)?(?:\w+\s+)?(?:claims?|questions?|statements?|posts?|"
    r"assertions?|rumou?rs?|stor(?:y|ies)|effects?|figures?|numbers?|quotes?|tweets?|news|"
    r"messages?|allegations?|advice|remedy|remedies|treatments?|cures?|information|issue)\b"
    # "the claim", "the post" point at it; "the treatment" may be another one
    r"|\bthe\s+(?:claims?|posts?|questions?|tweets?|rumou?rs?|allegations?)\b"
    r"|\b(?:this|it)\s+(?:is|was|has\s+been)\s+(?:not\s+|a\s+)?"
    r"(?:true|false|fake|untrue|incorrect|wrong|hoax|satire|misleading|refuted|accurate)\b"
    r"|\bas\s+claimed\b",
    re.IGNORECASE,
)


# A sentence that judges the evidence on the claim, HealthFC's own verdicts on a question:
# "Studies conducted to date are deficient and inconclusive.", "We found only one small study
# with insufficient power." A sentence on a source's standing judges no evidence.
JUDGES_THE_EVIDENCE = re.compile(
    r"^(?=.*\b(?:stud(?:y|ies)|evidence|research|trials?|data)\b)"
    r"(?=.*\b(?:no|not|none|inconclusive|lacking|missing|deficient|insufficient|poor|"
    r"contradict\w*|unclear|flaw\w*|weak|scant|little|only\s+one)\b)",
    re.IGNORECASE,
)


def claim_subject(context: DraftContext) -> frozenset[str]:
    """The stems of the claims' content words, less function words and the judging and
    standing words."""
    words = content_words(" ".join(context.claims()))
    said = {stem(w) for w in words if not everyday(w, FUNCTION_WORD_ZIPF)}
    return frozenset(said - JUDGING_STEMS - STANDING_STEMS)


def subject_words(context: DraftContext, most: int = 6) -> list[str]:
    """The claims' words whose stems are `claim_subject`, as written, in order, once each: what
    the writer is told to answer."""
    subject = claim_subject(context)
    by_stem: dict[str, str] = {}
    for word in LETTERS.findall(" ".join(context.claims())):
        if (root := stem(word.lower())) in subject:
            by_stem.setdefault(root, word)
    return list(by_stem.values())[:most]


def speaks_of_the_claims(context: DraftContext, sentences: Iterable[str]) -> bool:
    """Some sentence shares a stem of `claim_subject` or a number of the claims ("CDC
    estimates 28,000 deaths from influenza, not 80,000."), or points at the claim to judge it
    (`REFERS_TO_THE_CLAIM`) or the evidence on it (`JUDGES_THE_EVIDENCE`). Claims with no such
    stem (every word common or of three letters or fewer) have nothing code can hold a note
    to, and pass."""
    subject = claim_subject(context)
    claimed = numbers(" ".join(context.claims()))
    return not subject or any(
        subject & stems(s)
        or claimed & numbers(s)
        or REFERS_TO_THE_CLAIM.search(s)
        or JUDGES_THE_EVIDENCE.search(s)
        for s in sentences
    )


# Words that praise a source: with one of `STANDING_STEMS`, a sentence on a source's standing.
PRAISE_STEMS = frozenset(
    stem(w)
    for w in """reputable reliable credible trusted trustworthy respected leading renowned
    recognized recognised accurate authoritative""".split()
)


def speaks_of_standing(sentences: Iterable[str]) -> bool:
    """Some sentence praises a source: one of `STANDING_STEMS` and one of `PRAISE_STEMS` ("The
    CDC is a reputable organization that provides accurate and reliable health
    information")."""
    return any(STANDING_STEMS & (words := stems(s)) and PRAISE_STEMS & words for s in sentences)


def judges_something(sentences: Iterable[str]) -> bool:
    """Some sentence judges: it holds a word a note judges a claim with ("false", "evidence",
    "study", "myth", "fake") or a negation ("no", "not", "never"). People's verdicts that share
    no word of their claim do ("Claim denied in answers.", "Not supported by WHO."); another
    fact on the claim's topic, stated as such, does not ("The CDC recommends that people wear
    masks in public settings." on what Alex Jones said of outdoor gatherings)."""
    return any(negated(s) or (JUDGING_STEMS | DENYING_STEMS) & stems(s) for s in sentences)


# A name in capitals too short to be a key term ("MMR", "NHS", "HIV"): a note naming what the
# claims name speaks of their subject ("The MMR vaccine is very safe and effective." on "The
# MMR shot gives every kid a raging fever").
SHORT_NAME = re.compile(r"\b[A-Z][A-Z0-9]{1,3}\b")


def names_what_the_claims_name(context: DraftContext, sentences: Iterable[str]) -> bool:
    """Some sentence holds a `SHORT_NAME` of the claims."""
    named = set(SHORT_NAME.findall(" ".join(context.claims())))
    return any(named & set(SHORT_NAME.findall(s)) for s in sentences)
