"""Search backends against respx mocks shaped like each API's real responses."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import respx

from adapters.search.ddgs_search import DdgsSearch
from adapters.search.http_backends import BraveSearch, SearxngSearch, SerperSearch, TavilySearch
from pipeline.errors import SearchFailed
from pipeline.urls import canonical_url

CAP = datetime(2021, 3, 1, tzinfo=UTC)


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as c:
        yield c


def test_canonical_urls_drop_tracking_and_fragments() -> None:
    assert canonical_url("HTTPS://WWW.CDC.gov:443/a?utm_source=x&id=3#top") == (
        "https://www.cdc.gov/a?id=3"
    )
    assert canonical_url("http://who.int") == "http://who.int/"


@respx.mock
async def test_searxng(client: httpx.AsyncClient) -> None:
    route = respx.get("http://searx.local:8080/search").respond(
        200,
        json={
            "query": "mmr autism",
            "number_of_results": 3,
            "unresponsive_engines": [],
            "results": [
                {
                    "url": "https://www.cdc.gov/vaccinesafety/concerns/autism.html",
                    "title": "Autism and Vaccines | CDC",
                    "content": "Studies have shown...",
                    "engine": "google",
                    "publishedDate": "2020-08-25T00:00:00",
                },
                {
                    "url": "https://www.cdc.gov/vaccinesafety/concerns/autism.html#main",
                    "title": "duplicate",
                    "content": "",
                    "engine": "bing",
                },
                {
                    "url": "https://news.example/2022/story",
                    "title": "Later story",
                    "content": "",
                    "publishedDate": "2022-01-05T00:00:00Z",
                },
            ],
        },
    )
    engine = SearxngSearch(client, "http://searx.local:8080/")
    results = await engine.search("mmr autism", limit=10, published_before=CAP)
    assert [r.url for r in results] == ["https://www.cdc.gov/vaccinesafety/concerns/autism.html"]
    assert results[0].published == datetime(2020, 8, 25)
    assert route.calls.last.request.url.params["format"] == "json"


@respx.mock
async def test_serper_sends_the_date_cap(client: httpx.AsyncClient) -> None:
    route = respx.post("https://google.serper.dev/search").respond(
        200,
        json={
            "searchParameters": {"q": "mmr autism", "type": "search"},
            "organic": [
                {
                    "title": "Vaccines and autism",
                    "link": "https://www.who.int/x",
                    "snippet": "No evidence...",
                    "date": "Feb 3, 2021",
                    "position": 1,
                }
            ],
        },
    )
    results = await SerperSearch(client, "k").search("mmr autism", limit=5, published_before=CAP)
    sent = json.loads(route.calls.last.request.content)
    assert sent == {"q": "mmr autism", "num": 5, "tbs": "cdr:1,cd_max:03/01/2021"}
    assert route.calls.last.request.headers["X-API-KEY"] == "k"
    assert results[0].url == "https://www.who.int/x"
    assert results[0].published == datetime(2021, 2, 3)


@respx.mock
async def test_brave(client: httpx.AsyncClient) -> None:
    route = respx.get("https://api.search.brave.com/res/v1/web/search").respond(
        200,
        json={
            "type": "search",
            "web": {
                "type": "search",
                "results": [
                    {
                        "title": "MMR vaccine",
                        "url": "https://medlineplus.gov/mmr.html",
                        "description": "The MMR vaccine...",
                        "page_age": "2020-06-01T00:00:00",
                    }
                ],
            },
        },
    )
    results = await BraveSearch(client, "bk").search("mmr", limit=3, published_before=CAP)
    request = route.calls.last.request
    assert request.headers["X-Subscription-Token"] == "bk"
    assert request.url.params["freshness"] == "1990-01-01to2021-03-01"
    assert results[0].snippet == "The MMR vaccine..."


@respx.mock
async def test_tavily(client: httpx.AsyncClient) -> None:
    route = respx.post("https://api.tavily.com/search").respond(
        200,
        json={
            "query": "mmr",
            "response_time": 1.1,
            "results": [
                {
                    "title": "MMR",
                    "url": "https://www.nhs.uk/vaccinations/mmr-vaccine/",
                    "content": "The MMR vaccine is...",
                    "score": 0.91,
                }
            ],
        },
    )
    results = await TavilySearch(client, "tk").search("mmr", limit=3)
    assert route.calls.last.request.headers["Authorization"] == "Bearer tk"
    assert results[0].url == "https://www.nhs.uk/vaccinations/mmr-vaccine/"


@respx.mock
async def test_retries_with_backoff_then_succeeds(client: httpx.AsyncClient) -> None:
    route = respx.post("https://google.serper.dev/search").mock(
        side_effect=[
            httpx.Response(503),
            httpx.Response(429),
            httpx.Response(200, json={"organic": [{"title": "t", "link": "https://a.org/"}]}),
        ]
    )
    results = await SerperSearch(client, "k", backoff_s=0.01).search("q", limit=3)
    assert route.call_count == 3
    assert len(results) == 1


@pytest.mark.parametrize(
    ("responses", "message"),
    [
        ([httpx.Response(503)] * 3, "answered HTTP 503"),
        ([httpx.Response(401)], "refused the API key"),
        ([httpx.Response(200, text="<html>")], "something other than JSON"),
        ([httpx.Response(200, json={"organic": [{"title": "no link"}]})], "unexpected shape"),
        ([httpx.ConnectError("down")] * 3, "could not be reached"),
    ],
)
@respx.mock
async def test_failures_are_structured_errors(
    client: httpx.AsyncClient, responses: list[Any], message: str
) -> None:
    respx.post("https://google.serper.dev/search").mock(side_effect=responses)
    with pytest.raises(SearchFailed, match=message):
        await SerperSearch(client, "k", backoff_s=0.0).search("q", limit=3)


async def test_ddgs_runs_off_the_loop_and_maps_fields() -> None:
    class FakeDDGS:
        def text(self, query: str, **kwargs: Any) -> list[dict[str, str]]:
            return [
                {
                    "title": "Measles",
                    "href": "https://www.who.int/measles?utm_medium=x",
                    "body": "Measles is...",
                },
                {"title": "dup", "href": "https://www.who.int/measles"},
            ]

    results = await DdgsSearch(FakeDDGS).search("measles", limit=5)
    assert [r.url for r in results] == ["https://www.who.int/measles"]


async def test_ddgs_errors_become_search_failed() -> None:
    class Limited:
        def text(self, query: str, **kwargs: Any) -> list[dict[str, str]]:
            raise RuntimeError("202 Ratelimit")

    with pytest.raises(SearchFailed, match="DDGS failed: RuntimeError: 202 Ratelimit"):
        await DdgsSearch(Limited).search("measles", limit=5)


HOSTILE_SEARXNG = [
    {"results": "not a list"},
    {"results": [1, "two", None, []]},
    {"results": [{"url": 5, "title": []}]},
    {"results": [{"title": "no url"}]},
    {"results": None},
    [],
    "just a string",
]


@pytest.mark.parametrize("body", HOSTILE_SEARXNG)
@respx.mock
async def test_searxng_answers_of_the_wrong_shape_are_search_failures(
    client: httpx.AsyncClient, body: object
) -> None:
    respx.get("http://searx.local:8080/search").respond(200, json=body)
    engine = SearxngSearch(client, "http://searx.local:8080/", retries=0)
    with pytest.raises(SearchFailed, match="SearXNG answered in an unexpected shape"):
        await engine.search("mmr autism", limit=10)


@respx.mock
async def test_a_result_with_a_port_out_of_range_is_dropped(client: httpx.AsyncClient) -> None:
    bad = {"url": "https://a.example:99999/x", "title": "bad port", "content": ""}
    good = {"url": "https://www.who.int/x", "title": "WHO", "content": ""}
    respx.get("http://searx.local:8080/search").respond(200, json={"results": [bad, good]})
    engine = SearxngSearch(client, "http://searx.local:8080/", retries=0)
    results = await engine.search("q", limit=10)
    assert [r.url for r in results] == ["https://www.who.int/x"]


@respx.mock
async def test_a_searxng_answer_nested_too_deep_or_too_big_is_a_search_failure(
    client: httpx.AsyncClient,
) -> None:
    route = respx.get("http://searx.local:8080/search")
    engine = SearxngSearch(client, "http://searx.local:8080/", retries=0)
    route.respond(200, content=b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(SearchFailed, match="nested too deeply"):
        await engine.search("q", limit=3)
    route.respond(200, content=b" " * 3_000_000)
    with pytest.raises(SearchFailed, match="larger than"):
        await engine.search("q", limit=3)
