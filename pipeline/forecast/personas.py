"""Rater personas: clusters of real raters in the factorisation's space and their habits."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from pipeline.forecast.factorisation import Factorisation, fit
from pipeline.forecast.ratings import HELPFUL_REASONS, NOT_HELPFUL_REASONS, RatingsTable

DEFAULT_PROFILES = Path(__file__).with_name("personas_2021.json")


class PersonaProfile(BaseModel):
    id: int
    size: int = Field(description="real raters in the cluster")
    intercept: float = Field(description="mean fitted rater intercept (leniency)")
    factor: float = Field(description="mean fitted rater factor (side of the main divide)")
    helpful_share: float
    not_helpful_share: float
    somewhat_share: float = 0.0
    agree_share: float | None = None
    ratings_per_rater: float
    top_reasons: dict[str, list[str]] = Field(default_factory=dict)


class PersonaSet(BaseModel):
    personas: list[PersonaProfile]
    raters: int = Field(description="raters clustered (those with enough ratings)")
    ratings: int = Field(description="their ratings")
    source: str = ""
    settings: dict[str, float | int] = Field(
        default_factory=dict, description="how it was built (`evonote personas build`)"
    )

    @classmethod
    def load(cls, path: Path = DEFAULT_PROFILES) -> PersonaSet:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8")


def rater_habits(table: RatingsTable) -> np.ndarray:
    """Per rater, how they rate: helpful and not-helpful shares, agreement, activity, and the
    frequency of each reason tag."""
    counts = np.bincount(table.rater, minlength=table.raters).astype(float)
    safe = np.maximum(counts, 1)

    def share(mask: np.ndarray) -> np.ndarray:
        shares: np.ndarray = np.bincount(table.rater, mask.astype(float), table.raters) / safe
        return shares

    known = ~np.isnan(table.agree)
    agree_counts = np.bincount(table.rater[known], minlength=table.raters)
    agree = np.bincount(table.rater[known], table.agree[known], table.raters) / np.maximum(
        agree_counts, 1
    )
    reasons = [share(table.helpful_reasons[:, j] > 0) for j in range(len(HELPFUL_REASONS))] + [
        share(table.not_helpful_reasons[:, j] > 0) for j in range(len(NOT_HELPFUL_REASONS))
    ]
    return np.stack(
        [share(table.value == 1.0), share(table.value == 0.0), agree, np.log1p(counts), *reasons],
        axis=1,
    )


def rater_space(
    table: RatingsTable, model: Factorisation, habits_weight: float = 0.0
) -> np.ndarray:
    """Where raters are clustered: the learned rater space (intercept, factor), as MultiCom
    does; with `habits_weight` > 0, their rating habits too, at that weight."""
    learned = np.stack([model.rater_intercept, model.rater_factor], axis=1)
    columns = [learned] if habits_weight <= 0 else [learned, rater_habits(table)]
    raw = np.hstack(columns)
    scale = raw.std(axis=0)
    scaled: np.ndarray = (raw - raw.mean(axis=0)) / np.where(scale > 0, scale, 1)
    scaled[:, 2:] *= habits_weight
    return scaled


def cluster_raters(
    space: np.ndarray, k: int, seed: int, min_size: int = 5, restarts: int = 20
) -> np.ndarray:
    """k-means over the rows of `space` (the best of `restarts` starts), then every cluster
    smaller than `min_size` folded into the nearest other cluster, smallest first — a persona
    of one or two raters is noise, not a group. Labels are 0..k'-1 (k' ≤ k)."""
    from sklearn.cluster import KMeans  # only building personas needs scikit-learn

    k = max(1, min(k, len(space)))
    labels = KMeans(n_clusters=k, n_init=restarts, random_state=seed).fit_predict(space)
    while True:
        sizes = np.bincount(labels)
        alive = np.flatnonzero(sizes)
        small = [c for c in alive if sizes[c] < min_size]
        if not small or len(alive) == 1:
            break
        smallest = min(small, key=lambda c: sizes[c])
        centres = {c: space[labels == c].mean(axis=0) for c in alive if c != smallest}
        members = labels == smallest
        here = space[members].mean(axis=0)
        labels[members] = min(centres, key=lambda c: float(np.sum((centres[c] - here) ** 2)))
    _, compact = np.unique(labels, return_inverse=True)
    result: np.ndarray = compact
    return result


def seed_stability(space: np.ndarray, k: int, seeds: int = 3, min_size: int = 5) -> float:
    """Mean adjusted Rand index between the partitions of seeds 0..seeds-1 (1 = identical)."""
    from sklearn.metrics import adjusted_rand_score

    partitions = [cluster_raters(space, k, seed, min_size) for seed in range(seeds)]
    pairs = [
        adjusted_rand_score(partitions[a], partitions[b])
        for a in range(seeds)
        for b in range(a + 1, seeds)
    ]
    return float(np.mean(pairs)) if pairs else 1.0


def build_personas(
    table: RatingsTable,
    *,
    k: int = 16,
    seed: int = 0,
    model: Factorisation | None = None,
    source: str = "",
    min_ratings: int = 10,
    min_size: int = 5,
    habits_weight: float = 0.0,
) -> PersonaSet:
    """Personas from raters with at least `min_ratings` ratings (fewer say little about a
    rater), clustered in the learned rater space; each at least `min_size` raters."""
    model = model or fit(table, seed=seed)
    counts = np.bincount(table.rater, minlength=table.raters)
    enough = np.flatnonzero(counts >= min_ratings)
    if len(enough) == 0:
        raise ValueError(f"no rater has {min_ratings} or more ratings (lower --min-ratings)")
    space = rater_space(table, model, habits_weight)[enough]
    labels = np.full(table.raters, -1)
    labels[enough] = cluster_raters(space, k, seed, min_size)
    personas = [
        _profile(table, model, np.flatnonzero(labels == cluster), counts)
        for cluster in range(labels.max() + 1)
    ]
    personas.sort(key=lambda p: p.factor)
    for new_id, persona in enumerate(personas):
        persona.id = new_id
    return PersonaSet(
        personas=personas,
        raters=len(enough),
        ratings=int(counts[enough].sum()),
        source=source,
        settings={
            "k": k,
            "seed": seed,
            "min_ratings": min_ratings,
            "min_size": min_size,
            "habits_weight": habits_weight,
        },
    )


def _profile(
    table: RatingsTable, model: Factorisation, members: np.ndarray, counts: np.ndarray
) -> PersonaProfile:
    rows = np.isin(table.rater, members)
    known = rows & ~np.isnan(table.agree)
    good = table.helpful_reasons[rows].sum(axis=0)
    bad = table.not_helpful_reasons[rows].sum(axis=0)
    return PersonaProfile(
        id=0,
        size=len(members),
        intercept=round(float(model.rater_intercept[members].mean()), 4),
        factor=round(float(model.rater_factor[members].mean()), 4),
        helpful_share=round(float((table.value[rows] == 1.0).mean()), 4),
        not_helpful_share=round(float((table.value[rows] == 0.0).mean()), 4),
        somewhat_share=round(float((table.value[rows] == 0.5).mean()), 4),
        agree_share=round(float(table.agree[known].mean()), 4) if known.any() else None,
        ratings_per_rater=round(float(counts[members].mean()), 2),
        top_reasons={
            "helpful": [HELPFUL_REASONS[j] for j in np.argsort(-good)[:3] if good[j] > 0],
            "not_helpful": [NOT_HELPFUL_REASONS[j] for j in np.argsort(-bad)[:3] if bad[j] > 0],
        },
    )
