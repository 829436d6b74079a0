"""A local document collection as both `SearchEngine` (BM25) and `PageReader`.

Input: JSONL with `url, title, text` per line (optional `date`, ISO 8601), the layout of the
MedQuAD export in ../shared/data. Documents sharing a URL are merged into one page.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import bm25s

from pipeline.errors import PageUnreadable, SearchFailed
from pipeline.evidence import Page, SearchResult

SNIPPET_CHARS = 280


@dataclass
class _Document:
    url: str
    title: str
    text: str
    published: datetime | None


def _parse_date(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def load_documents(path: Path) -> list[_Document]:
    """Read and merge the corpus; a line that is not a document is named in the error."""
    by_url: dict[str, _Document] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                url, text = str(raw["url"]).strip(), str(raw["text"])
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise ValueError(
                    f"{path}:{number} is not a corpus document with url and text ({e})"
                ) from e
            if url in by_url:
                by_url[url].text += "\n\n" + text
                continue
            by_url[url] = _Document(
                url, str(raw.get("title") or ""), text, _parse_date(raw.get("date"))
            )
    if not by_url:
        raise ValueError(f"{path} holds no documents")
    return list(by_url.values())


class LocalCorpus:
    """BM25 over titles and texts, built once in a worker thread."""

    def __init__(self, documents: list[_Document]) -> None:
        self.documents = documents
        self.by_url = {d.url: d for d in documents}
        self.retriever = bm25s.BM25()
        tokens = bm25s.tokenize(
            [f"{d.title}\n{d.title}\n{d.text}" for d in documents],
            stopwords="en",
            show_progress=False,
        )
        self.retriever.index(tokens, show_progress=False)

    @classmethod
    async def open(cls, path: Path) -> LocalCorpus:
        if not await asyncio.to_thread(path.is_file):
            raise FileNotFoundError(f"corpus file {path} does not exist")
        documents = await asyncio.to_thread(load_documents, path)
        return await asyncio.to_thread(cls, documents)

    def _search(self, query: str, limit: int, published_before: datetime | None) -> list[int]:
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        k = min(len(self.documents), limit * 3 if published_before else limit)
        ids, scores = self.retriever.retrieve(tokens, k=k, show_progress=False, n_threads=1)
        hits = [int(i) for i, s in zip(ids[0], scores[0], strict=True) if float(s) > 0]
        if published_before is not None:
            hits = [
                i
                for i in hits
                if (p := self.documents[i].published) is None or p <= published_before
            ]
        return hits[:limit]

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        if not query.strip():
            raise SearchFailed("empty query")
        hits = await asyncio.to_thread(self._search, query, limit, published_before)
        return [
            SearchResult(title=d.title, url=d.url, snippet=_snippet(d.text), published=d.published)
            for d in (self.documents[i] for i in hits)
        ]

    async def read(self, url: str) -> Page:
        document = self.by_url.get(url.strip())
        if document is None:
            raise PageUnreadable("not in the local corpus")
        return Page(
            url=document.url, title=document.title, text=document.text, published=document.published
        )


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[: SNIPPET_CHARS - 1] + "…"
