"""Every structured-output schema compiles under the grammar engines that serve it.

llguidance (vLLM's `guidance` backend, SGLang) is installed with the dev extras and always
checked. xgrammar (vLLM's default) needs torch and transformers, so it is checked where it is
installed (`pip install xgrammar torch==2.13.0 transformers`) and skipped elsewhere.
"""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from adapters.openai_chat import serving_schema
from pipeline.prompts import AGENT_OUTPUT, FINAL_OUTPUT
from tests.fakes.schemas import IDS, SCHEMAS


@pytest.mark.parametrize("output", SCHEMAS, ids=IDS)
def test_llguidance_compiles_every_schema(output: type[BaseModel]) -> None:
    from llguidance import LLMatcher

    grammar = LLMatcher.grammar_from_json_schema(json.dumps(serving_schema(output)))
    assert LLMatcher.validate_grammar(grammar) == ""


def test_llguidance_refuses_what_pydantic_emits_for_unions() -> None:
    """Why the schema is rewritten: the discriminated union's raw `oneOf` is refused."""
    from llguidance import LLMatcher

    raw = LLMatcher.grammar_from_json_schema(json.dumps(AGENT_OUTPUT.model_json_schema()))
    assert "oneOf" in LLMatcher.validate_grammar(raw)


@pytest.mark.parametrize("output", SCHEMAS, ids=IDS)
def test_xgrammar_compiles_every_schema(output: type[BaseModel]) -> None:
    xgrammar = pytest.importorskip("xgrammar", reason="xgrammar needs torch; not installed")
    grammar = xgrammar.Grammar.from_json_schema(json.dumps(serving_schema(output)))
    assert "root" in str(grammar)


@pytest.mark.parametrize("output", [AGENT_OUTPUT, FINAL_OUTPUT], ids=["AgentTurn", "FinalTurn"])
def test_rewritten_unions_still_parse_every_branch(output: type[BaseModel]) -> None:
    schema = json.dumps(serving_schema(output))
    assert "oneOf" not in schema and "discriminator" not in schema
    write = {"kind": "write", "text": "Vaccines are safe.", "support": [{"claim": "c", "url": "u"}]}
    parsed = output.model_validate({"thought": "", "action": write})
    assert parsed.action.kind == "write"  # type: ignore[attr-defined]


def test_the_note_schema_asks_for_prose_near_the_note_while_validation_stays_lenient() -> None:
    from pipeline.actions import Write
    from pipeline.drafting.note import NOTE_CHAR_LIMIT

    bound = Write.model_json_schema()["properties"]["text"]["maxLength"]
    assert NOTE_CHAR_LIMIT < bound <= 1.5 * NOTE_CHAR_LIMIT  # a grammar stops drafts there
    long = Write(text="Measles vaccines are safe. " * 30, support=[{"claim": "c", "url": "u"}])
    assert len(long.text) > bound  # an unconstrained server's long draft is trimmed, not refused


def test_a_list_a_grammar_filled_with_one_item_keeps_it_once() -> None:
    """On llama.cpp a small model repeated one tag 7 times and one rating reason 8 times, up to
    the list's maxItems (or past the bound validation keeps)."""
    from pipeline.actions import Write
    from pipeline.forecast.prompts import RatingForm
    from pipeline.prompts import NoteClassification

    tags = NoteClassification.model_validate(
        {"classification": "not_misleading", "misleading_tags": ["other"] * 8}
    )
    assert tags.misleading_tags == ["other"]
    form = {"helpfulness": "helpful", "agree": True, "confidence": 3, "understanding": 3}
    rating = RatingForm.model_validate({**form, "not_helpful_reasons": ["Incorrect"] * 9})
    assert rating.not_helpful_reasons == ["Incorrect"]
    claim = {"claim": "c", "url": "https://www.cdc.gov/a", "quote": "q"}
    write = Write.model_validate({"text": "t.", "support": [claim] * 7})
    assert len(write.support) == 1
    assert Write.model_validate({"text": "t.", "support": [claim, {**claim, "quote": "r"}]})


def test_verdicts_numbered_from_zero_mean_the_sentences_from_one() -> None:
    from pipeline.evidence import SupportVerdicts

    zero = SupportVerdicts.model_validate(
        {"verdicts": [{"index": 0, "supported": True}, {"index": 1, "supported": False}]}
    )
    assert [(v.index, v.supported) for v in zero.verdicts] == [(1, True), (2, False)]
    # numbered from one, or with a gap: taken as written
    gap = SupportVerdicts.model_validate(
        {"verdicts": [{"index": 0, "supported": True}, {"index": 2, "supported": False}]}
    )
    assert [v.index for v in gap.verdicts] == [0, 2]


def test_the_schema_sent_asks_for_less_than_validation_accepts() -> None:
    """What the grammar lets a model write is what is wanted: three supports of a short claim
    and one quoted sentence, prose near the note's length."""
    schema = json.dumps(serving_schema(AGENT_OUTPUT))
    for bound in ('"maxItems": 3', '"maxLength": 420', '"maxLength": 300', '"maxLength": 200'):
        assert bound in schema, bound
