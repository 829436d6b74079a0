"""Web search APIs over httpx: one small class per API, shared retries and error mapping."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import httpx

from adapters.answers import AnswerUnreadable, send_capped
from adapters.search.results import finish_results, parse_date
from pipeline.errors import SearchFailed
from pipeline.evidence import SearchResult

RETRYABLE = {429, 500, 502, 503, 504}


class HttpSearch:
    """Template: build the request, send with bounded retries and backoff, parse."""

    name = "search"

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        retries: int = 2,
        backoff_s: float = 0.5,
        max_results: int = 10,
    ) -> None:
        self.client = client
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_results = max_results

    def request(self, query: str, limit: int, before: datetime | None) -> httpx.Request:
        raise NotImplementedError

    def parse(self, payload: Any) -> list[SearchResult]:
        raise NotImplementedError

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        limit = min(limit, self.max_results)
        payload = await self._send(self.request(query, limit, published_before))
        try:
            results = self.parse(payload)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            # ValueError includes pydantic's: a result whose parts are not what they must be
            why = f"{type(e).__name__}: {str(e)[:120]}"
            raise SearchFailed(f"{self.name} answered in an unexpected shape ({why})") from e
        return finish_results(results, limit, published_before)

    async def _send(self, request: httpx.Request) -> Any:
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                response = await send_capped(self.client, request)
            except httpx.HTTPError as e:
                if last:
                    raise SearchFailed(
                        f"{self.name} could not be reached ({type(e).__name__})"
                    ) from e
            except AnswerUnreadable as e:
                raise SearchFailed(f"{self.name} answered in an unexpected way ({e})") from e
            else:
                if response.status_code in RETRYABLE and not last:
                    pass
                elif response.status_code in (401, 403):
                    raise SearchFailed(
                        f"{self.name} refused the API key (HTTP {response.status_code})"
                    )
                elif response.status_code >= 400:
                    raise SearchFailed(f"{self.name} answered HTTP {response.status_code}")
                else:
                    try:
                        return response.json()
                    except AnswerUnreadable as e:
                        raise SearchFailed(
                            f"{self.name} answered with something other than JSON ({e})"
                        ) from e
            await asyncio.sleep(self.backoff_s * 2**attempt)
        raise SearchFailed(f"{self.name} kept failing")


def rows_to_results(
    rows: list[dict[str, Any]], *, url: str, snippet: str, date: str | None = None
) -> list[SearchResult]:
    """Map one API's result rows onto SearchResult (a row without its URL is an error)."""
    return [
        SearchResult(
            title=row.get("title") or "",
            url=row[url],
            snippet=row.get(snippet) or "",
            published=parse_date(row.get(date)) if date else None,
        )
        for row in rows
    ]


class SearxngSearch(HttpSearch):
    """Self-hosted SearXNG; JSON output must be enabled in its settings."""

    name = "SearXNG"

    def __init__(self, client: httpx.AsyncClient, base_url: str, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.base_url = base_url.rstrip("/")

    def request(self, query: str, limit: int, before: datetime | None) -> httpx.Request:
        return self.client.build_request(
            "GET", f"{self.base_url}/search", params={"q": query, "format": "json"}
        )

    def parse(self, payload: Any) -> list[SearchResult]:
        return rows_to_results(
            payload["results"], url="url", snippet="content", date="publishedDate"
        )


class KeyedSearch(HttpSearch):
    """A hosted search API that takes an API key."""

    def __init__(self, client: httpx.AsyncClient, api_key: str, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self.api_key = api_key


class SerperSearch(KeyedSearch):
    name = "Serper"
    endpoint = "https://google.serper.dev/search"

    def request(self, query: str, limit: int, before: datetime | None) -> httpx.Request:
        body: dict[str, Any] = {"q": query, "num": limit}
        if before is not None:
            body["tbs"] = f"cdr:1,cd_max:{before:%m/%d/%Y}"
        return self.client.build_request(
            "POST", self.endpoint, json=body, headers={"X-API-KEY": self.api_key}
        )

    def parse(self, payload: Any) -> list[SearchResult]:
        return rows_to_results(
            payload.get("organic", []), url="link", snippet="snippet", date="date"
        )


class BraveSearch(KeyedSearch):
    name = "Brave"
    endpoint = "https://api.search.brave.com/res/v1/web/search"

    def request(self, query: str, limit: int, before: datetime | None) -> httpx.Request:
        params: dict[str, Any] = {"q": query, "count": limit}
        if before is not None:
            params["freshness"] = f"1990-01-01to{before:%Y-%m-%d}"
        return self.client.build_request(
            "GET",
            self.endpoint,
            params=params,
            headers={"X-Subscription-Token": self.api_key, "Accept": "application/json"},
        )

    def parse(self, payload: Any) -> list[SearchResult]:
        return rows_to_results(
            payload.get("web", {}).get("results", []),
            url="url",
            snippet="description",
            date="page_age",
        )


class TavilySearch(KeyedSearch):
    name = "Tavily"
    endpoint = "https://api.tavily.com/search"

    def request(self, query: str, limit: int, before: datetime | None) -> httpx.Request:
        body: dict[str, Any] = {
            "query": query,
            "max_results": limit,
            "search_depth": "basic",
            "topic": "general",
        }
        if before is not None:
            body["end_date"] = f"{before:%Y-%m-%d}"
        return self.client.build_request(
            "POST", self.endpoint, json=body, headers={"Authorization": f"Bearer {self.api_key}"}
        )

    def parse(self, payload: Any) -> list[SearchResult]:
        return rows_to_results(
            payload["results"], url="url", snippet="content", date="published_date"
        )
