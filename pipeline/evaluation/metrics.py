"""The paper's evidence and time metrics, as pure functions."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from pipeline.drafting.note import NOTE_CHAR_LIMIT, note_length
from pipeline.source_quality import quality_score, registrable_domain


def source_quality(urls: Sequence[str]) -> float | None:
    """Mean q(d) = 100 · log τ(d) / log 4 over the cited URLs (None without URLs)."""
    return sum(quality_score(u) for u in urls) / len(urls) if urls else None


def domain_diversity(urls: Sequence[str]) -> float | None:
    """Entropy of the registrable domains, normalised by log(number of URLs): 1 when every
    URL is from a different domain, 0 when all share one. None for fewer than two URLs."""
    if len(urls) < 2:
        return None
    counts = Counter(registrable_domain(u) for u in urls)
    total = len(urls)
    entropy = -sum(c / total * math.log(c / total) for c in counts.values())
    return entropy / math.log(total)


def semantic_diversity(vectors: np.ndarray) -> float | None:
    """1 − mean pairwise cosine similarity of unit vectors (None for fewer than two)."""
    n = len(vectors)
    if n < 2:
        return None
    similarity = vectors @ vectors.T
    mean = (similarity.sum() - np.trace(similarity)) / (n * (n - 1))
    return float(1.0 - mean)


def length_compliance(notes: Sequence[str]) -> float | None:
    return sum(note_length(n) <= NOTE_CHAR_LIMIT for n in notes) / len(notes) if notes else None


def url_profile(url_lists: Sequence[Sequence[str]]) -> tuple[float, float]:
    """(average URLs per note, share of notes with more than one URL)."""
    if not url_lists:
        return 0.0, 0.0
    return (
        sum(len(u) for u in url_lists) / len(url_lists),
        sum(len(u) > 1 for u in url_lists) / len(url_lists),
    )


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """p50, p95 and mean (nearest-rank percentiles)."""
    if not values:
        return {}
    ordered = sorted(values)

    def rank(q: float) -> float:
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    return {"p50": rank(0.5), "p95": rank(0.95), "mean": sum(ordered) / len(ordered)}
