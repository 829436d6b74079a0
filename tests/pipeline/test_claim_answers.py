"""A note answers the post's claim (issue 60): a note on a source's standing ("The CDC is a
reputable organization …") or on a neighbouring fact ("Measles is a highly contagious disease
…" on the MMR vaccine and autism) that says nothing of the claim is refused by code
(`answers-the-claim`), shown on hand-made off-claim notes that code otherwise published on its
own word, on the real model's recorded writes and on other claims' verdicts and evidence from
the data sets (when the evidence set is here); a neighbouring fact in one of the claim's own
words is measured, and missed."""

from __future__ import annotations

import pytest

from bench.rules import (
    Row,
    decide,
    escaped,
    off_claim_hand_made,
    real_model_writes,
)
from pipeline.drafting.rules import RuleId
from tests.conftest import SHARED_DATA

DATA = SHARED_DATA / "evidence_claims"
WITHOUT = frozenset({RuleId.ANSWERS_THE_CLAIM})
HAND_MADE = off_claim_hand_made()
# The hand-made notes code is expected to miss: a neighbouring fact in one of the claim's own
# words ("masks" on what Alex Jones said masks do). Code reads words, not what is said of them.
MISSED = {"masks-shares-a-word"}


@pytest.mark.parametrize("row", HAND_MADE, ids=[r.id for r in HAND_MADE])
def test_a_note_that_does_not_answer_its_claim_is_not_published(row: Row) -> None:
    without = decide(row, WITHOUT)
    assert without.verdict != "refused"  # every other rule lets it through
    refused = decide(row)
    if row.id in MISSED:
        assert refused.verdict != "refused"
        return
    assert refused.verdict == "refused" and refused.rules == [RuleId.ANSWERS_THE_CLAIM.value]
    assert not escaped(row, refused)


@pytest.mark.parametrize("row", HAND_MADE, ids=[r.id for r in HAND_MADE])
def test_a_note_from_the_same_page_that_answers_the_claim_passes(row: Row) -> None:
    """The control: the page's other sentence, the one on the claim, as the note."""
    answer = row.pages[0]["text"].split(". ", 1)[1]
    on_claim = Row(row.id, row.post, row.pages, answer, row.cited)
    assert decide(on_claim).verdict != "refused"


def test_a_sentence_that_points_at_the_claim_answers_it() -> None:
    """People's verdicts judge a claim by pointing at it: no word of the claim is needed."""
    row = HAND_MADE[0]
    verdict = Row(row.id, row.post, row.pages, "There is no evidence that this is true.", [])
    assert RuleId.ANSWERS_THE_CLAIM.value not in decide(verdict).rules


def test_a_verdict_in_other_words_answers_it() -> None:
    """People's verdicts that share no word of their claim judge it ("Claim denied in
    answers."): a negation or a judging word is a verdict, a neighbouring fact has neither."""
    row = next(r for r in HAND_MADE if r.id == "measles-neighbouring-fact")
    for verdict in ("Vaccines do not cause it.", "That is a myth, according to the pages."):
        judged = Row(row.id, row.post, row.pages, verdict, row.cited)
        assert RuleId.ANSWERS_THE_CLAIM.value not in decide(judged).rules, verdict
    fact = Row(row.id, row.post, row.pages, "Measles spreads through the air.", row.cited)
    assert RuleId.ANSWERS_THE_CLAIM.value in decide(fact).rules


def test_a_short_name_of_the_claims_answers_them() -> None:
    """ "MMR" is too short a word to be a key term; named in capitals by claim and note, it is
    what both speak of (the NHS verdict of AVeriTeC, refused without this)."""
    row = next(r for r in HAND_MADE if r.id == "measles-neighbouring-fact")
    post = "The MMR shot gives every kid a raging fever."
    for note, answers in (
        ("The MMR vaccine is very safe and effective.", True),
        ("The vaccine is very safe and effective.", False),
    ):
        rules = decide(Row(row.id, post, row.pages, note, row.cited)).rules
        assert (RuleId.ANSWERS_THE_CLAIM.value not in rules) is answers, note


def test_in_another_language_only_praise_of_a_source_is_refused() -> None:
    """Judging words and negations are English: a Spanish note is not read for them."""
    row = next(r for r in HAND_MADE if r.id == "measles-neighbouring-fact")
    note = "El sarampión es una enfermedad muy contagiosa."
    spanish = Row(row.id, row.post, row.pages, note, row.cited, language="es")
    assert RuleId.ANSWERS_THE_CLAIM.value not in decide(spanish).rules
    english = Row(row.id, row.post, row.pages, note, row.cited)
    assert RuleId.ANSWERS_THE_CLAIM.value in decide(english).rules


def test_praise_of_a_source_is_no_verdict() -> None:
    """A source's standing is praised in judging words ("reputable", "accurate"): they do not
    make it a verdict."""
    row = next(r for r in HAND_MADE if r.id == "cdc-standing")
    assert decide(row).rules == [RuleId.ANSWERS_THE_CLAIM.value]


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/evidence_claims")
def test_neighbouring_facts_from_the_data_sets() -> None:
    """On data nobody here wrote (`bench.claim_answers --neighbours`): no verdict of people is
    refused by this rule alone (one was, "The NHS advice people to take extra care …", until a
    short name shared with the claim counted), while another claim's evidence, its first
    sentence, on this claim is refused in over a fifth of AVeriTeC's cases where code published
    it or passed it on before (58 of 187 on 2026-12-03)."""
    from bench.claim_answers import judged, neighbouring_facts

    sets = neighbouring_facts(DATA)
    for found in sets.values():
        assert not any(judged(n.own).caught for n in found)
    firsts = [judged(n.first) for n in sets["averitec"] if n.first]
    live = [j for j in firsts if j.without != "refused"]
    assert sum(j.caught for j in live) > len(live) / 5


def test_the_writer_is_told_what_to_answer() -> None:
    row = HAND_MADE[0]
    from bench.rules import context_for, parsed
    from pipeline.drafting.rules import findings

    context = context_for(row)
    found = [
        f for f in findings(context, parsed(row, context)) if f.rule is RuleId.ANSWERS_THE_CLAIM
    ]
    assert len(found) == 1 and "accidental, poisoning, deaths, COVID, tally" in found[0].feedback


# The real model's off-claim writes code does not refuse (it passes them to the model's support
# check): each speaks in the claim's own words. Its other neighbouring facts in the claim's
# words ("Aspirin is also a nonsteroidal anti-inflammatory drug …", "Slaked lime is a common
# name for calcium hydroxide …", "South Korea has been able to contain the spread …", whose
# only page is a PMC copy) cite no source of standing (#59) and are refused for that;
# `answers-the-claim` alone would miss them (code reads words, not what is said of them).
ESCAPES = {
    "averitec-train-933#focused",  # Icke's theories were misleading: not whether he said this
}


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/evidence_claims")
def test_the_real_models_off_claim_writes_and_what_escapes() -> None:
    """The recorded writes of Qwen2.5-Coder-1.5B on refuted AVeriTeC claims (last writes and
    focused writes), each judged by a person: every one judged off the claim is refused but
    the known escapes; none judged to answer it is refused by this rule."""
    writes = real_model_writes(DATA)
    assert len(writes) == 19 and all(judged for _, judged in writes)
    off = {r.id: decide(r).verdict for r, judged in writes if judged.startswith("off-claim")}
    assert {i for i, verdict in off.items() if verdict != "refused"} == ESCAPES
    for row, judged in writes:
        if judged.startswith("answers"):
            assert RuleId.ANSWERS_THE_CLAIM.value not in decide(row).rules, row.id
