"""`Embedder` over an OpenAI-compatible /v1/embeddings endpoint (vLLM serves embedding models)."""

from __future__ import annotations

import asyncio

import numpy as np
import openai

from memory.ports import Vectors
from pipeline.errors import ModelTimeout, ModelUnavailable


class OpenAIEmbedder:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        dimension: int,
        timeout_s: float = 30.0,
        batch: int = 64,
    ) -> None:
        self.client = client
        self.model = model
        self._dimension = dimension
        self.timeout_s = timeout_s
        self.batch = batch

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: list[str]) -> Vectors:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch):
            chunk = texts[start : start + self.batch]
            try:
                async with asyncio.timeout(self.timeout_s):
                    response = await self.client.embeddings.create(model=self.model, input=chunk)
            except TimeoutError as e:
                raise ModelTimeout(
                    f"the embeddings endpoint did not answer within {self.timeout_s:.0f} s"
                ) from e
            except openai.APIError as e:
                raise ModelUnavailable(
                    f"the embeddings endpoint at {self.client.base_url} failed: {e}"
                ) from e
            rows += [d.embedding for d in sorted(response.data, key=lambda d: d.index)]
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)
        if vectors.shape[1] != self._dimension and len(texts):
            raise ModelUnavailable(
                f"the embedding model {self.model} returns "
                f"{vectors.shape[1]} dimensions, not {self._dimension}: set "
                "EVONOTE_MEMORY__EMBEDDING_DIMENSION"
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        normalised: Vectors = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
        return normalised
