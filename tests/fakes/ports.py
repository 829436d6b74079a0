"""In-process fakes of the pipeline's ports."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pipeline.errors import (
    ModelOutputInvalid,
    ModelTimeout,
    ModelUnavailable,
    PageUnreadable,
    SearchFailed,
)
from pipeline.evidence import Page, SearchResult
from pipeline.ports import ChatMessage, ModelReply
from pipeline.trajectory import StepRecord
from tests.fakes.policy import Policy, answer

T = TypeVar("T", bound=BaseModel)


class FakeClock:
    """A clock that moves only when told to, so deadlines are tested without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class FakeChatModel:
    policy: Policy
    clock: FakeClock | None = None
    seconds_per_call: float = 0.0
    calls: list[str] = field(default_factory=list)

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        self.calls.append(output.__name__)
        if self.clock is not None:
            # Like the real adapter: a call that would outlast its limit is cut off at it.
            self.clock.advance(min(self.seconds_per_call, timeout_s))
            if self.seconds_per_call > timeout_s:
                raise ModelTimeout(f"the model did not answer within {timeout_s:.0f} s")
        reply = answer(self.policy, output.__name__, [m.model_dump() for m in messages])
        try:
            value = output.model_validate_json(json.dumps(reply))
        except ValidationError as e:
            raise ModelOutputInvalid(str(e)) from e
        return ModelReply(
            value=value,
            model="fake",
            prompt_tokens=10,
            completion_tokens=5,
            latency_s=self.seconds_per_call,
        )


@dataclass
class ServedModel:
    """A fake model behind a server that may be down: while `down`, every call fails as the
    real adapter fails on a refused connection."""

    model: FakeChatModel
    down: bool = False

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        if self.down:
            raise ModelUnavailable(
                "the model server at http://127.0.0.1:8091/v1 refused the connection"
            )
        return await self.model.structured(messages, output, timeout_s=timeout_s)


@dataclass
class FakeWeb:
    """A search engine and page reader over an in-memory set of pages."""

    pages: dict[str, Page]
    failing: dict[str, str] = field(default_factory=dict)
    read_delay_s: float = 0.0
    search_error: str | None = None
    searches: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    read_ok: set[str] = field(default_factory=set)
    extra_results: list[str] = field(default_factory=list)
    on_read: Callable[[str], Any] | None = None

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        self.searches.append(query)
        if self.search_error:
            raise SearchFailed(self.search_error)
        urls = [*self.pages, *self.failing, *self.extra_results][:limit]
        return [
            SearchResult(title=self.pages[u].title if u in self.pages else u, url=u, snippet="…")
            for u in urls
        ]

    async def read(self, url: str) -> Page:
        self.reads.append(url)
        if self.read_delay_s:
            await asyncio.sleep(self.read_delay_s)
        if self.on_read is not None:
            self.on_read(url)
        if url in self.failing:
            raise PageUnreadable(self.failing[url])
        if url not in self.pages:
            raise PageUnreadable("HTTP 404")
        self.read_ok.add(url)
        return self.pages[url]


def health_pages() -> dict[str, Page]:
    texts = {
        "https://www.cdc.gov/vaccines/mmr-safety": (
            "MMR vaccine safety",
            "Many studies have found no link between the MMR vaccine and autism. "
            "Two doses of MMR vaccine are about 97% effective at preventing measles.",
        ),
        "https://www.who.int/news-room/measles": (
            "Measles fact sheet",
            "Measles is a highly contagious disease. Vaccination is safe and effective.",
        ),
        "https://medlineplus.gov/measles.html": (
            "Measles",
            "Measles is caused by a virus. The MMR vaccine protects against it.",
        ),
    }
    return {u: Page(url=u, title=t, text=x) for u, (t, x) in texts.items()}


def many_sites(n: int) -> dict[str, Page]:
    """`n` sites serving the same measles page: every search lists more than code reads."""
    page = health_pages()["https://medlineplus.gov/measles.html"]
    return {f"https://site{i}.org/p": page for i in range(n)}


class OpenLinks:
    """Every link answers HTTP 200 (the guarded reader's own check is tested with it)."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    async def opens(self, url: str) -> str | None:
        self.checked.append(url)
        return None


class Journal:
    """A `StepJournal` that keeps the steps in memory."""

    def __init__(self) -> None:
        self.steps: list[StepRecord] = []

    async def record(self, *steps: StepRecord) -> None:
        self.steps.extend(steps)
