"""`evonote personas build|score|calibrate`: the simulated rater personas (MultiCom)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers, positive
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings

if TYPE_CHECKING:
    from pipeline.forecast.aggregate import BridgingRule, Verdict
    from pipeline.forecast.ratings import RatingsTable

LABELS = {  # the label a calibration line gives → the verdict (`Verdict`'s values)
    "helpful": "Helpful",
    "currently_rated_helpful": "Helpful",
    "not_helpful": "Not Helpful",
    "currently_rated_not_helpful": "Not Helpful",
    "needs_more_ratings": "Needs More Ratings",
}


def add_parser(sub: Subparsers) -> None:
    personas = sub.add_parser("personas", help="simulated rater personas (MultiCom)")
    psub = personas.add_subparsers(dest="personas_command", required=True)
    build = psub.add_parser("build", help="fit the rater space on real ratings and cluster it")
    score = psub.add_parser(
        "score",
        help="the official first round's fit and note status, in X's file layout, with X's "
        "Gaussian model's intercept and status beside it",
    )
    for command in (build, score):
        command.add_argument("--ratings", type=Path, required=True, help="ratings TSV (2021/now)")
        command.add_argument(
            "--notes", type=Path, help="notes TSV: rate its misleading notes only (officially)"
        )
        command.add_argument(
            "--all-ratings",
            action="store_true",
            help="skip the official preprocessing (misleading notes, 5+ raters per note, "
            "10+ ratings per rater)",
        )
        command.add_argument("--seed", type=int, default=0)
        command.add_argument("--out", type=Path, required=True)
    build.add_argument("--k", type=positive, default=16, help="personas (clusters), at most")
    build.add_argument(
        "--min-ratings",
        type=positive,
        default=10,
        help="cluster only raters with at least this many ratings",
    )
    build.add_argument(
        "--min-size",
        type=positive,
        default=5,
        help="raters a persona needs at least (smaller clusters join the nearest one)",
    )
    build.add_argument(
        "--habits-weight",
        type=float,
        default=0.0,
        help="also cluster on rating habits (shares, agreement, reason tags) at this weight; "
        "0: the learned rater space alone, as MultiCom",
    )
    score.add_argument("--raters-out", type=Path, help="raters' intercepts and factors (TSV)")
    calibrate = psub.add_parser("calibrate", help="fit the aggregator on labelled notes")
    source = calibrate.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--data",
        type=Path,
        help="JSONL: {post, note, label: helpful|not_helpful|needs_more_ratings}",
    )
    source.add_argument(
        "--from-outcomes",
        action="store_true",
        help="our own notes on X with a verdict (after `x sync`), each with the forecast "
        "stored when it was written: no persona is asked again",
    )
    calibrate.add_argument("--out", type=Path, required=True)
    calibrate.add_argument("--folds", type=positive, default=5)
    calibrate.add_argument(
        "--min-per-class",
        type=positive,
        help="labelled notes each verdict needs before a calibration is written "
        "(default: pipeline.forecast.stacking.MIN_PER_CLASS, 20)",
    )


async def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.personas_command == "build":
        return await asyncio.to_thread(build_command, args)
    if args.personas_command == "score":
        return await asyncio.to_thread(score_command, args)
    return await calibrate_command(settings, args)


def ratings_for(args: argparse.Namespace) -> RatingsTable:
    """The ratings as the official first round sees them (misleading notes only, when the
    notes file is given; notes with 5+ raters; raters with 10+ ratings), or all of them."""
    from adapters.community_notes_tsv import only_notes, read_note_ids, read_ratings
    from pipeline.forecast.ratings import official_preprocessing

    table = read_ratings(args.ratings)
    if args.notes:
        table = only_notes(table, read_note_ids(args.notes, misleading_only=not args.all_ratings))
    return table if args.all_ratings else official_preprocessing(table)


def score_command(args: argparse.Namespace) -> int:
    """The official layout, to compare with X's own files: notes' intercepts, factors and
    first-round status; raters' intercepts and factors."""
    from bot.progress import ProgressBar
    from pipeline.forecast.factorisation import fit
    from pipeline.forecast.gaussian import gaussian_scores
    from pipeline.forecast.scoring import NoteStatus, first_round_status

    try:
        table = ratings_for(args)
    except (OSError, ValueError) as e:
        print(f"evonote: {e}", file=sys.stderr)
        return EXIT_INPUT
    with ProgressBar("fitting the rater space", unit="iterations") as bar:
        model = fit(table, seed=args.seed, on_progress=bar)
    statuses = [
        first_round_status(float(i), float(f))
        for i, f in zip(model.note_intercept, model.note_factor, strict=True)
    ]
    # X's second aggregation, on the same raters' factors (`pipeline.forecast.gaussian`)
    gaussian = gaussian_scores(
        table.note, model.rater_factor[table.rater], table.value, table.notes
    )
    by_gaussian = gaussian.statuses()
    lines = [
        "noteId\tinternalNoteIntercept\tinternalNoteFactor1\tratingStatus"
        "\tgaussianNoteIntercept\tgaussianRatingStatus"
    ] + [
        f"{note}\t{i:.6f}\t{f:.6f}\t{s.value}\t{g:.6f}\t{gs.value}"
        for note, i, f, s, g, gs in zip(
            table.note_ids,
            model.note_intercept,
            model.note_factor,
            statuses,
            gaussian.intercept,
            by_gaussian,
            strict=True,
        )
    ]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.raters_out:
        raters = ["raterParticipantId\tinternalRaterIntercept\tinternalRaterFactor1"] + [
            f"{rater}\t{i:.6f}\t{f:.6f}"
            for rater, i, f in zip(
                table.rater_ids, model.rater_intercept, model.rater_factor, strict=True
            )
        ]
        args.raters_out.write_text("\n".join(raters) + "\n", encoding="utf-8")
    counts = {s: statuses.count(s) for s in NoteStatus}
    gaussian_counts = {s: by_gaussian.count(s) for s in NoteStatus}
    agree = sum(a == b for a, b in zip(statuses, by_gaussian, strict=True))
    print(
        f"{len(table):,} ratings by {table.raters:,} raters on {table.notes:,} notes; "
        f"μ {model.mu:.3f}; "
        + ", ".join(f"{s.value} {n}" for s, n in counts.items())
        + "; Gaussian model: "
        + ", ".join(f"{s.value} {n}" for s, n in gaussian_counts.items())
        + f"; the two agree on {agree} of {table.notes}; wrote {args.out}"
    )
    return EXIT_OK


def build_command(args: argparse.Namespace) -> int:
    import numpy as np

    from bot.progress import ProgressBar
    from pipeline.forecast.factorisation import fit
    from pipeline.forecast.personas import build_personas, rater_space, seed_stability

    try:
        table = ratings_for(args)
    except (OSError, ValueError) as e:
        print(f"evonote: {e}", file=sys.stderr)
        return EXIT_INPUT
    started = time.perf_counter()
    with ProgressBar("fitting the rater space", unit="iterations") as bar:
        model = fit(table, seed=args.seed, on_progress=bar)
    fitted = time.perf_counter() - started
    try:
        personas = build_personas(
            table,
            k=args.k,
            seed=args.seed,
            model=model,
            source=f"{args.ratings.name}: {len(table):,} ratings",
            min_ratings=args.min_ratings,
            min_size=args.min_size,
            habits_weight=args.habits_weight,
        )
    except ValueError as e:
        print(f"evonote: {e}", file=sys.stderr)
        return EXIT_INPUT
    clustered = time.perf_counter() - started - fitted
    counts = np.bincount(table.rater, minlength=table.raters)
    space = rater_space(table, model, args.habits_weight)[counts >= args.min_ratings]
    stability = seed_stability(space, args.k, min_size=args.min_size)
    personas.save(args.out)
    sides = (model.rater_factor > 0.15).sum(), (model.rater_factor < -0.15).sum()
    print(
        f"{len(table):,} ratings by {table.raters:,} raters on {table.notes:,} notes; "
        f"factorisation {fitted:.1f} s ({model.iterations} iterations, "
        f"{'converged' if model.converged else 'NOT converged'}); raters with factor "
        f"> +0.15: {sides[0]}, < -0.15: {sides[1]}"
    )
    print(
        f"{len(personas.personas)} personas of {personas.raters} raters with "
        f"{args.min_ratings}+ ratings (clustering {clustered:.1f} s); adjusted Rand across "
        f"seeds 0-2: {stability:.2f}"
    )
    for p in personas.personas:
        print(
            f"  persona {p.id:>2}: {p.size:>4} raters, factor {p.factor:+.2f}, intercept "
            f"{p.intercept:+.2f}, helpful {100 * p.helpful_share:.0f}%"
        )
    print(f"wrote {args.out}; use EVONOTE_FORECAST__PERSONAS={args.out}")
    return EXIT_OK


async def outcomes_table(settings: Settings) -> tuple[list[dict[str, float]], list[Verdict]]:
    """The stored forecast's features and X's verdict of each of our notes that has both."""
    from bot.database import open_stores
    from pipeline.desk.outcomes import HELPFUL, NOT_HELPFUL
    from pipeline.forecast.aggregate import Verdict

    table: list[dict[str, float]] = []
    labels: list[Verdict] = []
    async with open_stores(settings) as stores:
        for submission in await stores.submissions.all():
            if submission.status != HELPFUL and submission.status not in NOT_HELPFUL:
                continue
            episode = await stores.episodes.get(submission.episode_id)
            if episode is None or episode.forecast is None or not episode.forecast.features:
                continue
            table.append(episode.forecast.features)
            helpful = submission.status == HELPFUL
            labels.append(Verdict.HELPFUL if helpful else Verdict.NOT_HELPFUL)
    return table, labels


async def calibrate_command(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import make_llm_client, make_panel
    from pipeline.forecast.aggregate import BridgingRule, Verdict, features

    if args.from_outcomes:
        table, labels = await outcomes_table(settings)
        f = settings.forecast
        rule = BridgingRule(f.helpful_threshold, f.not_helpful_threshold)
        return await asyncio.to_thread(_calibrate, table, labels, rule, args)

    try:
        rows = [
            json.loads(line)
            for line in (await asyncio.to_thread(args.data.read_text, "utf-8")).splitlines()
            if line.strip()
        ]
        labels = [Verdict(LABELS[str(r["label"]).strip().lower().replace(" ", "_")]) for r in rows]
    except (OSError, ValueError, KeyError) as e:
        print(
            f"evonote: {args.data}: every line needs post, note and a label "
            f"(helpful, not_helpful, needs_more_ratings): {e}",
            file=sys.stderr,
        )
        return EXIT_INPUT
    client = make_llm_client(settings)
    try:
        panel = await asyncio.to_thread(
            make_panel,
            settings.model_copy(
                update={
                    "forecast": settings.forecast.model_copy(
                        update={"enabled": True, "calibration": None}
                    )
                }
            ),
            client,
        )
        assert panel is not None
        table = []
        for row in rows:
            votes, _ = await panel.votes(str(row["post"]), str(row["note"]))
            if not votes:
                raise ConfigurationError("no persona answered: is the model server up?")
            table.append(features(votes))
    finally:
        await client.close()
    return await asyncio.to_thread(_calibrate, table, labels, panel.rule, args)


def _calibrate(
    table: list[dict[str, float]],
    labels: list[Verdict],
    rule: BridgingRule,
    args: argparse.Namespace,
) -> int:
    from pipeline.forecast.stacking import (
        MIN_PER_CLASS,
        balanced_accuracy_of,
        fit_stack,
        one_sided,
        report_lines,
        too_few,
    )

    source = args.data or "our notes with a verdict on X and a stored forecast"
    # Refused, not written as provisional: a written calibration is loaded by
    # EVONOTE_FORECAST__CALIBRATION and decides every note, whatever it was called.
    short = too_few(labels, args.min_per_class or MIN_PER_CLASS)
    if short:
        print(f"evonote: {source} ({len(table)} notes): {short}", file=sys.stderr)
        return EXIT_INPUT
    try:
        aggregator, report = fit_stack(table, labels, folds=args.folds)
    except ValueError as e:
        print(f"evonote: {source} ({len(table)} notes): {e}", file=sys.stderr)
        return EXIT_INPUT
    print(f"out of fold ({report.folds} outer folds, tuned on inner folds only):")
    print("\n".join(report_lines(report, [rule.decide(f) for f in table])))
    balanced = balanced_accuracy_of(report)
    single = one_sided(aggregator, table)
    if single is not None or balanced <= 0.5:
        what = f"calls every note {single.value}" if single else "is no better than chance"
        print(
            f"evonote: {source} ({len(table)} notes): the fitted aggregator {what} (balanced "
            f"accuracy {balanced:.3f} out of fold): not written; the bridging rule stays",
            file=sys.stderr,
        )
        return EXIT_INPUT
    aggregator.save(args.out)
    print(f"wrote {args.out}; use EVONOTE_FORECAST__CALIBRATION={args.out}")
    return EXIT_OK
