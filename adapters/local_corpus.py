"""A local document collection as both `SearchEngine` (BM25) and `PageReader`.

Sources: JSONL with `url, title, text` per line (optional `date`, ISO 8601; the layout of the
MedQuAD export in ../shared/data), or a folder of HTML, Markdown, text and PDF files. An index
is saved on disk (documents + BM25 matrices) and loads in a fraction of a second; a JSONL file
given directly is indexed once and cached by its path, size and modification time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import bm25s
import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from adapters.web.extract import extract_html, extract_pdf, extract_text
from pipeline.errors import PageUnreadable, SearchFailed
from pipeline.evidence import Page, SearchResult

SNIPPET_CHARS = 280
DENSE_TEXT_CHARS = 600
RRF_K = 60
INDEX_VERSION = 1
# Markdown front matter: a block between two `---` lines at the top (metadata, not text).
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.DOTALL)
_META_LINE = re.compile(r"^(url|title):\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_CANONICAL = re.compile(r"<link[^>]+rel=[\"']canonical[\"'][^>]*href=[\"']([^\"']+)", re.IGNORECASE)


class CorpusDocument(BaseModel):
    url: str
    title: str = ""
    text: str
    published: datetime | None = None


@dataclass
class IngestReport:
    documents: list[CorpusDocument]
    skipped: list[str]


def _parse_date(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


# The fields of a line, by layout: EvoNote's own, and the JHU COVID-QA scrape's (schema v0.3:
# one question and answer a line; the answers of one page merge into one document by URL).
LAYOUTS = {
    "url and text (title optional)": ("url", "title", "text"),
    "COVID-QA's sourceUrl and answerText": ("sourceUrl", "questionText", "answerText"),
}


def _line_document(raw: object) -> CorpusDocument | None:
    if not isinstance(raw, dict):
        return None
    for url_field, title_field, text_field in LAYOUTS.values():
        url, text = raw.get(url_field), raw.get(text_field)
        if isinstance(url, str) and url.strip() and isinstance(text, str):
            return CorpusDocument(
                url=url.strip(),
                title=str(raw.get(title_field) or ""),
                text=text,
                published=_parse_date(raw.get("date")),
            )
    return None


def read_jsonl(path: Path) -> list[CorpusDocument]:
    """Documents from JSONL; a line that is not a document is named in the error, with the
    fields it has and the layouts that are read."""
    documents: list[CorpusDocument] = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path} is not UTF-8 text (a JSONL corpus file): {e.reason}") from e
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{number} is not JSON ({e})") from e
        document = _line_document(raw)
        if document is None:
            found = ", ".join(list(raw)[:8]) if isinstance(raw, dict) else type(raw).__name__
            raise ValueError(
                f"{path}:{number} is not a corpus document: a line needs the fields "
                f"{' or '.join(LAYOUTS)}; it has {found or 'no fields'}"
            )
        documents.append(document)
    return documents


def split_front_matter(text: str) -> tuple[str, dict[str, str]]:
    """(the text without its front matter, its `url:` and `title:` values)."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return text, {}
    meta = {k.lower(): v.strip("\"'") for k, v in _META_LINE.findall(match.group(1))}
    return text[match.end() :], meta


def read_folder(
    folder: Path, base_url: str | None, on_progress: Callable[[int, int], None] | None = None
) -> IngestReport:
    """HTML, Markdown, text and PDF files (a folder, or one file). Each needs a public URL to
    be citable: the page's canonical link, a `url:` line in Markdown front matter, or
    `base_url` + its path."""
    documents: list[CorpusDocument] = []
    skipped: list[str] = []
    files = [folder] if folder.is_file() else sorted(p for p in folder.rglob("*") if p.is_file())
    if folder.is_file():
        folder = folder.parent
    for number, path in enumerate(files, start=1):
        if on_progress is not None:
            on_progress(number, len(files))
        suffix = path.suffix.lower()
        relative = path.relative_to(folder).as_posix()
        fallback = base_url.rstrip("/") + "/" + quote(relative) if base_url else None
        try:
            if suffix in (".html", ".htm"):
                html = path.read_text(encoding="utf-8", errors="replace")
                match = _CANONICAL.search(html)
                url = match.group(1) if match else fallback
                page = extract_html(html, url or relative) if url else None
            elif suffix in (".md", ".markdown", ".txt"):
                body, meta = split_front_matter(path.read_text(encoding="utf-8", errors="replace"))
                url = meta.get("url") or fallback
                page = extract_text(body.encode("utf-8"), url, "utf-8") if url else None
                if page is not None and meta.get("title"):
                    page.title = meta["title"]
            elif suffix == ".pdf":
                url = fallback
                page = extract_pdf(path.read_bytes(), url) if url else None
            elif suffix in (".jsonl", ".json"):
                documents += read_jsonl(path)
                continue
            else:
                continue
        except Exception as e:  # one unreadable file must not stop the whole index
            skipped.append(f"{relative}: {e}")
            continue
        if page is None or url is None:
            skipped.append(
                f"{relative}: no source URL (add a canonical link or a 'url:' "
                "front-matter line, or pass --base-url)"
            )
        elif not page.text.strip():
            skipped.append(f"{relative}: no text")
        else:
            documents.append(
                CorpusDocument(
                    url=url, title=page.title or path.stem, text=page.text, published=page.published
                )
            )
    return IngestReport(documents, skipped)


def merge_by_url(documents: list[CorpusDocument]) -> list[CorpusDocument]:
    """Documents sharing a URL are one page (MedQuAD splits some pages in parts)."""
    by_url: dict[str, CorpusDocument] = {}
    for document in documents:
        if document.url in by_url:
            kept = by_url[document.url]
            kept.text += "\n\n" + document.text
        else:
            by_url[document.url] = document.model_copy()
    return list(by_url.values())


class TextEmbedder(Protocol):
    async def embed(self, texts: list[str]) -> NDArray[np.float32]: ...


class LocalCorpus:
    """BM25 over titles and texts, fused with dense retrieval once `add_dense` has run.
    Build and load are CPU work: run them in a thread."""

    def __init__(
        self,
        documents: list[CorpusDocument],
        retriever: bm25s.BM25,
        folder: Path | None = None,
        vectors: NDArray[np.float32] | None = None,
    ) -> None:
        self.documents = documents
        self.by_url = {d.url: d for d in documents}
        self.retriever = retriever
        self.folder = folder
        self.vectors = vectors
        self.embedder: TextEmbedder | None = None

    async def add_dense(
        self,
        embedder: TextEmbedder,
        batch: int = 64,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """Embed every document once (title and opening), saved beside the index;
        `on_progress(done, total)` after each batch (it can take minutes)."""
        self.embedder = embedder
        if self.vectors is not None and len(self.vectors) == len(self.documents):
            return
        texts = [f"{d.title}\n{d.text[:DENSE_TEXT_CHARS]}" for d in self.documents]
        parts = []
        for i in range(0, len(texts), batch):
            parts.append(await embedder.embed(texts[i : i + batch]))
            if on_progress is not None:
                on_progress(min(i + batch, len(texts)), len(texts))
        self.vectors = np.concatenate(parts).astype(np.float32)
        if self.folder is not None:
            await asyncio.to_thread(np.save, self.folder / "vectors.npy", self.vectors)

    @classmethod
    def build(cls, documents: list[CorpusDocument]) -> LocalCorpus:
        documents = merge_by_url(documents)
        if not documents:
            raise ValueError("the corpus holds no documents")
        retriever = bm25s.BM25()
        tokens = bm25s.tokenize(
            [f"{d.title}\n{d.title}\n{d.text}" for d in documents],
            stopwords="en",
            show_progress=False,
        )
        retriever.index(tokens, show_progress=False)
        return cls(documents, retriever)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        if self.vectors is not None:
            np.save(folder / "vectors.npy", self.vectors)
        self.retriever.save(str(folder / "bm25"), show_progress=False)
        with (folder / "documents.jsonl").open("w", encoding="utf-8") as out:
            for document in self.documents:
                out.write(document.model_dump_json() + "\n")
        manifest = {
            "version": INDEX_VERSION,
            "documents": len(self.documents),
            "built_at": time.time(),
        }
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> LocalCorpus:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("version") != INDEX_VERSION:
            raise ValueError(f"{folder} was built by another version; run evonote corpus index")
        with (folder / "documents.jsonl").open(encoding="utf-8") as lines:
            documents = [CorpusDocument.model_validate_json(line) for line in lines]
        retriever = bm25s.BM25.load(str(folder / "bm25"), show_progress=False)
        vectors_path = folder / "vectors.npy"
        vectors = np.load(vectors_path) if vectors_path.is_file() else None
        return cls(documents, retriever, folder, vectors)

    @classmethod
    def open_sync(cls, path: Path, cache_root: Path) -> LocalCorpus:
        """An index folder, or a JSONL file indexed once into `cache_root`."""
        if path.is_dir():
            if not (path / "manifest.json").is_file():
                raise ValueError(f"{path} is not a corpus index (run evonote corpus index)")
            return cls.load(path)
        if not path.is_file():
            raise FileNotFoundError(f"corpus file {path} does not exist")
        stat = path.stat()
        key = hashlib.sha256(f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode())
        cached = cache_root / key.hexdigest()[:16]
        if (cached / "manifest.json").is_file():
            return cls.load(cached)
        corpus = cls.build(read_jsonl(path))
        corpus.save(cached)
        return corpus

    @classmethod
    async def open(cls, path: Path, cache_root: Path) -> LocalCorpus:
        return await asyncio.to_thread(cls.open_sync, path, cache_root)

    def _lexical(self, query: str, k: int) -> list[int]:
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        ids, scores = self.retriever.retrieve(
            tokens, k=min(k, len(self.documents)), show_progress=False, n_threads=1
        )
        return [int(i) for i, s in zip(ids[0], scores[0], strict=True) if float(s) > 0]

    def _search(
        self,
        query: str,
        limit: int,
        published_before: datetime | None,
        query_vector: NDArray[np.float32] | None = None,
    ) -> list[int]:
        k = limit * 3 if published_before or query_vector is not None else limit
        hits = self._lexical(query, k)
        if query_vector is not None and self.vectors is not None:
            # Reciprocal rank fusion of the lexical and the dense ranking.
            dense = np.argsort(-(self.vectors @ query_vector))[:k]
            fused: dict[int, float] = {}
            for ranking in (hits, [int(i) for i in dense]):
                for rank, doc in enumerate(ranking):
                    fused[doc] = fused.get(doc, 0.0) + 1.0 / (RRF_K + rank + 1)
            hits = sorted(fused, key=lambda doc: -fused[doc])
        if published_before is not None:
            hits = [
                i
                for i in hits
                if (p := self.documents[i].published) is None
                or p.replace(tzinfo=None) <= published_before.replace(tzinfo=None)
            ]
        return hits[:limit]

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        if not query.strip():
            raise SearchFailed("empty query")
        query_vector = None
        if self.embedder is not None and self.vectors is not None:
            query_vector = (await self.embedder.embed([query]))[0]
        hits = await asyncio.to_thread(self._search, query, limit, published_before, query_vector)
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
