"""Persona votes → features → Helpful / Not Helpful / Needs More Ratings.

The default rule follows Community Notes' bridging idea: a note is forecast helpful only when
personas on both sides of the main divide lean helpful. MultiCom's stacked aggregator
(`pipeline/forecast/stacking.py`), calibrated on labelled notes (`evonote personas calibrate`),
replaces the rule when present.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from pydantic import BaseModel

from pipeline.forecast.gaussian import gaussian_scores
from pipeline.forecast.personas import PersonaProfile
from pipeline.forecast.prompts import Helpfulness, HelpfulReason, NotHelpfulReason, RatingForm

SCORE = {Helpfulness.HELPFUL: 1.0, Helpfulness.SOMEWHAT: 0.5, Helpfulness.NOT_HELPFUL: 0.0}
SIDE = 0.15  # |factor| below this is the middle, counted on neither side


class Verdict(StrEnum):
    HELPFUL = "Helpful"
    NOT_HELPFUL = "Not Helpful"
    NEEDS_MORE_RATINGS = "Needs More Ratings"


class PersonaVote(BaseModel):
    persona: int
    size: int
    factor: float
    form: RatingForm


FEATURES = (
    "helpful_score",
    "not_helpful_share",
    "left_score",
    "right_score",
    "side_gap",
    "confidence",
    "agree_share",
    "understanding",
    "gaussian_intercept",
    *(f"reason_{r.value}" for r in HelpfulReason),
    *(f"reason_{r.value}" for r in NotHelpfulReason),
)


def features(votes: list[PersonaVote]) -> dict[str, float]:
    sizes = np.array([v.size for v in votes], dtype=float)
    weights = sizes / sizes.sum()
    score = np.array([SCORE[v.form.helpfulness] for v in votes])
    factor = np.array([v.factor for v in votes])

    def mean(values: np.ndarray, mask: np.ndarray | None = None) -> float:
        w = weights if mask is None else weights * mask
        return float((values * w).sum() / w.sum()) if w.sum() > 0 else float("nan")

    overall = mean(score)
    left = mean(score, factor < -SIDE)
    right = mean(score, factor > SIDE)
    left = overall if np.isnan(left) else left
    right = overall if np.isnan(right) else right
    out = {
        "helpful_score": overall,
        "not_helpful_share": mean(score == 0.0),
        "left_score": left,
        "right_score": right,
        "side_gap": abs(left - right),
        "confidence": mean(np.array([v.form.confidence for v in votes], dtype=float)) / 5,
        "agree_share": mean(np.array([v.form.agree for v in votes], dtype=float)),
        "understanding": mean(np.array([v.form.understanding for v in votes], dtype=float) - 1) / 4,
    }
    for reason in HelpfulReason:
        out[f"reason_{reason.value}"] = mean(
            np.array([reason in v.form.helpful_reasons for v in votes], dtype=float)
        )
    for bad in NotHelpfulReason:
        out[f"reason_{bad.value}"] = mean(
            np.array([bad in v.form.not_helpful_reasons for v in votes], dtype=float)
        )
    # X's second aggregation across the factor axis, each persona standing for its raters
    # (`pipeline.forecast.gaussian`): low unless the personas on each side lean helpful
    out["gaussian_intercept"] = float(
        gaussian_scores(np.zeros(len(votes), dtype=np.int64), factor, score, 1, sizes).intercept[0]
    )
    for vote in votes:  # each persona's own verdict, for the stacked aggregator's meta model
        out[f"persona_{vote.persona}"] = SCORE[vote.form.helpfulness]
    return out


@dataclass(frozen=True)
class BridgingRule:
    """Helpful when both sides score at least `helpful_threshold`; Not Helpful when the
    weighted score is at most `not_helpful_threshold`; otherwise Needs More Ratings."""

    helpful_threshold: float = 0.6
    not_helpful_threshold: float = 0.35

    def decide(self, f: dict[str, float]) -> Verdict:
        if min(f["left_score"], f["right_score"]) >= self.helpful_threshold:
            return Verdict.HELPFUL
        if f["helpful_score"] <= self.not_helpful_threshold:
            return Verdict.NOT_HELPFUL
        return Verdict.NEEDS_MORE_RATINGS


class Forecast(BaseModel):
    verdict: Verdict
    method: str
    features: dict[str, float]
    top_reasons: list[str]
    votes: list[PersonaVote]
    failed_personas: int = 0

    def net_helpful(self) -> float:
        """P(Helpful) - P(Not Helpful) across the personas, weighted by the share of raters
        each stands for: what the submission queue ranks notes by (-1 to 1)."""
        total = sum(v.size for v in self.votes)
        if not total:
            return 0.0
        helpful = sum(v.size for v in self.votes if SCORE[v.form.helpfulness] == 1.0)
        not_helpful = sum(v.size for v in self.votes if SCORE[v.form.helpfulness] == 0.0)
        return (helpful - not_helpful) / total

    def summary(self) -> str:
        f = self.features
        return (
            f"{self.verdict.value} — {100 * f['helpful_score']:.0f}% helpful across "
            f"{len(self.votes)} personas (one side {100 * f['left_score']:.0f}%, other "
            f"side {100 * f['right_score']:.0f}%)"
        )


def top_reasons(f: dict[str, float], n: int = 3) -> list[str]:
    reasons = sorted(
        ((v, k.removeprefix("reason_")) for k, v in f.items() if k.startswith("reason_") and v > 0),
        reverse=True,
    )
    return [name for _, name in reasons[:n]]


def persona_vote(persona: PersonaProfile, form: RatingForm) -> PersonaVote:
    return PersonaVote(persona=persona.id, size=persona.size, factor=persona.factor, form=form)
