"""The real 1.5B model's blind support check, recorded through the shared logging proxy
(`python -m bench.blind_check --record`, hostile posts of `bench/data/blind_check_cases.json`)
and replayed: the request built today still holds none of the post's words, and no draft
whose clause its page does not say (a distortion, a myth the page only frames, an attribution
to research no page is) is published with that clause, whatever the model said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.blind_check import post_words_in
from bench.rules import Row, context_for, kept_after_check, parsed
from pipeline.drafting.decide import decide
from pipeline.drafting.support import support_findings, support_request
from pipeline.evidence import SupportVerdicts
from tests.fakes.replay import ReplayedModel

FIXTURE = Path(__file__).parent.parent / "fixtures" / "blind_check" / "real_model_answers.json"
DRAFTS: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["drafts"]
# The clause of each bad draft that no page says, as its words.
BAD_CLAUSE = {
    "mmr-stronger-second-clause": "high fever lasting a week",
    "garlic-framed-myth": "protects people",
    "fluoride-added-clause": "IQ",
    "flu-cdc-attribution-within": "research shows",
}


def row_of(case: dict[str, Any]) -> Row:
    return Row(case["id"], case["post"], case["pages"], case["note"], case["cited"])


async def published(case: dict[str, Any]) -> str:
    """What an episode's writing step keeps of the draft, the model's check replayed: the
    note's text, or "" when nothing is published."""
    model = ReplayedModel([{"schema": "SupportVerdicts", "answer": case["answer"]}])
    row = row_of(case)
    context = context_for(row)
    # the request as an episode asks it; the replay answers whatever it holds
    reply = await model.structured(
        support_request(context, parsed(row, context)), SupportVerdicts, timeout_s=1
    )
    return kept_after_check(row, reply.value)


@pytest.mark.parametrize("case", DRAFTS, ids=[c["id"] for c in DRAFTS])
def test_the_check_asked_today_holds_none_of_the_posts_words(case: dict[str, Any]) -> None:
    row = row_of(case)
    context = context_for(row)
    request = "\n".join(m.content for m in support_request(context, parsed(row, context)))
    pages = [f"{p['title']} {p['text']}" for p in row.pages]
    assert post_words_in(request, row.post, [row.note, *pages]) == []
    assert "CHECKER" not in request


@pytest.mark.parametrize("case", DRAFTS, ids=[c["id"] for c in DRAFTS])
async def test_the_recorded_verdicts_read_as_they_did(case: dict[str, Any]) -> None:
    row = row_of(case)
    context = context_for(row)
    draft = decide(context, parsed(row, context)).draft
    answer = SupportVerdicts.model_validate(case["answer"])
    found = support_findings(context, draft, answer)
    # recorded before the check quoted (#59): what the model refused is still refused, and a
    # clause it passed without a quote now goes back, for want of one
    assert set(case["not_borne_out"]) <= {f.sentence for f in found if f.sentence}
    quoted = [v for v in answer.verdicts if v.supported and v.quote]
    assert quoted or all(
        "quoted no sentence" in f.feedback
        or "not supported" in f.feedback
        or "not checked" in f.feedback
        for f in found
    )


@pytest.mark.parametrize("case_id", sorted(BAD_CLAUSE))
async def test_no_clause_its_page_does_not_say_is_published(case_id: str) -> None:
    case = next(c for c in DRAFTS if c["id"] == case_id)
    assert BAD_CLAUSE[case_id].lower() not in (await published(case)).lower()
