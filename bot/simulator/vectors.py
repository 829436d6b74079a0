"""A deterministic embedder for tests and simulations: hashed word unigrams and bigrams.

Texts sharing words get high cosine similarity, unrelated texts low — enough to exercise
retrieval, merging and fusion without a model.
"""

from __future__ import annotations

import itertools
import re
import zlib

import numpy as np

from memory.ports import Vectors

_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    def __init__(self, dimension: int = 256) -> None:
        self._dimension = dimension
        self.calls = 0

    @property
    def dimension(self) -> int:
        return self._dimension

    def vector(self, text: str) -> Vectors:
        words = _WORD.findall(text.lower())
        features = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
        row = np.zeros(self._dimension, dtype=np.float32)
        for feature in features:
            h = zlib.crc32(feature.encode())
            row[h % self._dimension] += 1.0 if (h >> 16) & 1 else -1.0
        norm = float(np.linalg.norm(row))
        return row / norm if norm else row

    async def embed(self, texts: list[str]) -> Vectors:
        self.calls += 1
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.stack([self.vector(t) for t in texts])
