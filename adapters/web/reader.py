"""`PageReader` for the open web, guarded against server-side request forgery.

Every hop: http(s) only, no credentials in the URL, the host resolved and every address checked
public, then the connection made to that checked address (Host header and TLS SNI carry the
name), so a DNS answer that changes after the check cannot redirect the fetch. Redirects are
followed by hand (at most `max_redirects`), the body is capped, nothing is remembered between
requests (no cookies), the whole read runs under one deadline, and the document is parsed in
a child process that a hostile page cannot take down with it (`adapters.web.extraction`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar
from urllib.parse import urljoin

import httpx

from adapters.web import DEFAULT_USER_AGENT
from adapters.web.address_guard import Resolver, pinned
from adapters.web.extract import PDF_TYPES, SUPPORTED_TYPES
from adapters.web.extraction import IsolatedExtractor
from adapters.web.page_cache import PageCache
from pipeline.errors import PageUnreadable
from pipeline.evidence import Page

T = TypeVar("T")


async def _status(url: str, response: httpx.Response) -> int:
    return response.status_code


class GuardedPageReader:
    def __init__(
        self,
        client: httpx.AsyncClient,
        resolver: Resolver,
        *,
        cache: PageCache | None = None,
        max_bytes: int = 2_000_000,
        max_redirects: int = 5,
        timeout_s: float = 20.0,
        user_agent: str = DEFAULT_USER_AGENT,
        extractor: IsolatedExtractor | None = None,
    ) -> None:
        self.client = client
        self.extractor = extractor or IsolatedExtractor()
        self.resolver = resolver
        self.cache = cache
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.timeout_s = timeout_s
        self.user_agent = user_agent

    async def read(self, url: str) -> Page:
        if self.cache is not None and (cached := await self.cache.get(url)) is not None:
            return cached
        try:
            async with asyncio.timeout(self.timeout_s):
                page = await self._fetch(url)
        except TimeoutError as e:
            raise PageUnreadable(f"no complete answer within {self.timeout_s:.0f} s") from e
        if self.cache is not None:
            await self.cache.put(url, page)
        return page

    async def read_data(self, url: str) -> bytes:
        """An API's answer (JSON), fetched as guarded as a page, capped at `max_bytes`; never
        cached (it changes)."""
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._follow(url, self._data)
        except TimeoutError as e:
            raise PageUnreadable(f"no complete answer within {self.timeout_s:.0f} s") from e

    async def _data(self, url: str, response: httpx.Response) -> bytes:
        if response.status_code != 200:
            raise PageUnreadable(f"HTTP {response.status_code}")
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body.extend(chunk)
            if len(body) > self.max_bytes:
                raise PageUnreadable(f"the answer is larger than {self.max_bytes:,} bytes")
        return bytes(body)

    async def opens(self, url: str) -> str | None:
        """None when the link answers HTTP 200 (redirects followed, every hop guarded), else
        why not — the check X's URL evaluator makes of a note's links. Never cached."""
        try:
            async with asyncio.timeout(self.timeout_s):
                status = await self._follow(url, _status)
        except TimeoutError:
            return f"no answer within {self.timeout_s:.0f} s"
        except PageUnreadable as e:
            return str(e)
        return None if status == 200 else f"HTTP {status}"

    async def _fetch(self, url: str) -> Page:
        return await self._follow(url, self._page)

    async def _follow(self, url: str, take: Callable[[str, httpx.Response], Awaitable[T]]) -> T:
        current = url
        seen: set[str] = set()
        for _ in range(self.max_redirects + 1):
            if current in seen:
                raise PageUnreadable("redirect loop")
            seen.add(current)
            target, headers, extensions = await self._pinned(current)
            try:
                async with self.client.stream(
                    "GET", target, headers=headers, extensions=extensions
                ) as response:
                    if response.is_redirect:
                        location = response.headers.get("location")
                        if not location:
                            raise PageUnreadable(f"HTTP {response.status_code} without Location")
                        try:
                            current = urljoin(current, location)
                        except ValueError as e:
                            raise PageUnreadable("the redirect's Location is malformed") from e
                        continue
                    return await take(current, response)
            except httpx.TimeoutException as e:
                raise PageUnreadable("the site timed out") from e
            except httpx.ConnectError as e:
                if "ssl" in str(e).lower() or "certificate" in str(e).lower():
                    raise PageUnreadable(f"TLS error: {e}") from e
                raise PageUnreadable("could not connect to the site") from e
            except httpx.HTTPError as e:
                raise PageUnreadable(f"the connection failed ({type(e).__name__})") from e
        raise PageUnreadable(f"more than {self.max_redirects} redirects")

    async def _pinned(self, url: str) -> tuple[str, dict[str, str], dict[str, str]]:
        target, headers, extensions = await pinned(url, self.resolver)
        headers["User-Agent"] = self.user_agent
        headers["Accept"] = (
            "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.1"
        )
        return target, headers, extensions

    async def _page(self, url: str, response: httpx.Response) -> Page:
        if response.status_code == 429:
            raise PageUnreadable("HTTP 429: the site is rate-limiting")
        if response.status_code >= 400:
            raise PageUnreadable(f"HTTP {response.status_code}")
        content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type not in SUPPORTED_TYPES:
            raise PageUnreadable(f"unsupported content type {content_type or 'unknown'}")
        try:
            declared = int(response.headers.get("content-length") or 0)
        except ValueError:
            declared = 0
        if content_type in PDF_TYPES and declared > self.max_bytes:
            raise PageUnreadable(f"the PDF is larger than {self.max_bytes:,} bytes")
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body.extend(chunk)
            if len(body) > self.max_bytes:
                if content_type in PDF_TYPES:  # a cut PDF cannot be parsed
                    raise PageUnreadable(f"the PDF is larger than {self.max_bytes:,} bytes")
                del body[self.max_bytes :]  # HTML and text: the first part is still useful
                break
        return await self.extractor.extract(
            bytes(body), url, content_type, response.charset_encoding
        )

    async def aclose(self) -> None:
        """Stop the extraction children (they would also stop when this process ends)."""
        await self.extractor.aclose()
