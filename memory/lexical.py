"""BM25 over the triggers of one phase's lessons, rebuilt lazily after changes."""

from __future__ import annotations

import threading

import bm25s


class TriggerBM25:
    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._ids: list[int] = []
        self._retriever: bm25s.BM25 | None = None
        self._dirty = False
        self._lock = threading.Lock()

    def put(self, item_id: int, text: str) -> None:
        with self._lock:
            self._texts[item_id] = text
            self._dirty = True

    def drop(self, item_id: int) -> None:
        with self._lock:
            if self._texts.pop(item_id, None) is not None:
                self._dirty = True

    def search_sync(self, query: str, k: int) -> list[int]:
        with self._lock:
            if self._dirty:
                self._rebuild()
            if self._retriever is None or not self._ids:
                return []
            tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
            if not tokens.vocab:
                return []
            ids, scores = self._retriever.retrieve(
                tokens, k=min(k, len(self._ids)), show_progress=False, n_threads=1
            )
        return [self._ids[int(i)] for i, s in zip(ids[0], scores[0], strict=True) if float(s) > 0]

    def _rebuild(self) -> None:
        self._ids = list(self._texts)
        self._dirty = False
        if not self._ids:
            self._retriever = None
            return
        retriever = bm25s.BM25()
        retriever.index(
            bm25s.tokenize(
                [self._texts[i] for i in self._ids], stopwords="en", show_progress=False
            ),
            show_progress=False,
        )
        self._retriever = retriever
