"""The official scorer's first-round note status, from a fitted note intercept and factor.

Helpful: intercept ≥ 0.40 with |factor| < 0.50 (agreement across the divide, not from one side).
Not Helpful: intercept < −0.05 − 0.8 · |factor|. Anything between needs more ratings.
"""

from __future__ import annotations

from enum import StrEnum

HELPFUL_INTERCEPT = 0.40
HELPFUL_MAX_FACTOR = 0.50
NOT_HELPFUL_INTERCEPT = -0.05
NOT_HELPFUL_FACTOR_SLOPE = 0.8


class NoteStatus(StrEnum):
    HELPFUL = "CURRENTLY_RATED_HELPFUL"
    NOT_HELPFUL = "CURRENTLY_RATED_NOT_HELPFUL"
    NEEDS_MORE_RATINGS = "NEEDS_MORE_RATINGS"


def first_round_status(intercept: float, factor: float) -> NoteStatus:
    if intercept >= HELPFUL_INTERCEPT and abs(factor) < HELPFUL_MAX_FACTOR:
        return NoteStatus.HELPFUL
    if intercept < NOT_HELPFUL_INTERCEPT - NOT_HELPFUL_FACTOR_SLOPE * abs(factor):
        return NoteStatus.NOT_HELPFUL
    return NoteStatus.NEEDS_MORE_RATINGS
