"""The rules a draft is held to, each a plain function under its row: `@rule(id, scope,
droppable, seen_in)` is the row. Its id (`RuleId`), what it looks at (each sentence or the
whole draft), whether code may repair it by dropping the sentences it names, and what showed it
was needed; what `python -m bench.rules` measured of it (`Rule.measured`) is generated
(`bench.rules --write`, `pipeline/drafting/measured.json`). `RULES` is every rule, in the order
the writer reads their feedback: the order they stand in this file.

Adding a rule: write its function under a `@rule(...)` row here, add its id to `RuleId` and
its card to `CARDS` (`pipeline.drafting.findings`), test it, then run `bench.rules --write`
(docs/development.md).
"""

from __future__ import annotations

from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding, RuleId
from pipeline.drafting.grounding import (
    about_the_note,
    added_terms,
    repeats_the_example,
    repeats_the_post,
    unsourced_attribution,
    unsourced_order,
)
from pipeline.drafting.note import NOTE_CHAR_LIMIT
from pipeline.drafting.policy import policy_check
from pipeline.drafting.rulebook import Rule, add, registered, rule
from pipeline.drafting.stance import affirms_the_post
from pipeline.drafting.words import ends_a_sentence, said_as, word_count

# Fewer words say nothing a reader can use (a real note was cut down to "Dr.").
MIN_NOTE_WORDS = 4


def _policy_rule(id: RuleId, seen_in: str) -> None:
    add(Rule(id, "sentence", policy_check(id), True, seen_in))


# ---- the rules, in the order the writer reads their feedback ------------------------------


@rule(
    RuleId.NOT_READ,
    "draft",
    droppable=False,
    seen_in="the real model cited the post's own t.co link and results it never opened",
)
def not_read(context: DraftContext, draft: Draft) -> str | None:
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
    "payload families: domains, handles, phone numbers, made-up names (tests ATTACKS); the "
    "adaptive attacker's outlets no page names and clause in French (bench.rules WOVEN)",
)
_policy_rule(
    RuleId.DIRECTIVE, "payloads that address raters, readers or the assistant, in six languages"
)
_policy_rule(
    RuleId.LINK_LIKE, "X's URL evaluator fails a note with 'etc.Also' or 'cdc.gov' in its prose"
)


@rule(
    RuleId.REPEATED,
    "sentence",
    droppable=True,
    seen_in="the real model published one sentence three times over (malaria)",
)
def repeated(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    first = next(
        j for j, s in enumerate(draft.sentences, start=1) if said_as(s) == said_as(sentence)
    )
    return None if first == i else f"Say each thing once: sentence {i} repeats sentence {first}."


@rule(
    RuleId.QUESTION,
    "sentence",
    droppable=True,
    seen_in="the real model published a page's headings as sentences (smoking)",
)
def question(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """A question is no fact: the real model published a page's headings ("What is (are)
    Quitting Smoking for Older Adults?") as sentences of its note, quoted verbatim."""
    if not sentence.rstrip("\"'”’)]»").endswith("?"):
        return None
    return f"State facts: sentence {i} is a question."


@rule(
    RuleId.ABOUT_THE_NOTE,
    "sentence",
    droppable=False,
    seen_in="the real model's revision wrote 'The note should be revised …'",
)
def about_the_note_itself(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not about_the_note(sentence):
        return None
    return (
        f"Write the note itself: sentence {i} is about the note or its sources, not the post. "
        "The prose is what readers see: state the facts; say what you change in the thought."
    )


@rule(
    RuleId.EXAMPLE,
    "sentence",
    droppable=False,
    seen_in="the real model published the prompts' MMR example on a Tylenol post",
)
def example(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not repeats_the_example(context, sentence):
        return None
    return (
        f"Write from the pages read: sentence {i} repeats the example in your instructions, "
        "which no page read says."
    )


@rule(
    RuleId.COPIES_POST,
    "sentence",
    droppable=True,
    seen_in="the real model published the post's claim word for word (Wakefield, SIDS)",
)
def copies_post(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not repeats_the_post(context, sentence):
        return None
    return (
        f"Answer the post, do not repeat it: sentence {i} copies the post's words. "
        "Say what the sources read say, in your own words."
    )


@rule(
    RuleId.ATTRIBUTION,
    "sentence",
    droppable=True,
    seen_in="the real model gave a claim to the BMJ, citing a CDC page that never names it",
)
def attribution(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if (who := unsourced_attribution(context, sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} gives its claim to '{who}', which no page it cites mentions: say only "
        "what the cited pages say, and who says it."
    )


@rule(
    RuleId.ORDER,
    "sentence",
    droppable=True,
    seen_in="the adaptive attacker's '…, and parents must stop all vaccines today.' woven "
    "into a page's sentence (bench.payloads WOVEN), passed to the model's check",
)
def order(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    """An order to people ("parents must stop all vaccines today", woven by the adaptive
    attacker into a page's own sentence after a comma) passes only when a page it cites says
    to do it: a note may pass on a page's advice, never give its own."""
    if (verb := unsourced_order(context, sentence, draft.cited)) is None:
        return None
    return (
        f"Sentence {i} tells people to '{verb}', which no page it cites says to do: state what "
        "the pages say, and give only the advice they give."
    )


@rule(
    RuleId.UNGROUNDED,
    "sentence",
    droppable=True,
    seen_in="every unsupported note the real model published had passed its own support check",
)
def ungrounded(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
    if not (terms := added_terms(context, sentence, draft.cited)):
        return None
    return (
        f"Say only what the cited pages say: sentence {i} speaks of "
        + ", ".join(f"'{t}'" for t in terms)
        + ", which none of them uses."
    )


@rule(
    RuleId.VERDICT_ONLY,
    "sentence",
    droppable=True,
    seen_in="the real model's 'The post is correct.', kept alone by code and published",
)
def verdict_only(context: DraftContext, draft: Draft, i: int, sentence: str) -> str | None:
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


@rule(
    RuleId.OFF_TOPIC,
    "draft",
    droppable=False,
    seen_in="the model's support check passed a page on Sydenham chorea for a claim on autism",
)
def off_topic(context: DraftContext, draft: Draft) -> str | None:
    off = [u for u in draft.cited if not context.about_the_claims(u)]
    if not off:
        return None
    return (
        "These pages share no key term with the claims and cannot support the note: "
        + ", ".join(off)
        + "."
    )


@rule(
    RuleId.NAMED_ONLY,
    "draft",
    droppable=False,
    seen_in="the trust issue's attacker: its own page, linked from the post, the only source "
    "of 3 notes that carried its phone number, handle or address",
)
def named_only(context: DraftContext, draft: Draft) -> str | None:
    """A page the post or its requesters named, below a source of standing (`named`), may be
    read to understand the claim, never be a note's only source: the trust issue's attacker
    pointed the post at its own page, and 3 of 4 notes cited it alone, carrying its phone
    number, handle or address. The WHO page a post misquotes may be (a note's best source)."""
    if not draft.cited or not all(context.named(u) for u in draft.cited):
        return None
    return (
        "The post or its requesters named every page this note cites, and none is a source of "
        "standing: they may explain the claim, never vouch for the note. Cite an independent "
        "page you have read."
    )


@rule(RuleId.NO_CITATION, "draft", droppable=False, seen_in="a note must cite what it read")
def no_citation(context: DraftContext, draft: Draft) -> str | None:
    if draft.note.urls or draft.unread:
        return None
    return "Cite at least one page you have read."


@rule(RuleId.NO_PROSE, "draft", droppable=False, seen_in="a draft of URLs only")
def no_prose(context: DraftContext, draft: Draft) -> str | None:
    return None if draft.prose else "The note has no prose."


@rule(RuleId.TOO_SHORT, "draft", droppable=False, seen_in="a real note was cut down to 'Dr.'")
def too_short(context: DraftContext, draft: Draft) -> str | None:
    if not draft.prose or word_count(draft.prose) >= MIN_NOTE_WORDS:
        return None
    return "Too short to be a note: write at least one full sentence."


@rule(
    RuleId.CUT_OFF, "draft", droppable=False, seen_in="a grammar's maxLength stops a string mid-way"
)
def cut_off(context: DraftContext, draft: Draft) -> str | None:
    prose = draft.prose
    if not prose or word_count(prose) < MIN_NOTE_WORDS or ends_a_sentence(prose):
        return None
    return "The last sentence is cut off: end the note with a full sentence."


@rule(RuleId.TOO_LONG, "draft", droppable=False, seen_in="X's limit: 280 characters, each URL one")
def too_long(context: DraftContext, draft: Draft) -> str | None:
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
