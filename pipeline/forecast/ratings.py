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


def keep_ratings(table: RatingsTable, keep: NDArray[np.bool_]) -> RatingsTable:
    """The ratings where `keep` is true, raters and notes renumbered."""
    raters, rater_index = np.unique(table.rater[keep], return_inverse=True)
    notes, note_index = np.unique(table.note[keep], return_inverse=True)
    return RatingsTable(
        rater=rater_index.astype(np.int64),
        note=note_index.astype(np.int64),
        value=table.value[keep],
        agree=table.agree[keep],
        helpful_reasons=table.helpful_reasons[keep],
        not_helpful_reasons=table.not_helpful_reasons[keep],
        rater_ids=[table.rater_ids[i] for i in raters],
        note_ids=[table.note_ids[i] for i in notes],
    )


# The official scorer's first round rates only notes with enough raters, by raters with enough
# ratings (notes filtered first, then raters, once each).
MIN_RATERS_PER_NOTE = 5
MIN_RATINGS_PER_RATER = 10


def official_preprocessing(
    table: RatingsTable,
    min_raters_per_note: int = MIN_RATERS_PER_NOTE,
    min_ratings_per_rater: int = MIN_RATINGS_PER_RATER,
) -> RatingsTable:
    """The official `process_data.filter_ratings`: notes with enough raters, then raters with
    enough ratings, then notes again — once each, not iterated to a fixed point."""

    def enough_raters(t: RatingsTable) -> RatingsTable:
        per_note = np.bincount(t.note, minlength=t.notes)
        return keep_ratings(t, per_note[t.note] >= min_raters_per_note)

    table = enough_raters(table)
    per_rater = np.bincount(table.rater, minlength=table.raters)
    table = keep_ratings(table, per_rater[table.rater] >= min_ratings_per_rater)
    return enough_raters(table)
