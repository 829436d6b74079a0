"""Fixtures the front-end tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import NetworkGuard
from tests.fakes.slack_api import MockSlackApi


@pytest.fixture
async def slack_api(network_guard: NetworkGuard) -> AsyncIterator[MockSlackApi]:
    """The local mock of Slack's Web API (user group SMODS has the moderator UMOD)."""
    api = MockSlackApi(group_members={"SMODS": ["UMOD"]})
    await api.start()
    network_guard.allow(api.port)
    yield api
    await api.stop()
