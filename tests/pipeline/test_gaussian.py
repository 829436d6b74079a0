"""X's Gaussian model: helpfulness measured at each point of the rater-factor axis, then the
geometric mean — a note helpful to one side only does not score as one helpful to both."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.forecast.aggregate import PersonaVote, features
from pipeline.forecast.gaussian import gaussian_scores, gaussian_status
from pipeline.forecast.prompts import Helpfulness, RatingForm
from pipeline.forecast.scoring import NoteStatus

SIDES = np.concatenate([np.linspace(-0.8, -0.1, 15), np.linspace(0.1, 0.8, 15)])


def scored(*notes: tuple[float, float]) -> tuple[np.ndarray, list[NoteStatus]]:
    """Each note rated by the same 30 raters: `left` by those of negative factor, `right` by
    the others."""
    note, factor, value = [], [], []
    for n, (left, right) in enumerate(notes):
        for f in SIDES:
            note.append(n)
            factor.append(f)
            value.append(left if f < 0 else right)
    scores = gaussian_scores(np.array(note), np.array(factor), np.array(value), len(notes))
    return scores.intercept, scores.statuses()


def test_only_a_note_helpful_across_the_axis_is_helpful() -> None:
    intercept, statuses = scored((1, 1), (1, 0), (0, 0), (0.5, 1))
    assert statuses == [
        NoteStatus.HELPFUL,
        NoteStatus.NEEDS_MORE_RATINGS,  # helpful to one side only
        NoteStatus.NOT_HELPFUL,
        NoteStatus.HELPFUL,  # somewhat helpful counts 0.7
    ]
    assert intercept[0] > intercept[3] > 0 > intercept[1] > intercept[2]


def test_a_rating_counted_twice_is_two_raters() -> None:
    one = gaussian_scores(np.zeros(30, dtype=np.int64), SIDES, np.ones(30), 1, np.full(30, 2.0))
    doubled = gaussian_scores(np.zeros(60, dtype=np.int64), np.tile(SIDES, 2), np.ones(60), 1)
    assert one.intercept[0] == pytest.approx(doubled.intercept[0], rel=1e-6)


def test_few_ratings_on_a_side_keep_a_note_from_helpful() -> None:
    """Two raters on the right: the prior there is 0.1, and the note cannot reach 0.51."""
    factor = np.concatenate([np.linspace(-0.8, -0.1, 15), [0.3, 0.5]])
    scores = gaussian_scores(np.zeros(17, dtype=np.int64), factor, np.ones(17), 1)
    assert gaussian_status(float(scores.intercept[0])) != NoteStatus.HELPFUL


def form(helpfulness: Helpfulness) -> RatingForm:
    return RatingForm.model_validate(
        {"helpfulness": helpfulness, "confidence": 3, "agree": True, "understanding": 3}
    )


def test_the_persona_panel_gets_a_gaussian_intercept() -> None:
    """Personas sit on the factor axis, each standing for its cluster's raters."""
    both = [
        PersonaVote(persona=i, size=20, factor=f, form=form(Helpfulness.HELPFUL))
        for i, f in enumerate([-0.6, -0.3, 0.3, 0.6])
    ]
    one_side = [
        v.model_copy(update={"form": form(Helpfulness.NOT_HELPFUL)}) if v.factor > 0 else v
        for v in both
    ]
    assert features(both)["gaussian_intercept"] > 0.5
    assert features(one_side)["gaussian_intercept"] < features(both)["gaussian_intercept"]
