"""The OpenAI-compatible adapter against a real HTTP server that follows a script."""

from __future__ import annotations

import base64
import json
import socket

import pytest

from adapters.openai_chat import OpenAIChatModel
from pipeline.brief import VerificationBrief
from pipeline.errors import ModelOutputInvalid, ModelTimeout, ModelUnavailable
from pipeline.ports import ChatMessage
from tests.adapters.conftest import shipped_client
from tests.conftest import NetworkGuard
from tests.fakes.model_server import Raw, ScriptedModelServer
from tests.fakes.policy import DEFAULT_BRIEF

MESSAGES = [ChatMessage(role="system", content="analyse"), ChatMessage(role="user", content="p")]


def chat(base_url: str, model: str | None = None) -> OpenAIChatModel:
    client = shipped_client(base_url, timeout_s=5)  # the transport the bot ships with
    return OpenAIChatModel(client, model=model)


async def test_structured_output_uses_json_schema_and_validates(
    model_server: ScriptedModelServer,
) -> None:
    reply = await chat(model_server.base_url).structured(MESSAGES, VerificationBrief, timeout_s=5)
    assert reply.value.claim_pattern.value == DEFAULT_BRIEF["claim_pattern"]
    assert reply.model == "scripted-model"  # discovered from /v1/models
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0
    assert not reply.repaired
    sent = model_server.requests[0]
    assert sent["model"] == "scripted-model"
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["name"] == "VerificationBrief"
    assert sent["response_format"]["json_schema"]["schema"] == (
        VerificationBrief.model_json_schema()
    )


async def test_malformed_output_gets_one_repair_quoting_the_error(
    model_server: ScriptedModelServer,
) -> None:
    model_server.queue.append(Raw(content='{"claim_pattern": "astrology"}'))
    reply = await chat(model_server.base_url, "m").structured(
        MESSAGES, VerificationBrief, timeout_s=5
    )
    assert reply.repaired
    repair = model_server.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"claim_pattern": "astrology"}'}
    assert "claim_pattern" in repair[-1]["content"] and "not valid" in repair[-1]["content"]


async def test_output_still_malformed_after_repair_is_a_clear_error(
    model_server: ScriptedModelServer,
) -> None:
    model_server.queue += [Raw(content="Sure! Here is the brief."), Raw(content="{}")]
    with pytest.raises(ModelOutputInvalid, match="VerificationBrief even after a repair"):
        await chat(model_server.base_url, "m").structured(MESSAGES, VerificationBrief, timeout_s=5)


async def test_json_in_a_markdown_fence_is_accepted(model_server: ScriptedModelServer) -> None:
    model_server.queue.append(Raw(content="```json\n" + json.dumps(DEFAULT_BRIEF) + "\n```"))
    reply = await chat(model_server.base_url, "m").structured(
        MESSAGES, VerificationBrief, timeout_s=5
    )
    assert not reply.repaired


@pytest.mark.parametrize("model", [None, "m"], ids=["model-listed", "model-named"])
async def test_server_down_names_the_url(network_guard: NetworkGuard, model: str | None) -> None:
    # With the model named, the first request is the chat call itself, which the SDK's aiohttp
    # transport reports as a connect timeout: it must still read as "down" (queued, not failed).
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    network_guard.allow(port)
    with pytest.raises(ModelUnavailable, match=f"cannot reach the model server at .*:{port}"):
        await chat(f"http://127.0.0.1:{port}/v1", model).structured(
            MESSAGES, VerificationBrief, timeout_s=5
        )


async def test_credentials_in_the_url_are_sent_as_basic_auth(
    model_server: ScriptedModelServer,
) -> None:
    # A proxy in front of the model server may ask for basic auth in the URL; aiohttp refuses
    # it beside the SDK's bearer header, so the client sends it as the header itself.
    url = model_server.base_url.replace("http://", "http://proxy:s3cret@")
    client = shipped_client(url)
    await OpenAIChatModel(client, model="m").structured(MESSAGES, VerificationBrief, timeout_s=5)
    assert model_server.authorizations[-1] == "Basic " + base64.b64encode(b"proxy:s3cret").decode()
    assert "s3cret" not in str(client.base_url)


async def test_slow_server_hits_the_total_deadline(model_server: ScriptedModelServer) -> None:
    model_server.delay_s = 2.0
    with pytest.raises(ModelTimeout, match="within 0 s|within 1 s"):
        await chat(model_server.base_url, "m").structured(
            MESSAGES, VerificationBrief, timeout_s=0.5
        )


async def test_server_error_is_reported_with_its_status(
    model_server: ScriptedModelServer,
) -> None:
    model_server.queue.append(Raw(status=500, body={"error": {"message": "CUDA out of memory"}}))
    with pytest.raises(ModelUnavailable, match="HTTP 500"):
        await chat(model_server.base_url, "m").structured(MESSAGES, VerificationBrief, timeout_s=5)


async def test_unknown_model_is_named(model_server: ScriptedModelServer) -> None:
    model_server.queue.append(Raw(status=404, body={"error": {"message": "model not found"}}))
    with pytest.raises(ModelUnavailable, match="does not serve model 'medgemma'"):
        await chat(model_server.base_url, "medgemma").structured(
            MESSAGES, VerificationBrief, timeout_s=5
        )


async def test_each_call_type_has_its_own_output_cap(
    model_server: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.app import make_chat_model
    from bot.doctor import DoctorProbe
    from bot.settings import Settings
    from pipeline.evidence import PageNotes
    from pipeline.prompts import MAX_TOKENS

    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_LLM__MAX_TOKENS_BY_CALL", '{"PageNotes": 222}')
    model, client = make_chat_model(Settings())
    await model.structured(MESSAGES, VerificationBrief, timeout_s=5)
    await model.structured(MESSAGES, PageNotes, timeout_s=5)
    await model.structured(MESSAGES, DoctorProbe, timeout_s=5)
    await client.close()
    caps = [r["max_tokens"] for r in model_server.requests]
    # the default beside the prompt, the operator's override, the global limit for the rest
    assert caps == [MAX_TOKENS["VerificationBrief"], 222, 1500]


async def test_a_base_url_without_v1_is_told_to_add_it(model_server: ScriptedModelServer) -> None:
    bare = model_server.base_url.removesuffix("/v1")
    with pytest.raises(ModelUnavailable) as raised:
        await chat(bare).model_name()
    assert str(raised.value) == (
        f"the model server at {bare} answered 404 (not found): OpenAI-compatible servers "
        f"answer under /v1 — set EVONOTE_LLM__BASE_URL={bare}/v1"
    )
    assert "None" not in str(raised.value)


async def test_an_answer_cut_at_the_cap_is_asked_again_with_more_room_before_a_repair(
    model_server: ScriptedModelServer,
) -> None:
    # as llama.cpp answers when a claim analysis reaches its cap (17 of 80 answers in the
    # first real-model run were cut so, invalid JSON)
    cut = {
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "length",
                "message": {"role": "assistant", "content": '{"claim_pattern": "vaccine_risk", '},
            }
        ],
        "usage": {"prompt_tokens": 900, "completion_tokens": 500},
    }
    model_server.queue.append(Raw(body=cut))
    reply = await chat(model_server.base_url, "m").structured(
        MESSAGES, VerificationBrief, timeout_s=5
    )
    first, second = model_server.requests[-2:]
    assert second["max_tokens"] == 2 * first["max_tokens"]
    assert second["messages"] == first["messages"]  # the same request, not a repair
    assert not reply.repaired and reply.completion_tokens > 500
