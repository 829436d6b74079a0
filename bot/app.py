"""The only place that builds concrete objects from Settings."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import httpx
import openai

from adapters.local_corpus import LocalCorpus
from adapters.openai_chat import OpenAIChatModel
from adapters.search.ddgs_search import DdgsSearch
from adapters.search.http_backends import BraveSearch, SearxngSearch, SerperSearch, TavilySearch
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from adapters.web.address_guard import SystemResolver
from adapters.web.page_cache import PageCache
from adapters.web.reader import GuardedPageReader, no_cookies
from bot.posts import PostResolver
from bot.service import NoteService
from bot.settings import Settings
from pipeline.episode import EpisodeRunner
from pipeline.errors import EvoNoteError
from pipeline.ports import NoMemory, PageReader, SearchEngine


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
            "{url, title, text} documents (e.g. ../shared/data/medquad/medquad_docs.jsonl) or "
            "an index folder, or choose a web backend with EVONOTE_SEARCH__BACKEND"
        )
    try:
        return await LocalCorpus.open(path.expanduser(), settings.data_dir / "corpus-cache")
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"EVONOTE_SEARCH__CORPUS: {e}") from e


def _key(settings: Settings, name: str) -> str:
    secret = getattr(settings.search, f"{name}_api_key")
    if secret is None or not secret.get_secret_value():
        raise ConfigurationError(
            f"EVONOTE_SEARCH__{name.upper()}_API_KEY is not set "
            f"(needed by EVONOTE_SEARCH__BACKEND={name})"
        )
    return str(secret.get_secret_value())


def make_web_search(settings: Settings, client: httpx.AsyncClient) -> SearchEngine:
    s = settings.search
    common = {"retries": s.retries}
    if s.backend == "searxng":
        if not s.searxng_url:
            raise ConfigurationError(
                "EVONOTE_SEARCH__SEARXNG_URL is not set (needed by EVONOTE_SEARCH__BACKEND=searxng)"
            )
        return SearxngSearch(client, s.searxng_url, **common)
    if s.backend == "serper":
        return SerperSearch(client, _key(settings, "serper"), **common)
    if s.backend == "brave":
        return BraveSearch(client, _key(settings, "brave"), **common)
    if s.backend == "tavily":
        return TavilySearch(client, _key(settings, "tavily"), **common)
    return DdgsSearch(timeout_s=s.timeout_s)


async def make_evidence(
    settings: Settings, client: httpx.AsyncClient
) -> tuple[SearchEngine, PageReader]:
    """The search engine and the page reader the settings ask for."""
    local = settings.search.backend == "local"
    use_corpus_reader = settings.reader.source == "corpus" or (
        settings.reader.source == "auto" and local
    )
    corpus = await open_corpus(settings) if local or use_corpus_reader else None
    search: SearchEngine = corpus if local and corpus else make_web_search(settings, client)
    if use_corpus_reader and corpus is not None:
        return search, corpus
    r = settings.reader
    cache = PageCache(settings.data_dir / "pages", r.cache_ttl_s) if r.cache_ttl_s else None
    reader = GuardedPageReader(
        client,
        SystemResolver(),
        cache=cache,
        max_bytes=r.max_bytes,
        max_redirects=r.max_redirects,
        timeout_s=settings.budget.page_timeout_s,
        user_agent=r.user_agent,
    )
    return search, reader


@asynccontextmanager
async def build(settings: Settings) -> AsyncIterator[App]:
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx.AsyncClient(
                timeout=settings.search.timeout_s, cookies=no_cookies(), follow_redirects=False
            )
        )
        search, reader = await make_evidence(settings, http)
        model, client = make_chat_model(settings)
        stack.push_async_callback(client.close)
        store = await stack.enter_async_context(open_store(settings))
        runner = EpisodeRunner(
            model=model,
            search=search,
            reader=reader,
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
