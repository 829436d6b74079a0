"""The model server the settings name (`EVONOTE_LLM__*`), for benchmarks that ask it one
kind of call directly."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.app import make_chat_model
from bot.settings import Settings
from pipeline.ports import ChatModel


async def with_configured_model(work: Callable[[ChatModel, float], Awaitable[object]]) -> None:
    """`work(model, call_timeout_s)`, the client's connections closed after."""
    settings = Settings()
    model, client = make_chat_model(settings)
    try:
        await work(model, settings.llm.call_timeout_s)
    finally:
        await client.close()
