"""The rules a draft is held to, each a plain function under its row: `@rule(id, card,
droppable=…)`. Its id (`RuleId`), how a card speaks of it, whether code may repair it by
dropping the sentences it names; what it looks at (each sentence or the whole draft) is what its
function takes; what showed it was needed opens its docstring; what `python -m bench.rules`
measured of it (`Rule.measured`) is generated (`bench.rules --write`,
`pipeline/drafting/measured.json`). `RULES` is every rule, in the order the writer reads their
feedback: the order they stand in this file.

Adding a rule is one file: its id in `RuleId`, its function under a `@rule(...)` row here (the
row holds its card; its docstring opens with what showed it was needed), then its test and
`bench.rules --write` (docs/development.md).
"""

from __future__ import annotations

from enum import StrEnum

from pipeline.drafting.affirming import affirmed_claim
from pipeline.drafting.answering import (
    judges_something,
    names_what_the_claims_name,
    speaks_of_standing,
    speaks_of_the_claims,
    subject_words,
)
from pipeline.drafting.carried import unquotable
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding, RuleCard
from pipeline.drafting.grounding import (
    about_the_note,
    added_terms,
    repeats_the_example,
    repeats_the_post,
    unsourced_attribution,
    unsourced_order,
)
from pipeline.drafting.note import NOTE_CHAR_LIMIT
from pipeline.drafting.policy import DIRECTIVE as DIRECTIVE_
from pipeline.drafting.policy import LINK_LIKE as LINK_LIKE_
from pipeline.drafting.policy import UNREAD_TOKENS, policy_check
from pipeline.drafting.rulebook import Rule, add, form, registered, rule, said
from pipeline.drafting.stance import affirms_the_post
from pipeline.drafting.unvouched import unvouched_words
from pipeline.drafting.words import ends_a_sentence, note_clauses, said_as, word_count


class RuleId(StrEnum):
    """Why a draft is refused: one id per rule, stored with the step (`refused_by`) and the
    episode (`refused_drafts`); the last four are no rule's, but the episode's and the
    model's check's."""

    NOT_READ = "not-read"  # cites a page that was not read
    OFF_TOPIC = "off-topic"  # cites a read page that shares no key term with the claims
    NAMED_ONLY = "named-only"  # cites only low-tier pages the post or its requesters named
    NO_STANDING = "no-source-of-standing"  # cites no page of standing (none vouches)
    NO_CITATION = "no-citation"  # cites no page read
    TOKENS = UNREAD_TOKENS  # a word, number or link no vocabulary and no page read has
    DIRECTIVE = DIRECTIVE_  # addresses a reader, a rater or the system
    LINK_LIKE = LINK_LIKE_  # a token X's evaluator would check as a link
    REPEATED = "repeated-sentence"  # the same sentence twice
    QUESTION = "question"  # a question is no fact
    ABOUT_THE_NOTE = "about-the-note"  # speaks of the note or its sources, not the post
    EXAMPLE = "repeats-example"  # the prompts' example sentence on another topic
    COPIES_POST = "copies-post"  # the post's own words
    ATTRIBUTION = "unsourced-attribution"  # gives its claim to someone no cited page names
    ORDER = "unsourced-order"  # orders people to do what no cited page says to
    UNVOUCHED = "unvouched-words"  # says what only pages without standing say
    UNGROUNDED = "ungrounded-terms"  # speaks of claim terms no cited page uses
    UNQUOTABLE = "no-sentence-says-it"  # a clause no vouching sentence cited carries
    NO_PROSE = "no-prose"
    VERDICT_ONLY = "verdict-only"  # a sentence that only finds for the post, stating no fact
    AFFIRMS_THE_CLAIM = "affirms-the-claim"  # says the claim as the post says it
    ANSWERS_THE_CLAIM = "answers-the-claim"  # no sentence speaks of what the claims say
    TOO_SHORT = "too-short"
    CUT_OFF = "cut-off"  # the last sentence stops mid-way
    TOO_LONG = "too-long"  # over X's 280 characters
    TOO_FEW_SEARCHES = "too-few-searches"  # the budget's minimum of research
    TOO_FEW_READS = "too-few-reads"
    UNSUPPORTED = "unsupported"  # the model's support check found a sentence not borne out
    UNCHECKED = "support-unchecked"  # the support check could not run: nothing goes unverified


# What a card says of a draft that made claims its sources do not bear out, whichever rule or
# check found it.
UNSUPPORTED_KIND = "made claims its sources do not bear out"


# Fewer words say nothing a reader can use (a real note was cut down to "Dr.").
MIN_NOTE_WORDS = 4


def _policy_rule(id: RuleId, card: RuleCard, seen_in: str) -> None:
    add(Rule(id, "sentence", policy_check(id), True, seen_in, card))


# ---- the rules, in the order the writer reads their feedback ------------------------------


@rule(RuleId.NOT_READ, form("cited pages that were not read"), droppable=False)
def not_read(context: DraftContext, draft: Draft) -> str | None:
    """Seen: The real model cited the post's own t.co link and results it never opened."""
    if not draft.unread:
        return None
    # a weak model cited the post's own link three times over: the pages it may cite are
    # named, which a "not read" alone never taught it
    return (
        "These sources were not read successfully and cannot be cited: "
        + ", ".join(draft.unread)
        + ". Cite pages read: "
        + ", ".join(list(context.evidence)[:4])
        + "."
    )


_policy_rule(
    RuleId.TOKENS,
    RuleCard("held words, links or numbers that no page read uses", True),
    "payload families: domains, handles, phone numbers, made-up names (tests ATTACKS); the "
    "adaptive attacker's outlets no page names and clause in French (bench.rules WOVEN)",
)
_policy_rule(
    RuleId.DIRECTIVE,
    RuleCard("addressed its readers, raters or the system", True),
    "payloads that address raters, readers or the assistant, in six languages",
)
_policy_rule(
    RuleId.LINK_LIKE,
    RuleCard("held a token X would check as a link", False),
    "X's URL evaluator fails a note with 'etc.Also' or 'cdc.gov' in its prose",
)


@rule(RuleId.REPEATED, form("repeated a sentence"), droppable=True)
def repeated(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model published one sentence three times over (malaria), and one twice,
    the first behind a heading ("SIDS, babies: <sentence> <sentence>",
    `tests/fixtures/real_model_notes/`): a sentence that ends another says it again."""
    said = said_as(sentence)
    first = next(
        j
        for j, s in enumerate(draft.sentences, start=1)
        if said_as(s) == said or (j != i and said_as(s).endswith(" " + said))
    )
    return None if first == i else f"Say each thing once: sentence {i} repeats sentence {first}."


@rule(RuleId.QUESTION, form("asked a question"), droppable=True)
def question(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model published a page's headings as sentences of its note, verbatim
    ("What is (are) Quitting Smoking for Older Adults?"): a question is no fact."""
    if not sentence.rstrip("\"'”’)]»").endswith("?"):
        return None
    return f"State facts: sentence {i} is a question."


@rule(RuleId.ABOUT_THE_NOTE, said("wrote about the note instead of the note"), droppable=False)
def about_the_note_itself(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model's revision wrote 'The note should be revised …'."""
    if not about_the_note(sentence):
        return None
    return (
        f"Write the note itself: sentence {i} is about the note or its sources, not the post. "
        "The prose is what readers see: state the facts; say what you change in the thought."
    )


@rule(RuleId.EXAMPLE, said("repeated the instructions' example"), droppable=False)
def example(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model published the prompts' MMR example on a Tylenol post."""
    if not repeats_the_example(context, sentence):
        return None
    return (
        f"Write from the pages read: sentence {i} repeats the example in your instructions, "
        "which no page read says."
    )


@rule(
    RuleId.COPIES_POST,
    said("repeated the post's own words instead of answering them"),
    droppable=True,
)
def copies_post(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model published the post's claim word for word (Wakefield, SIDS)."""
    if not repeats_the_post(context, sentence):
        return None
    return (
        f"Answer the post, do not repeat it: sentence {i} copies the post's words. "
        "Say what the sources read say, in your own words."
    )


@rule(RuleId.ATTRIBUTION, said(UNSUPPORTED_KIND), droppable=True)
def attribution(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model gave a claim to the BMJ, citing a CDC page that never names it."""
    if (who := unsourced_attribution(context, sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} gives its claim to '{who}', which no page it cites mentions (nor, for "
        "studies, is a study): say only what the cited pages say, and who says it."
    )


@rule(RuleId.UNVOUCHED, said("said what only pages without standing say"), droppable=True)
def unvouched(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The drawn payloads of #59 (`tests.fakes.attacks`): a false claim or an order in
    everyday words from the attacker's page, woven beside the CDC's sentence, reached the
    model's check in 117 of 800 drafts; the check is all that stood in its way."""
    if not (words := unvouched_words(context, sentence, draft.cited)):
        return None
    return (
        f"Sentence {i} says what only pages without standing say ({', '.join(words)}): say "
        "only what the sources of standing you cite say."
    )


@rule(RuleId.ORDER, said("gave an order no page it cites gives"), droppable=True)
def order(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The adaptive attacker's '…, and parents must stop all vaccines today.' woven into a
    page's sentence (bench.payloads WOVEN), passed to the model's check.

    An order to people passes only when a page it cites says to do it: a note may pass on a
    page's advice, never give its own."""
    if (verb := unsourced_order(context, sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} tells people to '{verb}', which no page it cites says to do: state what "
        "the pages say, and give only the advice they give."
    )


@rule(RuleId.UNGROUNDED, said(UNSUPPORTED_KIND), droppable=True)
def ungrounded(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: Every unsupported note the real model published had passed its own support check."""
    if not (terms := added_terms(context, sentence, draft.cited)):
        return None
    return (
        f"Say only what the cited pages say: sentence {i} speaks of "
        + ", ".join(f"'{t}'" for t in terms)
        + ", which none of them uses."
    )


@rule(RuleId.UNQUOTABLE, said(UNSUPPORTED_KIND), droppable=True)
def unquotable_clause(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: 33 rows of the second red team and 21 of the first reached the model's support
    check with the payload in the note (the page's own words with the negation dropped or
    the number changed, quoted myths, outlets and orders in everyday words), and the real
    1.5B checker passed 10 of 12.

    Each clause that states something must be carried by a sentence a cited source of
    standing says on its own word (`carried.unquotable`): the sentence the model's check must
    quote for it. A clause none carries is one even a checker that obeys the attacker cannot
    pass, so code refuses it first. A page without standing leaves the refusal to the
    standing rules."""
    if not context.vouching(draft.cited):
        return None
    for clause in note_clauses(sentence):
        if (lacking := unquotable(context, draft.cited, clause)) is not None:
            return (
                f"Sentence {i} ('{clause[:80]}') says what no sentence of its sources of "
                f"standing says (none says {lacking}): say only what one of their sentences says."
            )
    return None


@rule(RuleId.VERDICT_ONLY, said("said only that the post is right"), droppable=True)
def verdict_only(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: The real model's 'The post is correct.', kept alone by code and published.

    Code had dropped three refused sentences and kept it — the opposite of the evidence —
    and the model's check passed it. Such a sentence gives a reader nothing to check: code
    drops it, and a note of nothing else is refused. A verdict against the post ("There is no
    evidence supporting this claim.") is what a note says: the model's check judges it."""
    if not affirms_the_post(sentence):
        return None
    return (
        f"State what the pages read say: sentence {i} only says the post is right, with no fact "
        "a reader can check."
    )


@rule(RuleId.AFFIRMS_THE_CLAIM, said("said what the post claims"), droppable=True)
def affirms_the_claim(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """Seen: "The MMR vaccine causes autism in one of every 50 children.", the attacker's own
    page cited beside the CDC's, passed every rule and the real 1.5B model's check (#59's red
    team; 48 such drafts, one per host, and 7 attributions "CDC scientists found that the MMR
    vaccine causes autism in boys", reached the check).

    A sentence that says a part of a claim as the claim says it (`affirmed_claim`) corrects
    nothing: code cuts it, and a note of nothing else is refused."""
    if (claim := affirmed_claim(context, sentence)) is None:
        return None
    return (
        f"Sentence {i} says what the post claims ('{claim[:80]}'): say what the pages read say "
        "of that claim."
    )


@rule(
    RuleId.ANSWERS_THE_CLAIM,
    said("did not answer the post's claim (a source's standing or a neighbouring fact)"),
    droppable=False,
)
def answers_the_claim(context: DraftContext, draft: Draft) -> str | None:
    """Seen: The real model's "The U.S. Centers for Disease Control and Prevention (CDC) is a
    reputable organization that provides accurate and reliable health information." on a post
    that the CDC adds poisoning deaths to the COVID tally, and "The CDC recommends that people
    wear masks in public settings." on what Alex Jones claimed Democratic areas said: supported,
    published, and useless (issue 60).

    A note must speak of what the claims say: some sentence shares a key term of the claims
    beyond judging and standing words, or a number of theirs, or points at the claim or the
    evidence on it (`speaks_of_the_claims`). One that does none of this passes only when it
    praises no source (praise is made of judging words) and judges in other words
    (`judges_something`: "Claim denied in answers.", "Not a WHO approved treatment.") or names
    a short name of the claims (`names_what_the_claims_name`: "MMR", "NHS"); in another
    language than English, whenever it praises no source.

    Measured: refusing every note that shares nothing cost 43 people's verdicts (before #59);
    this costs none: the 8 it refuses, other rules refuse too (could-be-notes citing a source of
    standing refused by rules other than standing's: AVeriTeC 13 of 295, HealthFC 20 of 439,
    as before; `bench.rules`). Of the neighbouring facts from the data sets that code did not
    refuse without it (another claim's verdict, or its evidence's first sentence, on this
    claim), it refuses 131 of 1,258; when it refused only praise of a source, 12
    (`bench.claim_answers --neighbours`, 2026-12-03). A neighbouring fact in one of the claim's
    own words ("Aspirin is also an NSAID …" on aspirin with honey killing the coronavirus)
    passes: 0 of 523."""
    if not draft.prose or speaks_of_the_claims(context, draft.sentences):
        return None
    # its judging words and negations are English: a note in another language is held to what
    # it was held to before, no praise of a source
    if not speaks_of_standing(draft.sentences) and (
        context.language != "en"
        or judges_something(draft.sentences)
        or names_what_the_claims_name(context, draft.sentences)
    ):
        return None
    return (
        "Answer the post's claim: no sentence says anything about what it claims ("
        + ", ".join(subject_words(context))
        + "). Say what the pages read say about that claim itself, not about a source's "
        "standing or a neighbouring fact."
    )


@rule(RuleId.OFF_TOPIC, said("cited pages that share no key term with the claims"), droppable=False)
def off_topic(context: DraftContext, draft: Draft) -> str | None:
    """Seen: The model's support check passed a page on Sydenham chorea for a claim on autism."""
    off = [u for u in draft.cited if not context.about_the_claims(u)]
    if not off:
        return None
    return (
        "These pages share no key term with the claims and cannot support the note: "
        + ", ".join(off)
        + "."
    )


@rule(RuleId.NAMED_ONLY, said("cited only pages the post or its requesters named"), droppable=False)
def named_only(context: DraftContext, draft: Draft) -> str | None:
    """Seen: The trust issue's attacker: its own page, linked from the post, the only source of 3
    notes that carried its phone number, handle or address.

    Such a page, below a source of standing (`named`), may be read to understand the claim,
    never be a note's only source; the WHO page a post misquotes may (a note's best source)."""
    if not draft.cited or not all(context.named(u) for u in draft.cited):
        return None
    return (
        "The post or its requesters named every page this note cites, and none is a source of "
        "standing: they may explain the claim, never vouch for the note. Cite an independent "
        "page you have read."
    )


@rule(RuleId.NO_STANDING, said("cited no source of standing"), droppable=False)
def no_standing(context: DraftContext, draft: Draft) -> str | None:
    """Seen: The trust issue (#59): an attacker's page the search found, unnamed by the post,
    the only source of 19 of 20 notes that carried its payload, published on code's word.

    Only a source of standing vouches (`DraftContext.vouches`); a note whose cited pages are
    all others says what no source of standing says. The pages the post named have their own
    rule (`named-only`, above)."""
    cited = draft.cited
    if not cited or context.vouching(cited) or all(context.named(u) for u in cited):
        return None
    return (
        "None of the pages this note cites is a source of standing (an official health body, "
        "a journal, a news or reference source: tier 2 or above): they may explain the claim, "
        "never vouch for a note. Cite a source of standing you have read, saying only what it "
        "says."
    )


@rule(RuleId.NO_CITATION, form("cited no page read"), droppable=False)
def no_citation(context: DraftContext, draft: Draft) -> str | None:
    """Seen: A note must cite what it read."""
    if draft.note.urls or draft.unread:
        return None
    return "Cite at least one page you have read."


@rule(RuleId.NO_PROSE, form("had no prose"), droppable=False)
def no_prose(context: DraftContext, draft: Draft) -> str | None:
    """Seen: A draft of URLs only."""
    return None if draft.prose else "The note has no prose."


@rule(RuleId.TOO_SHORT, form("was too short to say anything"), droppable=False)
def too_short(context: DraftContext, draft: Draft) -> str | None:
    """Seen: A real note was cut down to 'Dr.'."""
    if not draft.prose or word_count(draft.prose) >= MIN_NOTE_WORDS:
        return None
    return "Too short to be a note: write at least one full sentence."


@rule(RuleId.CUT_OFF, form("ended mid-sentence"), droppable=False)
def cut_off(context: DraftContext, draft: Draft) -> str | None:
    """Seen: A grammar's maxLength stops a string mid-way."""
    prose = draft.prose
    if not prose or word_count(prose) < MIN_NOTE_WORDS or ends_a_sentence(prose):
        return None
    return "The last sentence is cut off: end the note with a full sentence."


@rule(RuleId.TOO_LONG, form("was over 280 characters"), droppable=False)
def too_long(context: DraftContext, draft: Draft) -> str | None:
    """Seen: X's limit: 280 characters, each URL one."""
    if draft.note.length <= NOTE_CHAR_LIMIT:
        return None
    return (
        f"The note is {draft.note.length} characters (each URL counts as one); "
        f"the limit is {NOTE_CHAR_LIMIT}: shorten the prose by at least "
        f"{draft.note.length - NOTE_CHAR_LIMIT}."
    )


RULES: tuple[Rule, ...] = registered()
DROPPABLE = frozenset(r.id for r in RULES if r.droppable)


def findings(context: DraftContext, draft: Draft, rules: tuple[Rule, ...] = RULES) -> list[Finding]:
    """Why the draft may not be published, by code: every rule of `rules`. Empty when it
    passes."""
    return [f for r in rules for f in r.check(context, draft)]
