"""Rater personas: clusters of real raters in the factorisation's space and their habits."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from pipeline.forecast.factorisation import Factorisation, fit
from pipeline.forecast.ratings import HELPFUL_REASONS, NOT_HELPFUL_REASONS, RatingsTable

DEFAULT_PROFILES = Path(__file__).with_name("personas_2021.json")
REASON_WEIGHT = 0.5  # reason habits shape a persona, but less than where it stands


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
    raters: int
    ratings: int
    source: str = ""

    @classmethod
    def load(cls, path: Path = DEFAULT_PROFILES) -> PersonaSet:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8")


def rater_features(table: RatingsTable, model: Factorisation) -> np.ndarray:
    """Per rater: fitted parameters, rating habits, activity, reason-tag frequencies."""
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
    reasons = np.hstack(
        [
            np.stack(
                [share(table.helpful_reasons[:, j] > 0) for j in range(len(HELPFUL_REASONS))],
                axis=1,
            ),
            np.stack(
                [
                    share(table.not_helpful_reasons[:, j] > 0)
                    for j in range(len(NOT_HELPFUL_REASONS))
                ],
                axis=1,
            ),
        ]
    )
    core = np.stack(
        [
            model.rater_intercept,
            model.rater_factor,
            share(table.value == 1.0),
            share(table.value == 0.0),
            agree,
            np.log1p(counts),
        ],
        axis=1,
    )
    combined: np.ndarray = np.hstack([core, reasons])
    return combined


def build_personas(
    table: RatingsTable,
    *,
    k: int = 16,
    seed: int = 0,
    model: Factorisation | None = None,
    source: str = "",
) -> PersonaSet:
    model = model or fit(table, seed=seed)
    features = rater_features(table, model)
    scale = features.std(axis=0)
    scaled = (features - features.mean(axis=0)) / np.where(scale > 0, scale, 1)
    scaled[:, 6:] *= REASON_WEIGHT
    k = min(k, table.raters)
    from sklearn.cluster import KMeans  # only building personas needs scikit-learn

    labels = KMeans(n_clusters=k, n_init=10, random_state=seed).fit_predict(scaled)
    counts = np.bincount(table.rater, minlength=table.raters)
    personas = []
    for cluster in range(k):
        members = np.flatnonzero(labels == cluster)
        rows = np.isin(table.rater, members)
        known = rows & ~np.isnan(table.agree)
        good = table.helpful_reasons[rows].sum(axis=0)
        bad = table.not_helpful_reasons[rows].sum(axis=0)
        personas.append(
            PersonaProfile(
                id=cluster,
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
                    "not_helpful": [
                        NOT_HELPFUL_REASONS[j] for j in np.argsort(-bad)[:3] if bad[j] > 0
                    ],
                },
            )
        )
    personas.sort(key=lambda p: p.factor)
    for new_id, persona in enumerate(personas):
        persona.id = new_id
    return PersonaSet(personas=personas, raters=table.raters, ratings=len(table), source=source)
