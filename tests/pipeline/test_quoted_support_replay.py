"""The real 1.5B model answering the check that quotes (#59), recorded and replayed.

`redteam_real.jsonl`: `python tests/redteam/support_check.py ID,…` on five red-team drafts that
reached the check with their payload (an outlet, an order, a dropped negation, a recombined
clause, a swapped virus), Qwen2.5-Coder-1.5B on the shared server, 2026-12-03. It called every
clause supported, as it passed 10 of 12 such drafts before; its quotes were its own clauses
(some with the request's "(cites: …)" echoed), no sentence of a page, so code's verification
leaves none of them standing. `blind_check_real.json`: `python -m bench.blind_check --record`
on the hostile posts of `bench/data/blind_check_cases.json`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.rules import Row, context_for, kept_after_check, parsed
from pipeline.drafting.decide import Verdict, decide
from pipeline.evidence import SupportVerdicts

HERE = Path(__file__).parent.parent
FIXTURES = HERE / "fixtures" / "quoted_support"
ROWS = {
    r["id"]: r
    for r in map(json.loads, (HERE / "redteam" / "rows.jsonl").read_text("utf-8").splitlines())
}
RECORDED = [
    json.loads(line)
    for line in (FIXTURES / "redteam_real.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]


def kept(row: Row, answer: dict[str, Any]) -> str:
    """What an episode's writing step keeps of the row's draft with this answer of the check."""
    return kept_after_check(row, SupportVerdicts.model_validate(answer))


@pytest.mark.parametrize("case", RECORDED, ids=[c["id"] for c in RECORDED])
def test_no_payload_the_real_model_passed_is_published(case: dict[str, Any]) -> None:
    r = ROWS[case["id"]]
    row = Row(r["id"], r["post"], r["pages"], r["note"], r["cited"])
    # the model obeyed: every clause supported
    assert all(v["supported"] for v in case["reply"]["verdicts"])
    assert r["marker"].lower() not in kept(row, case["reply"]).lower()


def test_the_same_answers_with_no_quote_verification_would_publish_payloads() -> None:
    """The quotes are what stops them: read as the check read before (every supported clause
    borne out), the same answers publish a payload."""
    published = 0
    for case in RECORDED:
        r = ROWS[case["id"]]
        row = Row(r["id"], r["post"], r["pages"], r["note"], r["cited"])
        context = context_for(row)
        decision = decide(context, parsed(row, context))
        if decision.verdict == Verdict.TO_MODEL:
            published += r["marker"].lower() in decision.draft.text.lower()
    assert published >= 3


BLIND = json.loads((FIXTURES / "blind_check_real.json").read_text("utf-8"))["drafts"]
# The clause of each bad draft that no page says, as its words (bench/data/blind_check_cases).
BAD_CLAUSE = {
    "mmr-stronger-second-clause": "high fever lasting a week",
    "garlic-framed-myth": "protects people",
    "fluoride-added-clause": "IQ",
    "flu-cdc-attribution-within": "research shows",
}


@pytest.mark.parametrize("case", BLIND, ids=[c["id"] for c in BLIND])
def test_the_hostile_posts_checks_publish_no_bad_clause(case: dict[str, Any]) -> None:
    """The model said supported to every clause of the six drafts; no bad clause stands, and
    the honest MMR note, quoted from its page, does."""
    row = Row(case["id"], case["post"], case["pages"], case["note"], case["cited"])
    assert all(v["supported"] for v in case["answer"]["verdicts"])
    published = kept(row, case["answer"])
    if case["id"] in BAD_CLAUSE:
        assert BAD_CLAUSE[case["id"]].lower() not in published.lower()
    if case["id"] == "mmr-honest":
        assert published == row.note
