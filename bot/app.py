"""The only place that builds concrete objects from Settings."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import openai

from adapters.local_corpus import LocalCorpus
from adapters.openai_chat import OpenAIChatModel
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from bot.posts import PostResolver
from bot.service import NoteService
from bot.settings import Settings
from pipeline.episode import EpisodeRunner
from pipeline.errors import EvoNoteError
from pipeline.ports import NoMemory


class ConfigurationError(EvoNoteError):
    """A setting is missing or points at something that is not there."""


@dataclass
class App:
    settings: Settings
    store: EpisodeStore
    notes: NoteService
    model: OpenAIChatModel


@asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[EpisodeStore]:
    engine = make_engine(settings.database_url)
    try:
        await upgrade(settings.database_url)
        store = EpisodeStore(engine)
        await store.fail_abandoned()
        yield store
    finally:
        await engine.dispose()


def make_chat_model(settings: Settings) -> tuple[OpenAIChatModel, openai.AsyncOpenAI]:
    llm = settings.llm
    client = openai.AsyncOpenAI(
        base_url=llm.base_url,
        api_key=llm.api_key.get_secret_value() or "EMPTY",
        max_retries=llm.max_retries,
        timeout=llm.call_timeout_s,
    )
    extra = {"chat_template_kwargs": {"enable_thinking": False}} if llm.disable_thinking else None
    model = OpenAIChatModel(
        client,
        model=llm.writer_model,
        temperature=llm.temperature,
        max_tokens=llm.max_tokens,
        extra_body=extra,
    )
    return model, client


async def open_corpus(settings: Settings) -> LocalCorpus:
    path = settings.search.corpus
    if path is None:
        raise ConfigurationError(
            "no evidence corpus is configured: set EVONOTE_SEARCH__CORPUS to a JSONL file of "
            "{url, title, text} documents (e.g. ../shared/data/medquad/medquad_docs.jsonl)"
        )
    try:
        return await LocalCorpus.open(path.expanduser(), settings.data_dir / "corpus-cache")
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"EVONOTE_SEARCH__CORPUS: {e}") from e


@asynccontextmanager
async def build(settings: Settings) -> AsyncIterator[App]:
    corpus = await open_corpus(settings)
    model, client = make_chat_model(settings)
    try:
        async with open_store(settings) as store:
            runner = EpisodeRunner(
                model=model,
                search=corpus,
                reader=corpus,
                memory=NoMemory(),
                budget=settings.evidence_budget(),
            )
            notes = NoteService(
                store=store,
                posts=PostResolver(),
                runner=runner,
                worker_id=f"{socket.gethostname()}:{os.getpid()}",
            )
            yield App(settings=settings, store=store, notes=notes, model=model)
    finally:
        await client.close()
