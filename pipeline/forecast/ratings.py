"""Ratings as arrays: who rated which note, how helpful, and the reasons they ticked."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

HELPFUL_REASONS = (
    "Clear",
    "GoodSources",
    "AddressesClaim",
    "ImportantContext",
    "UnbiasedLanguage",
    "Informative",
    "Empathetic",
    "UniqueContext",
    "Other",
)
NOT_HELPFUL_REASONS = (
    "Incorrect",
    "SourcesMissingOrUnreliable",
    "MissingKeyPoints",
    "HardToUnderstand",
    "ArgumentativeOrBiased",
    "IrrelevantSources",
    "OpinionSpeculation",
    "NoteNotNeeded",
    "SpamHarassmentOrAbuse",
    "Outdated",
    "OffTopic",
    "Other",
)


@dataclass
class RatingsTable:
    """One row per rating. `value`: helpful 1.0, somewhat 0.5, not helpful 0.0."""

    rater: NDArray[np.int64]
    note: NDArray[np.int64]
    value: NDArray[np.float64]
    agree: NDArray[np.float64]  # 1 agree, 0 disagree, NaN not asked
    helpful_reasons: NDArray[np.float64]  # (ratings, len(HELPFUL_REASONS)) 0/1
    not_helpful_reasons: NDArray[np.float64]  # (ratings, len(NOT_HELPFUL_REASONS)) 0/1
    rater_ids: list[str]
    note_ids: list[str]

    @property
    def raters(self) -> int:
        return len(self.rater_ids)

    @property
    def notes(self) -> int:
        return len(self.note_ids)

    def __len__(self) -> int:
        return len(self.value)
