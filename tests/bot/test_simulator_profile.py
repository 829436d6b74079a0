"""The honest simulator's model-server profile: prefill, contended decoding, output lengths."""

from __future__ import annotations

import random

import httpx
import pytest

from bot.simulator.model import ResearchPolicy
from bot.simulator.profile import PROFILES, ServerProfile
from tests.conftest import NetworkGuard
from tests.fakes.model_server import Raw, ScriptedModelServer

H200_27B = PROFILES["h200-27b"]


def test_decode_slows_linearly_then_shares_a_full_batch() -> None:
    assert H200_27B.decode_rate(1) == 40
    assert H200_27B.decode_rate(30) == 15
    assert 15 < H200_27B.decode_rate(15) < 40
    assert H200_27B.decode_rate(15) == pytest.approx(40 - 25 * 14 / 29)
    # Beyond the full batch the server's total throughput stays 30 × 15 tokens per second.
    assert H200_27B.decode_rate(60) * 60 == pytest.approx(15 * 30)
    assert H200_27B.decode_rate(0) == 40


def test_output_lengths_follow_the_call_type_with_seeded_jitter() -> None:
    lengths = [H200_27B.completion_tokens("VerificationBrief", random.Random(i)) for i in range(50)]
    assert all(225 <= n <= 375 for n in lengths) and len(set(lengths)) > 10
    again = [H200_27B.completion_tokens("VerificationBrief", random.Random(i)) for i in range(50)]
    assert again == lengths
    rating = H200_27B.completion_tokens("RatingForm", random.Random(0))
    unknown = H200_27B.completion_tokens("SomethingNew", random.Random(0))
    assert 95 <= rating <= 165 and 110 <= unknown <= 190


def test_a_call_spends_prefill_then_decoding_at_the_batch_rate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slept: list[float] = []
    monkeypatch.setattr("bot.simulator.server.time.sleep", slept.append)
    profile = ServerProfile("flat", 1_000, 40, 10, 4, output_tokens={"X": 64}, jitter=0.0)
    server = ScriptedModelServer(ResearchPolicy(), profile=profile)
    try:
        assert server.generate(2_000, "X") == 64
        assert slept[0] == pytest.approx(2.0)  # 2,000 prompt tokens at 1,000 per second
        assert sum(slept[1:]) == pytest.approx(64 / 40)  # decoding alone
        slept.clear()
        server.decoding = 3  # three other sequences decoding: a full batch of four
        assert server.generate(0, "X") == 64
        assert sum(slept[1:]) == pytest.approx(64 / 10)
        assert server.decoding == 3  # its own sequence left the batch
    finally:
        server.httpd.server_close()


def test_the_server_reports_the_profile_s_output_length(network_guard: NetworkGuard) -> None:
    server = ScriptedModelServer(
        ResearchPolicy(), profile=H200_27B, time_scale=0.0, queue=[Raw(content="{}")]
    ).start()
    network_guard.allow(server.port)
    try:
        reply = httpx.post(
            f"{server.base_url}/chat/completions",
            json={
                "model": server.model,
                "messages": [{"role": "user", "content": "x" * 400}],
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "VerificationBrief", "schema": {}},
                },
            },
            timeout=10,
        ).json()
    finally:
        server.stop()
    assert reply["choices"][0]["message"]["content"] == "{}"
    assert 300 <= reply["usage"]["completion_tokens"] <= 500
    assert reply["usage"]["prompt_tokens"] >= 100


def test_the_cpu_profile_writes_what_the_real_small_model_wrote() -> None:
    """Measured on llama.cpp with Qwen2.5-Coder-1.5B: longer turns than the 27B shapes, and a
    server that is slow everywhere."""
    cpu = PROFILES["cpu-1.5b"]
    assert cpu.output_tokens["AgentTurn"] > H200_27B.output_tokens["AgentTurn"]
    assert cpu.output_tokens["RatingForm"] == H200_27B.output_tokens["RatingForm"]  # not measured
    assert cpu.prefill_s(2_500) > 30 and cpu.decode_rate(2) == 8
