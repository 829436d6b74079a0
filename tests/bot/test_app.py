"""Wiring: settings choose the search backend and the page reader; gaps are named."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import respx

from adapters.local_corpus import LocalCorpus
from adapters.search.http_backends import SearxngSearch
from adapters.web.address_guard import SystemResolver
from adapters.web.reader import GuardedPageReader
from adapters.web.wiki_revisions import SettledWikiReader
from bot.app import make_evidence
from bot.cli import main
from bot.settings import ConfigurationError, Settings
from tests.fakes.documents import article_html
from tests.fakes.model_server import ScriptedModelServer


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


async def test_local_backend_reads_from_the_corpus(
    client: httpx.AsyncClient, corpus_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    search, reader = await make_evidence(Settings(), client)
    assert isinstance(search, LocalCorpus)
    assert reader is search


async def test_local_search_can_read_from_the_web(
    client: httpx.AsyncClient, corpus_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    monkeypatch.setenv("EVONOTE_READER__SOURCE", "web")
    search, reader = await make_evidence(Settings(), client)
    assert isinstance(search, LocalCorpus)
    # a wiki article read as the revision that stood (#59), every page through the guard
    assert isinstance(reader, SettledWikiReader)
    assert isinstance(reader.inner, GuardedPageReader)


async def test_searxng_backend_reads_the_web(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVONOTE_SEARCH__BACKEND", "searxng")
    monkeypatch.setenv("EVONOTE_SEARCH__SEARXNG_URL", "http://searx.local:8080")
    search, reader = await make_evidence(Settings(), client)
    assert isinstance(search, SearxngSearch)
    # a wiki article read as the revision that stood (#59), every page through the guard
    assert isinstance(reader, SettledWikiReader)
    assert isinstance(reader.inner, GuardedPageReader)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EVONOTE_SEARCH__BACKEND": "serper"}, "EVONOTE_SEARCH__SERPER_API_KEY is not set"),
        ({"EVONOTE_SEARCH__BACKEND": "tavily"}, "EVONOTE_SEARCH__TAVILY_API_KEY is not set"),
        ({"EVONOTE_SEARCH__BACKEND": "searxng"}, "EVONOTE_SEARCH__SEARXNG_URL is not set"),
        (
            {
                "EVONOTE_SEARCH__BACKEND": "brave",
                "EVONOTE_SEARCH__BRAVE_API_KEY": "k",
                "EVONOTE_READER__SOURCE": "corpus",
            },
            "set EVONOTE_SEARCH__CORPUS",
        ),
        ({"EVONOTE_SEARCH__CORPUS": "/nowhere/docs.jsonl"}, "does not exist"),
    ],
)
async def test_missing_settings_are_named(
    client: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    message: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigurationError, match=message):
        await make_evidence(Settings(), client)


def test_web_episode_end_to_end(
    model_server: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SearXNG finds pages, the guarded reader fetches them, the note cites what was read."""
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_SEARCH__BACKEND", "searxng")
    monkeypatch.setenv("EVONOTE_SEARCH__SEARXNG_URL", "http://searx.local:8080")
    addresses = {"www.cdc.gov": "93.184.216.34", "internal.example": "10.0.0.8"}

    async def resolve(self: SystemResolver, host: str, port: int) -> list[str]:
        return [addresses[host]]

    monkeypatch.setattr(SystemResolver, "resolve", resolve)
    with respx.mock(assert_all_called=False) as web:
        web.get("http://searx.local:8080/search").respond(
            200,
            json={
                "results": [
                    {  # on the claims, so code reads it: the guard must refuse it
                        "url": "http://internal.example/secrets",
                        "title": "Internal autism vaccine files",
                        "content": "",
                    },
                    {
                        "url": "https://www.cdc.gov/vaccinesafety/autism.html",
                        "title": "Autism and Vaccines",
                        "content": "No links found",
                    },
                ]
            },
        )
        page = web.get("https://93.184.216.34/vaccinesafety/autism.html").respond(
            200, html=article_html("Autism and Vaccines")
        )
        code = main(["check", "The MMR vaccine causes autism.", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["status"] == "noted"
    assert result["urls"] == ["https://www.cdc.gov/vaccinesafety/autism.html"]
    assert page.call_count == 1
    visit = next(s for s in result["steps"] if s["phase"] == "visit")
    assert "refused: internal.example resolves to 10.0.0.8" in visit["observation"]
    assert result["evidence"][-1]["tier"] == 4
    assert result["support_checked"] is True


async def test_replicas_make_a_pool(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adapters.model_pool import ModelPool
    from bot.app import build
    from pipeline.desk.admission import ObservedModel

    monkeypatch.setenv("EVONOTE_LLM__REPLICAS", f"{app_env.base_url}, {app_env.base_url}")
    async with build(Settings()) as app:
        observed = app.notes.runner.model
        assert isinstance(observed, ObservedModel)  # answers feed the admission gate
        pool = observed.inner
        assert isinstance(pool, ModelPool)
        assert len(pool.endpoints) == 3


def test_every_cap_the_settings_name_is_the_cap_the_code_sends() -> None:
    """Help text and code agree: each "Schema N" a setting's description names is that
    schema's output cap (the help once said PageNotes 300 while 80 was sent)."""
    import re

    from bot.app import token_caps
    from bot.settings import Settings

    caps = token_caps(Settings())
    named = []
    for section in Settings.model_fields.values():
        model = section.annotation
        for field in getattr(model, "model_fields", {}).values():
            named += re.findall(r"\b([A-Z][A-Za-z]+) (\d+)\b", field.description or "")
    named = [(schema, int(n)) for schema, n in named if schema in caps]
    assert len(named) >= 5
    assert all(caps[schema] == n for schema, n in named), named
