"""Several replicas of the model server: calls go to the least busy, and around a dead one."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import pytest

from adapters.model_pool import ModelPool
from adapters.openai_chat import OpenAIChatModel
from pipeline.brief import VerificationBrief
from pipeline.errors import ModelUnavailable
from pipeline.ports import ChatMessage
from tests.adapters.conftest import shipped_client
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.policy import ResearchPolicy

MESSAGES = [ChatMessage(role="user", content="analyse")]


@pytest.fixture
def replicas(network_guard: NetworkGuard) -> Iterator[list[ScriptedModelServer]]:
    servers = [ScriptedModelServer(ResearchPolicy(), delay_s=0.2).start() for _ in range(2)]
    for server in servers:
        network_guard.allow(server.port)
    yield servers
    for server in servers:
        server.stop()


def endpoint(base_url: str) -> OpenAIChatModel:
    return OpenAIChatModel(shipped_client(base_url), model="m")


async def test_calls_spread_over_the_least_busy_replicas(
    replicas: list[ScriptedModelServer],
) -> None:
    pool = ModelPool([endpoint(s.base_url) for s in replicas])
    started = asyncio.get_running_loop().time()
    await asyncio.gather(
        *(pool.structured(MESSAGES, VerificationBrief, timeout_s=5) for _ in range(8))
    )
    elapsed = asyncio.get_running_loop().time() - started
    await pool.close()
    assert [len(s.requests) for s in replicas] == [4, 4]
    assert elapsed < 1.0


async def test_a_dead_replica_is_skipped(
    replicas: list[ScriptedModelServer], network_guard: NetworkGuard
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    network_guard.allow(dead)
    pool = ModelPool([endpoint(f"http://127.0.0.1:{dead}/v1"), endpoint(replicas[0].base_url)])
    for _ in range(3):
        reply = await pool.structured(MESSAGES, VerificationBrief, timeout_s=5)
        assert reply.value.claim_pattern
    assert len(replicas[0].requests) == 3
    only_dead = ModelPool([endpoint(f"http://127.0.0.1:{dead}/v1")])
    with pytest.raises(ModelUnavailable, match=f"127.0.0.1:{dead}"):
        await only_dead.structured(MESSAGES, VerificationBrief, timeout_s=5)
    await pool.close()
    await only_dead.close()
