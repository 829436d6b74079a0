"""Model clients as the bot builds them, closed after each test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import openai
import pytest

from bot.app import openai_client

_open: list[openai.AsyncOpenAI] = []


def shipped_client(base_url: str, **options: Any) -> openai.AsyncOpenAI:
    """A client over the transport the bot ships with (`bot.app.openai_client`)."""
    client = openai_client(base_url, **options)
    _open.append(client)
    return client


@pytest.fixture(autouse=True)
async def close_model_clients() -> AsyncIterator[None]:
    yield
    while _open:
        await _open.pop().close()
