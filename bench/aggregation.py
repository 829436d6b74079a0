"""How well persona-level verdicts recover Community Notes' own verdict — the aggregation step
of MultiCom, measured on real ratings with no model in the loop. Prints; asserts nothing.

    python -m bench.aggregation [--data ../shared/data/birdwatch_2021] [--folds 5]

The 2021 ratings go through the official preprocessing; the rater space is fitted and the
raters clustered as `evonote personas build` does. Each note's "persona votes" are then the
real ratings of each persona's members on that note (their mean: helpful ≥ 0.75, not helpful
≤ 0.25, somewhat between; agreement, reasons and understanding from the same ratings), and the
label is the note's first-round status under the official thresholds. This is an oracle for
the personas — it measures the aggregators (bridging rule, each stacked predictor, the stack),
not the model's imitation of raters — and the label comes from the same ratings, so it is an
upper bound, not MultiCom's task. The paper's figures are printed beside it for scale only.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from adapters.community_notes_tsv import only_notes, read_note_ids, read_ratings
from pipeline.forecast.aggregate import BridgingRule, Verdict, features, persona_vote
from pipeline.forecast.factorisation import fit
from pipeline.forecast.personas import PersonaProfile, cluster_raters, rater_space
from pipeline.forecast.prompts import Helpfulness, HelpfulReason, NotHelpfulReason, RatingForm
from pipeline.forecast.ratings import HELPFUL_REASONS, NOT_HELPFUL_REASONS, official_preprocessing
from pipeline.forecast.scoring import NoteStatus, first_round_status
from pipeline.forecast.stacking import fit_stack, report_lines

STATUS = {
    NoteStatus.HELPFUL: Verdict.HELPFUL,
    NoteStatus.NOT_HELPFUL: Verdict.NOT_HELPFUL,
    NoteStatus.NEEDS_MORE_RATINGS: Verdict.NEEDS_MORE_RATINGS,
}


def form(values: np.ndarray, agree: np.ndarray, good: np.ndarray, bad: np.ndarray) -> RatingForm:
    mean = float(values.mean())
    level = (
        Helpfulness.HELPFUL
        if mean >= 0.75
        else Helpfulness.NOT_HELPFUL
        if mean <= 0.25
        else Helpfulness.SOMEWHAT
    )
    known = agree[~np.isnan(agree)]
    helpful = [
        HelpfulReason(HELPFUL_REASONS[j])
        for j in np.flatnonzero(good.mean(axis=0) >= 0.5)
        if HELPFUL_REASONS[j] in HelpfulReason._value2member_map_
    ]
    not_helpful = [
        NotHelpfulReason(NOT_HELPFUL_REASONS[j])
        for j in np.flatnonzero(bad.mean(axis=0) >= 0.5)
        if NOT_HELPFUL_REASONS[j] in {r.value for r in NotHelpfulReason}
    ]
    return RatingForm(
        helpfulness=level,
        agree=bool(known.mean() >= 0.5) if len(known) else mean >= 0.5,
        confidence=3,
        helpful_reasons=helpful[:5],
        not_helpful_reasons=not_helpful[:8],
        understanding=1 + round(4 * mean),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/birdwatch_2021"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--k", type=int, default=16)
    args = parser.parse_args()
    table = read_ratings(args.data / "ratings-00000.tsv")
    table = official_preprocessing(
        only_notes(table, read_note_ids(args.data / "notes-00000.tsv", misleading_only=True))
    )
    model = fit(table)
    labels = cluster_raters(rater_space(table, model), args.k, seed=0)  # all have 10+ ratings
    personas = [
        PersonaProfile(
            id=c,
            size=int((labels == c).sum()),
            intercept=0.0,
            factor=float(model.rater_factor[labels == c].mean()),
            helpful_share=0.0,
            not_helpful_share=0.0,
            ratings_per_rater=0.0,
        )
        for c in range(labels.max() + 1)
    ]
    rows, truth = [], []
    for note in range(table.notes):
        mine = table.note == note
        votes = []
        for persona in personas:
            rows_of = mine & (labels[table.rater] == persona.id)
            if rows_of.any():
                votes.append(
                    persona_vote(
                        persona,
                        form(
                            table.value[rows_of],
                            table.agree[rows_of],
                            table.helpful_reasons[rows_of],
                            table.not_helpful_reasons[rows_of],
                        ),
                    )
                )
        rows.append(features(votes))
        status = first_round_status(
            float(model.note_intercept[note]), float(model.note_factor[note])
        )
        truth.append(STATUS[status])
    counts = {v.value: truth.count(v) for v in Verdict}
    voting = np.mean([sum(k.startswith("persona_") for k in r) for r in rows])
    print(
        f"{table.notes} notes ({counts}), {len(table):,} ratings, {len(personas)} personas; "
        f"voting personas per note: {voting:.1f}"
    )
    started = time.perf_counter()
    _, report = fit_stack(rows, truth, folds=args.folds)
    took = time.perf_counter() - started
    print(f"nested cross-validation: {took:.1f} s, {report.folds} outer folds")
    print("\n".join(report_lines(report, [BridgingRule().decide(f) for f in rows])))


if __name__ == "__main__":
    main()
