"""The paper's memory study: a stream split by post time, and each post placed by whether a
similar earlier post exists (EvoNote analyses gains by how recent the similar experience is).

Pure functions over post times and post vectors; `bot.evaluation.run` supplies both.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from enum import StrEnum

import numpy as np

from pipeline.evaluation.dataset import BenchPost

RECENT = timedelta(days=180)
SIMILAR_AT = 0.6  # cosine between post embeddings: "the same claim, told again"


class Prior(StrEnum):
    """Whether a similar post came earlier in the stream, and how long before."""

    RECENT = "similar post ≤ 180 days before"
    OLDER = "similar post only > 180 days before"
    NONE = "no similar earlier post"


def parse_split(text: str) -> float:
    """`TRAIN:TEST` shares (70:30, 2:1) → the training share of the stream."""
    parts = text.split(":")
    try:
        train, test = (float(p) for p in parts)
    except ValueError:
        train = test = -1.0
    if len(parts) != 2 or train <= 0 or test <= 0:
        raise ValueError(
            f"--split takes TRAIN:TEST, two positive numbers (e.g. 70:30), not {text!r}"
        )
    return train / (train + test)


def split_by_time(
    posts: Sequence[BenchPost], train_share: float
) -> tuple[list[BenchPost], list[BenchPost]]:
    """The earlier part of the stream (post time order) trains, the later part is tested; each
    part keeps at least one post."""
    ordered = sorted(posts, key=lambda p: p.created_at)
    cut = min(max(1, round(len(ordered) * train_share)), len(ordered) - 1)
    return ordered[:cut], ordered[cut:]


def prior_similarity(
    times: Sequence[datetime], vectors: np.ndarray, threshold: float = SIMILAR_AT
) -> list[Prior]:
    """For each post (in the given order of times), where it stands: `vectors` are unit-norm
    post embeddings, one row per post; only posts strictly earlier in time count."""
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    similar = unit @ unit.T >= threshold
    placed = []
    for i, at in enumerate(times):
        earlier = [times[int(j)] for j in np.flatnonzero(similar[i]) if times[int(j)] < at]
        if any(at - t <= RECENT for t in earlier):
            placed.append(Prior.RECENT)
        elif earlier:
            placed.append(Prior.OLDER)
        else:
            placed.append(Prior.NONE)
    return placed
