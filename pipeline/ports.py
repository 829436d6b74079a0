"""The outside world as the pipeline needs it. Adapters implement these; tests fake them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from pipeline.evidence import Page, SearchResult
from pipeline.post import Post

T = TypeVar("T", bound=BaseModel)


class ChatMessage(BaseModel):
    role: str
    content: str


class ModelReply(BaseModel, Generic[T]):
    """A validated structured answer and what it cost."""

    value: T
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    repaired: bool = False


class ChatModel(Protocol):
    """One chat completion whose answer must validate against `output`'s JSON schema.

    Raises ModelUnavailable, ModelTimeout or ModelOutputInvalid (after one repair attempt).
    """

    async def structured(
        self,
        messages: Sequence[ChatMessage],
        output: type[T],
        *,
        timeout_s: float,
    ) -> ModelReply[T]: ...


class Captioner(Protocol):
    """Image (or a video's preview frame) → what a fact-check needs of it: text on screen,
    charts with their numbers, who or what is shown. Raises ModelUnavailable / ModelTimeout."""

    def can_read(self, url: str) -> bool: ...

    async def caption(self, image_url: str, post_text: str, *, timeout_s: float) -> str: ...


class SearchEngine(Protocol):
    """Query → ranked results. Raises SearchFailed with a readable reason."""

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]: ...


class PageReader(Protocol):
    """URL → main text. Raises PageUnreadable with a readable reason."""

    async def read(self, url: str) -> Page: ...


class PostSource(Protocol):
    """A post reference (URL) → Post. Raises PostUnavailable or InvalidPostInput."""

    def handles(self, url: str) -> bool: ...

    def post_key(self, url: str) -> str | None:
        """What names the post whatever the link's spelling (`twitter.com` or `x.com`, share
        parameters); None when the link is to the site but not to a post."""
        ...

    async def fetch(self, url: str) -> Post: ...


class MemoryMode(StrEnum):
    """How an episode uses the experience memory."""

    EVOLVING = "evolving"  # retrieve lessons, and learn new ones from finished episodes
    FROZEN = "frozen"  # retrieve, never add
    OFF = "off"  # neither


class MemoryPhase(StrEnum):
    CLAIM_ANALYSIS = "claim_analysis"
    EVIDENCE_ACQUISITION = "evidence_acquisition"
    NOTE_WRITING = "note_writing"


class Lesson(BaseModel):
    """A retrieved experience-memory item: guidance, never evidence."""

    id: int
    phase: MemoryPhase
    trigger: str
    strategy: str
    avoid: bool = False  # a lesson of what not to do (shown "avoid: …"; else "do: …")


class MemoryRetriever(Protocol):
    """Lessons for a phase; `learned_before` hides lessons learned from later posts."""

    async def retrieve(
        self, phase: MemoryPhase, query: str, *, k: int, learned_before: datetime | None = None
    ) -> list[Lesson]: ...


class NoMemory:
    """The retriever used when memory is off: it knows nothing."""

    async def retrieve(
        self, phase: MemoryPhase, query: str, *, k: int, learned_before: datetime | None = None
    ) -> list[Lesson]:
        return []
