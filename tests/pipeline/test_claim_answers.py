"""A note answers the post's claim (issue 60): a note on a source's standing ("The CDC is a
reputable organization …") that says nothing of the claim is refused by code
(`answers-the-claim`), shown on hand-made off-claim notes that code otherwise published on its
own word, and on the real model's recorded writes (when the evidence set is here to rebuild
their posts); neighbouring facts are measured, and missed."""

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
# The hand-made notes code is expected to miss. The rule refuses only a note that praises a
# source and shares nothing with the claims: refusing every note that shares nothing cost 43
# people's verdicts (over the trust issue's 5%), so neighbouring facts, and a source described
# without praise, go to the model's check.
MISSED = {
    "masks-shares-a-word",
    "masks-neighbouring-fact",
    "measles-neighbouring-fact",
    "radio-waves-neighbouring-fact",
    "fda-standing",
    "cochrane-standing",
}


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


def test_the_writer_is_told_what_to_answer() -> None:
    row = HAND_MADE[0]
    from bench.rules import context_for, parsed
    from pipeline.drafting.rules import findings

    context = context_for(row)
    found = [
        f for f in findings(context, parsed(row, context)) if f.rule is RuleId.ANSWERS_THE_CLAIM
    ]
    assert len(found) == 1 and "accidental, poisoning, deaths, COVID, tally" in found[0].feedback


# The real model's off-claim writes code publishes: none now. Its neighbouring fact in the
# claim's words ("Aspirin is also a nonsteroidal anti-inflammatory drug …" on "Aspirin combined
# with honey & lemon juice will kill the coronavirus") cites no source of standing (#59) and is
# refused for that; `answers-the-claim` alone would miss it (code reads words, not what is said
# of them).
ESCAPES: set[str] = set()


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/evidence_claims")
def test_the_real_models_off_claim_writes_and_what_escapes() -> None:
    """The recorded writes of Qwen2.5-Coder-1.5B on refuted AVeriTeC claims (last writes and
    focused writes), each judged by a person: every one judged off the claim is refused but
    the known escape; none judged to answer it is refused by this rule."""
    writes = real_model_writes(DATA)
    assert len(writes) == 8 and all(judged for _, judged in writes)
    off = {r.id: decide(r).verdict for r, judged in writes if judged.startswith("off-claim")}
    assert {i for i, verdict in off.items() if verdict != "refused"} == ESCAPES
    for row, judged in writes:
        if judged.startswith("answers"):
            assert RuleId.ANSWERS_THE_CLAIM.value not in decide(row).rules, row.id
