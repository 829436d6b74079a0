"""Fixtures the front-end tests share; they run under the blocking-call detector
(`tests/fakes/blocking.py`), as the pipeline's do."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from blockbuster import BlockBuster

from adapters.x.community_notes import CommunityNotesApi
from bot.app import App, build
from bot.settings import Settings
from tests.conftest import NetworkGuard
from tests.fakes.blocking import detecting_blocking_calls
from tests.fakes.community_notes import CREDENTIALS
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.slack_api import MockSlackApi


@pytest.fixture(autouse=True)
def blockbuster(request: pytest.FixtureRequest) -> Iterator[BlockBuster | None]:
    yield from detecting_blocking_calls(request)


@pytest.fixture
async def slack_api(network_guard: NetworkGuard) -> AsyncIterator[MockSlackApi]:
    """The local mock of Slack's Web API (user group SMODS has the moderator UMOD)."""
    api = MockSlackApi(group_members={"SMODS": ["UMOD"]})
    await api.start()
    network_guard.allow(api.port)
    yield api
    await api.stop()


@pytest.fixture
async def app(app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[App]:
    """The app of the Discord tests: guild 10, channel 20, moderators with role 77."""
    monkeypatch.setenv("EVONOTE_DISCORD__GUILDS", "10")
    monkeypatch.setenv("EVONOTE_DISCORD__CHANNELS", "20")
    monkeypatch.setenv("EVONOTE_DISCORD__MODERATOR_ROLES", "77")
    monkeypatch.setenv("EVONOTE_DISCORD__PROGRESS_INTERVAL_S", "0")
    async with build(Settings()) as built:
        yield built


@pytest.fixture
async def api() -> AsyncIterator[CommunityNotesApi]:
    """X's Community Notes API adapter (mock its answers with respx), in test mode."""
    async with httpx.AsyncClient() as client:
        yield CommunityNotesApi(client, CREDENTIALS, evaluate_path="/2/notes/evaluate")
