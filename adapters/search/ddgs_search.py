"""Keyless search through the `ddgs` metasearch library (no API key: a zero-setup choice).

`ddgs` is synchronous and brings its own HTTP client, so it runs in a worker thread under a
timeout. It reports no dates, so a date cap cannot be applied to its results.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

from adapters.search.results import finish_results
from pipeline.errors import SearchFailed
from pipeline.evidence import SearchResult


def _default_client() -> Any:
    from ddgs import DDGS

    return DDGS(timeout=10)


class DdgsSearch:
    name = "DDGS"

    def __init__(
        self,
        make_client: Callable[[], Any] = _default_client,
        *,
        timeout_s: float = 15.0,
        max_results: int = 10,
        region: str = "us-en",
    ) -> None:
        self.make_client = make_client
        self.timeout_s = timeout_s
        self.max_results = max_results
        self.region = region

    def _text(self, query: str, limit: int) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.make_client().text(
            query, region=self.region, safesearch="moderate", max_results=limit
        )
        return rows

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        limit = min(limit, self.max_results)
        try:
            async with asyncio.timeout(self.timeout_s):
                rows = await asyncio.to_thread(self._text, query, limit)
        except TimeoutError as e:
            raise SearchFailed(f"DDGS did not answer within {self.timeout_s:.0f} s") from e
        except Exception as e:  # ddgs raises its own exception types, and sometimes others
            raise SearchFailed(f"DDGS failed: {type(e).__name__}: {str(e)[:200]}") from e
        results = [
            SearchResult(
                title=r.get("title") or "", url=r.get("href") or "", snippet=r.get("body") or ""
            )
            for r in rows
        ]
        return finish_results(results, limit, published_before)
