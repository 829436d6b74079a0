"""Opt-in: one episode against the real model server in EVONOTE_LLM__BASE_URL.

EVONOTE_TEST_REAL_MODEL=1 EVONOTE_LLM__BASE_URL=http://gpu:8000/v1 pytest -m real_model
"""

from __future__ import annotations

import os

import openai
import pytest
from pydantic import BaseModel

from adapters.local_corpus import LocalCorpus
from adapters.openai_chat import OpenAIChatModel, response_format_for
from pipeline.budget import EvidenceBudget
from pipeline.drafting.note import NOTE_CHAR_LIMIT, note_length
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.conftest import REAL_MODEL, SHARED_DATA
from tests.fakes.schemas import IDS, SCHEMAS

# Read before the autouse fixture clears EVONOTE_ variables for the other tests.
BASE_URL = os.environ.get("EVONOTE_LLM__BASE_URL", "http://localhost:8000/v1")
MODEL = os.environ.get("EVONOTE_LLM__WRITER_MODEL")
API_KEY = os.environ.get("EVONOTE_LLM__API_KEY", "EMPTY")


@pytest.mark.real_model
@pytest.mark.skipif(not REAL_MODEL, reason="set EVONOTE_TEST_REAL_MODEL=1 to use a real model")
async def test_one_real_episode_keeps_every_rule() -> None:
    corpus_path = SHARED_DATA / "medquad" / "medquad_docs.jsonl"
    if not corpus_path.is_file():
        pytest.skip("the MedQuAD corpus in ../shared/data is needed")
    corpus = await LocalCorpus.open(corpus_path)
    client = openai.AsyncOpenAI(base_url=BASE_URL, api_key=API_KEY, max_retries=1, timeout=120)
    runner = EpisodeRunner(
        model=OpenAIChatModel(client, model=MODEL),
        search=corpus,
        reader=corpus,
        memory=NoMemory(),
        budget=EvidenceBudget(),
    )
    outcome = await runner.run(Post(text="The MMR vaccine causes autism. Skip it."))
    await client.close()
    assert outcome.status in ("noted", "abstained")
    if outcome.status == "noted":
        assert outcome.note is not None
        assert note_length(outcome.note) <= NOTE_CHAR_LIMIT
        assert outcome.urls
        assert set(outcome.urls) <= {e.url for e in outcome.evidence}


@pytest.mark.real_model
@pytest.mark.skipif(not REAL_MODEL, reason="set EVONOTE_TEST_REAL_MODEL=1 to use a real model")
@pytest.mark.parametrize("output", SCHEMAS, ids=IDS)
async def test_the_servers_grammar_engine_takes_every_schema(output: type[BaseModel]) -> None:
    """The server's own converter (llama.cpp's JSON-schema → grammar, vLLM's xgrammar or
    guidance) compiles each schema as sent: a schema it cannot convert is a 400."""
    client = openai.AsyncOpenAI(base_url=BASE_URL, api_key=API_KEY, max_retries=0, timeout=300)
    try:
        reply = await client.chat.completions.create(
            model=MODEL or "default",
            messages=[{"role": "user", "content": "Answer as JSON."}],
            max_tokens=4,
            response_format=response_format_for(output),  # type: ignore[arg-type]
        )
    finally:
        await client.close()
    assert reply.choices[0].message.content is not None
    assert reply.choices[0].message.content.lstrip().startswith("{")
