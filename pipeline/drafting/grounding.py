"""What a draft's sentences say beyond the pages they cite: the claims' terms no cited page
uses, a name given a claim that no cited page names, an order no cited page gives, the
prompts' example or the post's own words repeated. The rules (`pipeline.drafting.rules`) and
the support check's marking (`pipeline.drafting.support`) ask these of each sentence."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from pipeline.drafting.context import DraftContext, as_read, terms_read
from pipeline.drafting.directives import negated_orders, orders_to_people, what_is_ordered
from pipeline.drafting.prompts import EXAMPLE_NOTE_SENTENCE
from pipeline.drafting.stance import JUDGING_STEMS, denies_a_claim, without_named_claims
from pipeline.drafting.words import (
    ANY_WORD,
    a_run_of,
    clauses,
    content_words,
    copies_a_run,
    everyday,
    key_stems,
    negated,
    page_sentences,
    spelt_as_one_of,
    stem,
    stems,
)
from pipeline.source_quality import STANDING_DOMAINS, page_of, registrable_domain
from pipeline.studies import is_a_study

# Content words (4+ letters) in a row a note may not take from the post: a note answers the
# post, it does not repeat it (human notes copy at most 4 words of any length).
COPIED_RUN = 7


def unsourced_attribution(context: DraftContext, sentence: str, cited: Sequence[str]) -> str | None:
    """The name a sentence gives its claim to ("The BMJ states that …", "According to the
    WHO, …") when none of the pages it cites mentions it (their title, text read or
    address), else None. Seen with the real model: "The BMJ states that the link … is a
    controversial topic", citing a CDC page that never names the BMJ, passed by its own
    support check."""
    if (scholarly := _SCHOLARLY.search(sentence)) is not None and not any(
        speaks_for_studies(context, u) for u in context.vouching(cited)
    ):
        # "studies show" is a study's to say, or a page's that says it of studies: the real
        # 1.5B model's kind cited a gov.uk page that says nothing of any study
        return scholarly["who"] or scholarly["also"]
    if (body := _spoken_for_elsewhere(context, sentence, cited)) is not None:
        return body
    match = _ATTRIBUTION.match(sentence) or _ATTRIBUTED_WITHIN.search(sentence)
    if match is None:
        return None
    said_by = match.groupdict().get("who") or match.groupdict().get("source") or match["body"]
    words = [w.strip(".,'’") for w in said_by.split()]
    named = [w for w in words if w[:1].isupper() and _a_name(w)]
    if _ORGANISATION.search(said_by):  # "Health Canada says …": a body, whose page it is
        named = [w for w in words if w[:1].isupper() and not _ORGANISATION.fullmatch(w)]
    if not named:  # "Researchers found", "Health agencies recommend": no one in particular
        return None
    vouching = context.vouching(cited)
    hosts = {b for u in vouching for b in _bodies_of(context, u)}
    # a body of standing, or any body named by its acronym ("The MHRA says …", "The NHS says
    # …" citing a Reuters page that names them: a second red team's, #59)
    bodies = [w for w in named if w.lower() in body_labels() or _ACRONYM_NAME.fullmatch(w)]
    if _ORGANISATION.search(said_by):
        bodies = bodies or named
    if bodies:
        # a body of standing speaks on its own pages: "the CDC states" citing a gov.uk page
        # that never says so was accepted as supported (the trust issue, the real 1.5B model)
        return " ".join(w for w in bodies if w.lower() not in hosts) or None
    pages = " ".join(
        " ".join([u, e.title, e.excerpt, *e.quotes])
        for u in vouching
        if (e := context.evidence.get(u)) is not None
    ).lower()
    if "".join(named).lower() in hosts:  # "Mayo Clinic" on mayoclinic.org
        return None
    if all(w.lower() in hosts or re.search(rf"\b{re.escape(w.lower())}\b", pages) for w in named):
        return None
    return " ".join(named)


def _spoken_for_elsewhere(context: DraftContext, sentence: str, cited: Sequence[str]) -> str | None:
    """A body of standing, by its acronym, that the sentence speaks for anywhere in it
    (`_SPEAKS_FOR`: "CDC scientists found …", "Per the WHO, …", "As the FDA put it, …", "In
    CDC data, …", "The NIH and the FDA say …") when no cited page is that body's own, else
    None."""
    hosts = {b for u in context.vouching(cited) for b in _bodies_of(context, u)}
    for acronym, name in _SPELT_OUT.items():
        sentence = re.sub(name, acronym, sentence)
    for match in _SPEAKS_FOR.finditer(sentence):
        body = match["before"] or match["after"]
        if body.lower() in body_labels() and body.lower() not in hosts:
            return body
    return None


def _bodies_of(context: DraftContext, url: str) -> set[str]:
    """Whose page a page read is, as `body_labels` spells bodies: the labels of its host (a
    Wayback snapshot's page's: "The WHO never said that autopsies should not be conducted."
    citing a snapshot of apps.who.int, a person's verdict, was refused), and the acronyms of
    the bodies whose site it is (`_BODY_SITES`: the NCI's is cancer.gov)."""
    page = page_of(context.answered(url))
    site = registrable_domain(page).lower().removeprefix("www.")
    labels = set((urlsplit(page).hostname or "").lower().split(".")) - {"", "www"}
    return labels | {b for b, sites in _BODY_SITES.items() if site in sites}


# Bodies whose acronym is not a label of their site's address. Without these, a red team's
# honest notes "The NCI says …" citing cancer.gov and "The AAP says …" citing
# healthychildren.org were refused (#59, second red team: 6 of its 28 honest notes).
_BODY_SITES = {
    "nci": ("cancer.gov",),
    "aap": ("aap.org", "healthychildren.org"),
    "nhs": ("nhs.uk", "nhsinform.scot"),
    "mayo": ("mayoclinic.org",),
    "acs": ("cancer.org",),
    "aha": ("heart.org",),
    "ada": ("diabetes.org",),
}


def speaks_for_studies(context: DraftContext, url: str) -> bool:
    """Whether a page read may bear out a claim given to studies: it is a study
    (`is_a_study`), or it speaks of studies itself (HealthFC's evidence reviews: "In a
    systematic review of studies …"). A study's page alone refused 17 more honest HealthFC
    verdicts ("International studies suggest …" citing the reviewers' article), a page that
    gives claims to studies in so many words 13 (`bench.rules`)."""
    page = context.evidence.get(url)
    return is_a_study(context.answered(url)) or (
        page is not None and _OF_STUDIES.search(as_read(page)) is not None
    )


# A page that speaks of studies: what it reports of them may be a note's "studies show".
_OF_STUDIES = re.compile(
    r"\b(?:stud(?:y|ies)|trials?|meta-analys[ie]s|systematic\s+reviews?|cohorts?|research)\b",
    re.IGNORECASE,
)


@functools.cache
def body_labels() -> frozenset[str]:
    """The acronyms and names bodies of standing go by, as their domains spell them: each
    listed domain's first label of tier 2 or more ("cdc", "who", "fda", "bmj", "nejm")."""
    return frozenset(d.split(".")[0] for d in STANDING_DOMAINS) - {"www"}


# Words this common ("their", "before") say nothing of what is ordered.
_ORDER_WORD_ZIPF = 5.8


def unsourced_order(context: DraftContext, sentence: str, cited: Sequence[str]) -> str | None:
    """The verb of an order to people (`orders_to_people`) that no page the sentence cites
    uses, in any form ("stop" where no cited page says "stop"), a word of what it orders no
    such page uses, or the verb of an order not to that no such page gives, else None. A page
    the post named (`named`) gives no order: the attacker's own page says what it wants
    said."""
    vouching = context.vouching(cited)
    read = frozenset().union(*(terms_read(context.evidence[u]) for u in vouching))
    if unread := next((v for v in orders_to_people(sentence) if stem(v) not in read), None):
        return unread
    # what is ordered, not only its verb: "Parents should get a religious exemption from the
    # MMR shot" took "get" from the CDC's "Parents should get their children vaccinated"
    for ordered in what_is_ordered(sentence):
        words = {stem(w) for w in content_words(ordered) if not everyday(w, _ORDER_WORD_ZIPF)}
        if unsaid := sorted(words - read - JUDGING_STEMS - context.claim_stems):
            return unsaid[0]
    # an order not to do what a page orders done is no page's ("Parents should never get
    # their children vaccinated on schedule" from the CDC's "Parents should get …")
    if not (refused := negated_orders(sentence)):
        return None
    given = {
        stem(v)
        for u in vouching
        for s in page_sentences(as_read(context.evidence[u]))
        for v in negated_orders(s)
    }
    return next((v for v in refused if stem(v) not in given), None)


def ungrounded_terms(context: DraftContext, sentence: str, cited: Sequence[str]) -> list[str]:
    """The key terms of the post or its claims that a sentence speaks of and none of the
    pages it cites (as read: title, excerpt, quotes) uses, in any form of the word: what
    the sentence says of them, no page read says in those words. The words a note judges a
    claim with ('evidence', 'misleading', 'studies') are not counted. Each is marked for
    the model's support check (`unused_terms`); code refuses only `added_terms`."""
    return sorted(_ungrounded(context, sentence, cited)[0].values())


def added_terms(context: DraftContext, sentence: str, cited: Sequence[str]) -> list[str]:
    """The `ungrounded_terms` code refuses: a name no cited page uses ("The Malaria in
    Florida post is about …", the real model's, published), or any of them in a sentence
    that says nothing the post does not (`restates_the_post`: "Tylenol is not great for
    your liver." citing a page on Tylenol that never mentions the liver, the real model's,
    passed by its own check with the term marked) — when at most half of the claims'
    terms it names are missing from its pages (a sentence missing most of them is worded
    otherwise than its pages: "alkaline water" where a translated page says "basic water").
    Every other ungrounded term is marked for the model's support check: what a sentence
    says beyond its post, in words its held pages lack, is a question of meaning.

    Measured (`bench.rules`, fifth round): refusing an added term wherever a clause took
    under 3 words from its pages cost 30 honest verdicts by itself (HealthFC's own
    verdicts name the question's "vertebral", "toothpaste", "preterm", which its five key
    sentences lack) and caught 4 bad drafts no other rule did; those 4 are now caught as
    restatements of the post or as drafts a sentence shows off their pages (the prompts'
    example, a sentence about the draft: not droppable), and the rule costs 3.

    A clause that denies a claim (`denies_a_claim`: "Coronavirus is not a hoax.") names
    its terms to deny them, as "There is no evidence that …" does: the model's check
    judges it. Only that clause's terms: a hostile model put "evil . com" into the claims
    and appended "evil. com has it." to a sentence that denied the claim
    (tests/system/test_hostile_model)."""
    missing, named = _ungrounded(context, sentence, cited)
    if not missing or 2 * len(missing) > len(named):
        return []
    claims = [*context.claims(), context.post.text]
    denied = {
        term
        for clause in clauses(sentence)
        if clause.strip() and denies_a_claim(clause, claims)
        for term in stems(clause)
    }
    restated = restates_the_post(context, sentence)
    return sorted(
        word
        for term, word in missing.items()
        if term not in denied and (restated or _named(word, sentence))
    )


def _ungrounded(
    context: DraftContext, sentence: str, cited: Sequence[str]
) -> tuple[dict[str, str], set[str]]:
    """`ungrounded_terms` as {stem: the sentence's word}, and the claims' terms (stems)
    the sentence names."""
    read = context.terms_on_the_claims(cited)
    if not read:
        return {}, set()  # no page on the claims to judge by: the citation checks refuse it
    named = (key_stems(without_named_claims(sentence)) & context.claim_stems) - JUDGING_STEMS
    # a term spelt one letter otherwise is the page's word ("oestrogen" for "estrogen")
    missing = {t for t in named - read if not spelt_as_one_of(t, read)}
    words = {stem(w.lower()): w for w in ANY_WORD.findall(sentence)}
    return {t: words.get(t, t) for t in missing}, named


def repeats_the_example(context: DraftContext, sentence: str) -> bool:
    """Five content words in a row of the prompts' example sentence, in a note on another
    topic (the example shares no key term with the post and its claims) that no page read
    says them for. On a post about the MMR vaccine and autism the sentence is on topic, and
    the support check judges it like any other."""
    if not copies_a_run(sentence, EXAMPLE_NOTE_SENTENCE, 5):
        return False
    if not context.claim_stems.isdisjoint(key_stems(EXAMPLE_NOTE_SENTENCE)):
        return False
    return not copies_a_run(sentence, context.provenance.read, 5)


def repeats_the_post(context: DraftContext, sentence: str) -> bool:
    """`COPIED_RUN` content words in a row straight from the post, or a whole sentence of
    it: the real model published the post's false claim word for word as its note, and
    its own support check passed it. No human note of 40 copies more than 4 words in a row
    from its post, nor a whole sentence."""
    post = context.post.all_text()
    return copies_a_run(sentence, post, COPIED_RUN) or a_run_of(sentence, post)


def restates_a_claim(context: DraftContext, sentence: str) -> bool:
    """Whether a sentence says what a claim (or the post) says, with its polarity: all its
    content words are the claim's (or judging words) and it is negated as the claim is.
    Such a sentence is never published on code's word: a debunking page quotes the myth
    before it answers it, and word overlap cannot tell the two apart. "There is no evidence
    that vaccines cause autism." names the claim to correct it and is not one."""
    said = stems(sentence) - JUDGING_STEMS
    if len(said) < 2:
        return False
    return any(
        said <= stems(claim) and negated(sentence) == negated(claim)
        for claim in (*context.claims(), context.post.text)
    )


def restates_the_post(context: DraftContext, sentence: str) -> bool:
    """Whether every content word of the sentence (judging words aside) is the post's: it
    says nothing the post does not, in the post's words. The post's own words, not the
    brief's claims: the real 1.5B model wrote its answer as the claim ("Turmeric is not a
    known cancer treatment or prevention agent.") and then that answer as its note."""
    return stems(sentence) - JUDGING_STEMS <= stems(context.post.all_text())


# A claim given to studies or their authors, no one in particular: "Studies show …", "research
# has found …", "scientists say …", "a 2019 study found …", "according to research, …".
_SCHOLARLY = re.compile(
    r"\b(?P<who>(?:(?:many|several|recent|new|large|numerous|multiple|other)\s+)?"
    r"(?:studies|research|researchers|scientists|trials|(?:a|one|the|this)\s+(?:\w+\s+){0,2}?"
    r"(?:study|trial|review|meta-analysis)))\s+(?:have\s+|has\s+|had\s+)?(?:also\s+)?"
    r"(?:show|shows|showed|shown|find|finds|found|say|says|said|suggest|suggests|suggested|"
    r"confirm|confirms|confirmed|prove|proves|proved|proven|indicate|indicates|indicated|"
    r"demonstrate|demonstrates|demonstrated|conclude|concludes|concluded|agree|agrees)\b"
    r"|\baccording\s+to\s+(?P<also>(?:a\s+|recent\s+|the\s+)*(?:studies|study|research|"
    r"scientists|researchers))\b",
    re.IGNORECASE,
)

# A sentence that opens by giving its claim to someone: "The BMJ states that …", "According to
# the World Health Organization, …". A bare "Normally, …" gives nothing to anyone: the comma
# form needs "According to".
_NAME = r"[A-Z][\w&.'’-]*(?:\s+(?:of\s+|for\s+)?[A-Z][\w&.'’-]*){0,5}"
# Within a sentence: "The official statement of the CDC states …", "… as guidance from the
# WHO says" (the real 1.5B model's, citing only a gov.uk consultation page).
_ATTRIBUTED_WITHIN = re.compile(
    r"\b(?:statements?|position|guidance|guidelines?|advice|recommendations?|website|data|"
    r"reports?|figures?)\s+(?:of|from|by)\s+(?:the\s+)?(?P<body>[A-Z][\w&.'’-]*)"
    rf"|(?:^|,\s+|\bthat\s+|\band\s+)(?:[Tt]he\s+)?(?P<who>{_NAME})\s+(?:also\s+)?"
    r"(?:states?|says|said|recommends?|warns?|advises?|confirms?)\b"
)
# A body, by its acronym, spoken for anywhere in a sentence: after "per", "according to", "as"
# or "in", or before up to two words and a verb of saying or finding or a noun of what it says
# ("CDC scientists found", "A CDC report shows", "The NIH and the FDA say", "the CDC's own
# position"). The leading shapes of `_ATTRIBUTION` missed these, and the real 1.5B model's
# check passed "CDC scientists found that the MMR vaccine causes autism" citing Reuters (#59's
# red team: 9 of 11 such attributions reached the check).
_SPEAKS_FOR = re.compile(
    r"\b(?:[Pp]er|[Aa]ccording\s+to|[Aa]s|[Ii]n|(?:stated|said|reported|confirmed|admitted|"
    r"recommended|advised|published)\s+by|(?:officials|experts|scientists|researchers|"
    r"spokesp\w+|staff|data|reports?|figures|guidance|statements?)\s+(?:at|from|of))\s+"
    r"(?:the\s+)?(?P<before>[A-Z]{2,6})\b"
    r"|\b(?P<after>[A-Z]{2,6})(?:['’]s|-(?:backed|funded|led|run))?"
    r"(?:\s+(?:and\s+the\s+[A-Z]{2,6}|[a-z]+)){0,2}\s+"
    r"(?:say|says|said|states?|stated|found|finds|shows?|showed|reports?|reported|recommends?|"
    r"recommended|warns?|warned|advises?|advised|confirms?|confirmed|conclude[sd]?|put\s+it|"
    r"position|view|views|stance|advice|data|report|guidance|statement|scientists|researchers|"
    r"officials|experts|admits?|admitted|recommends?|insists?|concedes?|conceded|accepts?|"
    r"accepted|acknowledges?|acknowledged|agrees?|agreed|believes?|endorses?|endorsed|"
    r"approves?|approved|trials?|studies|study|research)\b"
)
# A body's name spelt out is its acronym: "The World Health Organization recommends …"
_SPELT_OUT = {
    "WHO": r"World\s+Health\s+Organi[sz]ation",
    "CDC": r"(?:U\.?S\.?\s+)?Cent(?:er|re)s\s+for\s+Disease\s+Control(?:\s+and\s+Prevention)?",
    "FDA": r"(?:U\.?S\.?\s+)?Food\s+and\s+Drug\s+Administration",
    "NIH": r"National\s+Institutes\s+of\s+Health",
    "NHS": r"National\s+Health\s+Service",
    "EMA": r"European\s+Medicines\s+Agency",
}
_ATTRIBUTION = re.compile(
    rf"^(?:According\s+to\s+(?:[Tt]he\s+)?(?P<source>{_NAME})\s*,|(?:[Tt]he\s+)?(?P<who>{_NAME})"
    r"\s+(?:also\s+)?(?:states?|stated|says|said|notes?|noted|reports?|reported|finds?|found|"
    r"conclude[sd]?|recommends?|recommended|warns?|warned|shows?|showed|confirms?|confirmed|"
    r"writes?|wrote|advises?|advised)\b)"
)


_ACRONYM_NAME = re.compile(r"[A-Z]{2,6}")
# A speaker's name that makes it a body, not a person or a place.
_ORGANISATION = re.compile(
    r"\b(?:Health|Agency|Ministry|Department|Institutes?|Cent(?:er|re)s?|Administration|"
    r"Organi[sz]ation|Service|Authority|Council|Association|Society|Academy|College|Board|"
    r"Commission|Foundation)\b"
)
# A word at least this common is no one's name: "Health", "Normally".
_NAME_ZIPF = 4.8


def _named(word: str, sentence: str) -> bool:
    """Whether a word of the sentence is a name: capitalised where a sentence does not start,
    and a name by `_a_name` ("Florida", "WHO"; not "Rising" opening a sentence)."""
    return word[:1].isupper() and not sentence.lstrip().startswith(word) and _a_name(word)


def _a_name(word: str) -> bool:
    """A capitalised word that names someone: an acronym (CDC, WHO, BMJ) or a word rarer than
    everyday English that is no plural (Pfizer, Wakefield) — not "Health", nor a group
    ("Researchers", "Pediatricians", "Epidemiologists"), which no page has to name."""
    if len(word) >= 2 and word.isupper():
        return True
    return not everyday(word.lower(), _NAME_ZIPF) and not word.lower().endswith("s")


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


def about_the_note(sentence: str) -> bool:
    """Whether a sentence speaks of the note or its sources instead of the post: the writer
    is off its pages (the prompts' and the support check's words copied into a note)."""
    return bool(_ABOUT_THE_NOTE.match(sentence) or _ABOUT_THE_EVIDENCE.search(sentence))


def missing_terms(context: DraftContext, sentence: str, cited: Sequence[str]) -> dict[str, str]:
    """The claims' terms (stems) a sentence speaks of that no cited page on the claims uses, as
    {stem: the sentence's word} (`ungrounded_terms`)."""
    return _ungrounded(context, sentence, cited)[0]
