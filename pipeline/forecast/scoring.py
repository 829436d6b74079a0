"""The official scorer's first-round note status, from a fitted note intercept and factor, as
`note_ratings.compute_scored_notes(..., finalRound=False)` assigns it in
`twitter/communitynotes` (the rules GENERAL_CRH and GENERAL_CRNH; every note scored here has 5+
ratings after the preprocessing):

- Helpful: intercept ≥ 0.40 (misleading notes). No factor bound: the |factor| limit
  (FilterLargeFactor) belongs to the final round, with the tag and diligence filters.
- Not Helpful: intercept ≤ −0.05 − 0.8 · |factor|.
- Anything else needs more ratings.

Not reproduced: UCB_CRNH (needs the pseudo-rater intervals) and NM_CRNH (notes saying the post
is not misleading, which the preprocessing leaves out).
"""

from __future__ import annotations

from enum import StrEnum

HELPFUL_INTERCEPT = 0.40
NOT_HELPFUL_INTERCEPT = -0.05
NOT_HELPFUL_FACTOR_SLOPE = 0.8


class NoteStatus(StrEnum):
    HELPFUL = "CURRENTLY_RATED_HELPFUL"
    NOT_HELPFUL = "CURRENTLY_RATED_NOT_HELPFUL"
    NEEDS_MORE_RATINGS = "NEEDS_MORE_RATINGS"


def first_round_status(intercept: float, factor: float) -> NoteStatus:
    if intercept >= HELPFUL_INTERCEPT:
        return NoteStatus.HELPFUL
    if intercept <= NOT_HELPFUL_INTERCEPT - NOT_HELPFUL_FACTOR_SLOPE * abs(factor):
        return NoteStatus.NOT_HELPFUL
    return NoteStatus.NEEDS_MORE_RATINGS
