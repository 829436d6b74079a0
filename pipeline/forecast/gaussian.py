"""X's second aggregation of ratings: the Gaussian model (in X's scorer since 2025-11-10).

Where the factorisation fits one intercept per note, the Gaussian model asks how helpful the
note is *at each point* of the rater-factor axis and takes the geometric mean across the points:
a note rated helpful on one side only scores low. Per note and per point, each rating counts by
a Gaussian kernel of its rater's distance to the point (rows normalised), Not Helpful ratings
count more, and a prior pulls a point with few ratings towards `min(smoothing, f_n·point/2 +
smoothing)` (at least `min_prior`; 0.1 when a side of the axis has fewer than 3 ratings),
weighted by `log(max(n, base))/log(base) · smoothing_weight`. The means are clipped and their
geometric mean is the note's helpful intercept. The same run with the ratings flipped gives a
Not Helpful intercept; the note's intercept is whichever is larger in magnitude, the Not Helpful
one negated.

As `scoring/src/scoring/gaussian_scorer.py` (`_return_all_pts`, `_calculate_gaussian_scores`)
and `constants.py` (`quantileRange`, `gaussianCrhParams`, `gaussianCrnhParams`) of
`twitter/communitynotes` at commit 03cbdf9 do it, without the empirical priors (a lookup
over notes with 10-50 ratings a side, which a panel of personas or the 2021 sample does not
have). Status by that scorer's default thresholds: Helpful at an intercept of 0.51 or more,
Not Helpful at -0.5 or less.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.forecast.scoring import NoteStatus

# The points of the rater-factor axis where helpfulness is measured (`quantileRange`).
POINTS = np.array(
    [-0.92, -0.65, -0.61, -0.58, -0.55, -0.52, -0.49, -0.46, -0.43, -0.41, -0.38, -0.35,
     -0.33, -0.3, -0.28, -0.25, -0.22, -0.2, -0.17, -0.14, -0.12, -0.09, -0.07, -0.04, -0.01,
     0.01, 0.04, 0.07, 0.09, 0.12, 0.14, 0.17, 0.2, 0.22, 0.25, 0.28, 0.3, 0.33, 0.35, 0.38,
     0.41, 0.43, 0.46, 0.49, 0.52, 0.55, 0.58, 0.61, 0.65, 0.92]
)  # fmt: skip
HELPFUL_AT = 0.51  # GaussianScorer's crhThreshold
NOT_HELPFUL_AT = -0.5  # its crnhThresholdIntercept (no factor term: the multiplier is 0)
# A Not Helpful rating far from where the note's other Not Helpful ratings sit is unexpected,
# and counts up to `1 + pct · 3` (Helpful curve) or `1 + pct · 4` (Not Helpful curve) times.
_UNEXPECTED_WINDOW = 0.28
_SIDE_MIN = 3  # ratings a side of the axis needs before the prior is the note's own


@dataclass(frozen=True)
class CurveParams:
    """`GaussianParams` of X's constants."""

    bandwidth: float = 0.1
    smoothing_weight: float = 0.4
    smoothing_value: float = 0.35
    adaptive_weight_base: float = 9
    neg_weight: float = 1.75
    min_prior: float = 0.2
    weight_limit: float = 1e-9
    somewhat_value: float = 0.7
    clip_lower: float = 0.05
    clip_upper: float = 0.8
    flip: bool = False
    normalize: bool = True
    unexpected_gain: float = 3.0  # `pct * 3 + 1`, clipped at 2 (4 and 4 when flipped)
    unexpected_cap: float = 2.0


HELPFUL_CURVE = CurveParams()  # gaussianCrhParams
NOT_HELPFUL_CURVE = CurveParams(  # gaussianCrnhParams
    bandwidth=0.2,
    smoothing_weight=5.0,
    smoothing_value=0.35,
    min_prior=0.3,
    neg_weight=1.25,
    flip=True,
    clip_upper=0.65,
    clip_lower=0.25,
    normalize=False,
    weight_limit=5e-4,
    unexpected_gain=4.0,
    unexpected_cap=4.0,
)


@dataclass(frozen=True)
class GaussianScores:
    """Per note: the intercept (the helpful or the negated Not Helpful geometric mean, whichever
    is larger in magnitude) and the two curves' own."""

    intercept: NDArray[np.float64]
    helpful: NDArray[np.float64]
    not_helpful: NDArray[np.float64]

    def statuses(self) -> list[NoteStatus]:
        return [gaussian_status(float(i)) for i in self.intercept]


def gaussian_status(intercept: float) -> NoteStatus:
    if intercept >= HELPFUL_AT:
        return NoteStatus.HELPFUL
    if intercept <= NOT_HELPFUL_AT:
        return NoteStatus.NOT_HELPFUL
    return NoteStatus.NEEDS_MORE_RATINGS


def gaussian_scores(
    note: NDArray[np.int64],
    rater_factor: NDArray[np.float64],
    value: NDArray[np.float64],
    notes: int,
    weight: NDArray[np.float64] | None = None,
) -> GaussianScores:
    """The Gaussian model's scores of `notes` notes from ratings (one entry per rating: its
    note, its rater's factor, its value 1 / 0.5 / 0). `weight`: how many raters a rating stands
    for (a persona stands for its cluster), 1 each by default."""
    counted = np.ones_like(value) if weight is None else np.asarray(weight, dtype=float)
    helpful = _curve(note, rater_factor, value, notes, counted, HELPFUL_CURVE)
    not_helpful = _curve(note, rater_factor, value, notes, counted, NOT_HELPFUL_CURVE)
    intercept = np.where(np.abs(helpful) < np.abs(not_helpful), -not_helpful, helpful)
    return GaussianScores(intercept=intercept, helpful=helpful, not_helpful=not_helpful)


def _per_note(note: NDArray[np.int64], values: NDArray[np.float64], notes: int) -> np.ndarray:
    """Sums per note of each column of `values` (ratings × points)."""
    return np.stack(
        [np.bincount(note, weights=values[:, p], minlength=notes) for p in range(values.shape[1])],
        axis=1,
    )


def _curve(
    note: NDArray[np.int64],
    factor: NDArray[np.float64],
    value: NDArray[np.float64],
    notes: int,
    counted: NDArray[np.float64],
    params: CurveParams,
) -> NDArray[np.float64]:
    """The geometric mean across `POINTS` of one curve (Helpful, or flipped: Not Helpful)."""
    scores = np.where(value == 0.5, params.somewhat_value, value)
    original = value.copy()
    if params.flip:
        scores, original = 1 - scores, 1 - original
    distance = np.abs(factor[:, None] - POINTS[None, :])
    kernel = np.exp(-0.5 * (distance / params.bandwidth) ** 2) / (
        params.bandwidth * np.sqrt(2 * np.pi)
    )
    if params.normalize:
        kernel = kernel / kernel.sum(axis=1, keepdims=True)
    kernel = kernel * counted[:, None]
    insufficient = (_per_note(note, kernel, notes) < params.weight_limit).any(axis=1)

    negative = scores == 0
    kernel[negative] *= (_unexpected(note, factor, negative, notes, counted, params))[
        note[negative]
    ][:, None] * params.neg_weight
    total_weight = _per_note(note, kernel, notes)
    total_value = _per_note(note, kernel * scores[:, None], notes)

    ratings = np.bincount(note, weights=counted, minlength=notes)
    note_factor = np.bincount(
        note, weights=counted * (original - 0.5) * 2 * factor, minlength=notes
    ) / np.maximum(ratings, 1e-12)
    prior = np.minimum(note_factor[:, None] * POINTS[None, :] / 2 + params.smoothing_value,
                       params.smoothing_value)  # fmt: skip
    prior = np.maximum(prior, params.min_prior)
    left = np.bincount(note, weights=counted * (factor < 0), minlength=notes)
    right = np.bincount(note, weights=counted * (factor > 0), minlength=notes)
    prior[(left < _SIDE_MIN) | (right < _SIDE_MIN)] = 0.1
    base = params.adaptive_weight_base
    prior_weight = np.log(np.maximum(ratings, base)) / np.log(base) * params.smoothing_weight

    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (total_value + prior * prior_weight[:, None]) / (
            total_weight + prior_weight[:, None]
        )
    mean = np.clip(np.nan_to_num(mean, nan=params.clip_lower), params.clip_lower, params.clip_upper)
    geometric: NDArray[np.float64] = np.exp(np.log(mean).mean(axis=1))
    geometric[insufficient] = 0.0  # X sets such a note's points to -1: no score
    return geometric


def _unexpected(
    note: NDArray[np.int64],
    factor: NDArray[np.float64],
    negative: NDArray[np.bool_],
    notes: int,
    counted: NDArray[np.float64],
    params: CurveParams,
) -> NDArray[np.float64]:
    """Per note, how much more its negative ratings count: the share of its ratings that are
    negative and far (past half `_UNEXPECTED_WINDOW`) from where its negative ratings sit."""
    negatives = np.bincount(note[negative], weights=counted[negative], minlength=notes)
    centre = np.bincount(
        note[negative], weights=counted[negative] * factor[negative], minlength=notes
    ) / np.maximum(negatives, 1e-12)
    far = 1 / (1 + np.exp(-200 * (np.abs(factor - centre[note]) - _UNEXPECTED_WINDOW / 2)))
    unexpected = np.bincount(note[negative], weights=(counted * far)[negative], minlength=notes)
    share = unexpected / np.maximum(np.bincount(note, weights=counted, minlength=notes), 1e-12)
    gain: NDArray[np.float64] = np.minimum(
        share * params.unexpected_gain + 1, params.unexpected_cap
    )
    return gain
