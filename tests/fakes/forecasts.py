"""Persona forecasts made to order: each (rating, the share of raters its persona stands for)."""

from __future__ import annotations

from pipeline.forecast.aggregate import Forecast, PersonaVote, Verdict, features
from pipeline.forecast.prompts import Helpfulness, RatingForm


def forecast_of(*ratings: tuple[Helpfulness, int]) -> Forecast:
    votes = [
        PersonaVote(
            persona=n,
            size=size,
            factor=0.0,
            form=RatingForm(helpfulness=h, agree=True, confidence=3, understanding=3),
        )
        for n, (h, size) in enumerate(ratings)
    ]
    return Forecast(
        verdict=Verdict.NEEDS_MORE_RATINGS,
        method="t",
        features=features(votes) if votes else {},
        top_reasons=[],
        votes=votes,
    )


def net(value: float) -> Forecast:
    """A forecast whose net helpfulness is `value` (in tenths)."""
    helpful = round(10 * max(value, 0))
    not_helpful = round(10 * max(-value, 0))
    ratings = [
        (Helpfulness.HELPFUL, helpful),
        (Helpfulness.NOT_HELPFUL, not_helpful),
        (Helpfulness.SOMEWHAT, 10 - helpful - not_helpful),
    ]
    return forecast_of(*[(h, n) for h, n in ratings if n])
