"""Simulated rater personas: the factorisation, the personas, the panel and its verdicts."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import openai
import pytest

from adapters.community_notes_tsv import only_notes, read_note_ids, read_ratings
from adapters.openai_chat import OpenAIChatModel
from bot.cli import main
from pipeline.episode import shared_prefix
from pipeline.forecast.aggregate import (
    FEATURES,
    BridgingRule,
    PersonaVote,
    Verdict,
    features,
)
from pipeline.forecast.factorisation import fit
from pipeline.forecast.panel import PersonaPanel
from pipeline.forecast.personas import PersonaSet, build_personas, cluster_raters, seed_stability
from pipeline.forecast.prompts import RatingForm
from pipeline.forecast.ratings import RatingsTable, official_preprocessing
from pipeline.forecast.stacking import (
    WEIGHTS,
    LinearSoftmax,
    Promotion,
    StackedAggregator,
    fit_stack,
)
from tests.conftest import SHARED_DATA
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.ports import FakeChatModel

# the shipped personas, read at import (not on a test's event loop)
SHIPPED = PersonaSet.load()


def planted(
    seed: int = 1, raters: int = 300, notes: int = 200, m: int = 20_000
) -> tuple[RatingsTable, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    truth = {
        "iu": rng.normal(0, 0.15, raters),
        "in": rng.normal(0, 0.2, notes),
        "fu": np.where(rng.random(raters) < 0.6, 1, -1) * rng.uniform(0.5, 1, raters),
        "fn": rng.normal(0, 0.4, notes),
    }
    u, n = rng.integers(0, raters, m), rng.integers(0, notes, m)
    value = (
        0.5
        + truth["iu"][u]
        + truth["in"][n]
        + truth["fu"][u] * truth["fn"][n]
        + rng.normal(0, 0.05, m)
    )
    reasons = (rng.random((m, 9)) < 0.2).astype(float)
    table = RatingsTable(
        u,
        n,
        value,
        rng.choice([0.0, 1.0], m),
        reasons,
        (rng.random((m, 12)) < 0.1).astype(float),
        [f"r{i}" for i in range(raters)],
        [f"n{i}" for i in range(notes)],
    )
    return table, truth


def test_factorisation_recovers_planted_parameters() -> None:
    table, truth = planted()
    model = fit(table)
    assert model.converged
    assert np.corrcoef(model.rater_intercept, truth["iu"])[0, 1] > 0.95
    assert np.corrcoef(model.note_intercept, truth["in"])[0, 1] > 0.95
    assert abs(np.corrcoef(model.rater_factor, truth["fu"])[0, 1]) > 0.95
    assert abs(np.corrcoef(model.note_factor, truth["fn"])[0, 1]) > 0.95
    # the official sign convention: the larger group of raters on the negative side
    assert (model.rater_factor < 0).sum() >= (model.rater_factor > 0).sum()


def test_personas_are_deterministic_with_a_seed() -> None:
    table, _ = planted(seed=2, m=5000)
    first = build_personas(table, k=6, seed=3).model_dump()
    second = build_personas(table, k=6, seed=3).model_dump()
    assert first == second
    counts = np.bincount(table.rater, minlength=table.raters)
    # only raters with 10+ ratings are clustered, each into one persona
    assert sum(p["size"] for p in first["personas"]) == first["raters"] == (counts >= 10).sum()
    factors = [p["factor"] for p in first["personas"]]
    assert factors == sorted(factors)
    assert min(factors) < 0 < max(factors)


def test_real_2021_ratings_split_raters_on_both_sides() -> None:
    ratings = SHARED_DATA / "birdwatch_2021" / "ratings-00000.tsv"
    if not ratings.is_file():
        pytest.skip("shared data not present")
    table = read_ratings(ratings)
    assert len(table) > 13_000
    model = fit(table)
    assert model.converged
    # As in the official scorer's fit of this release: the μ² penalty keeps μ near 0.15 (it
    # was 0.68 without it, leaving note intercepts centred on 0).
    assert 0.10 < model.mu < 0.20
    assert (model.rater_factor > 0.15).sum() > 100
    assert (model.rater_factor < -0.15).sum() > 100
    notes = only_notes(table, read_note_ids(SHARED_DATA / "birdwatch_2021" / "notes-00000.tsv"))
    assert 0 < len(notes) <= len(table)


def test_todays_layout_with_helpfulness_levels(tmp_path: Path) -> None:
    path = tmp_path / "ratings.tsv"
    header = [
        "noteId",
        "raterParticipantId",
        "participantId",
        "createdAtMillis",
        "version",
        "agree",
        "disagree",
        "helpfulnessLevel",
        "helpfulClear",
        "helpfulGoodSources",
        "notHelpfulIncorrect",
        "notHelpfulNoteNotNeeded",
    ]
    rows = [
        ["1", "", "a", "0", "2", "0", "0", "HELPFUL", "1", "1", "0", "0"],
        ["1", "", "b", "0", "2", "0", "0", "SOMEWHAT_HELPFUL", "1", "0", "0", "0"],
        ["2", "", "a", "0", "2", "0", "0", "NOT_HELPFUL", "0", "0", "1", "1"],
    ]
    path.write_text("\n".join("\t".join(r) for r in [header, *rows]) + "\n")
    table = read_ratings(path)
    assert table.value.tolist() == [1.0, 0.5, 0.0]
    assert table.raters == 2 and table.notes == 2
    assert table.helpful_reasons[0, 1] == 1.0  # GoodSources
    assert table.not_helpful_reasons[2, 7] == 1.0  # NoteNotNeeded
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\n1\t2\n")
    with pytest.raises(ValueError, match="not a Community Notes ratings file"):
        read_ratings(bad)


def vote(
    helpfulness: str, factor: float, size: int = 10, reasons: list[str] | None = None
) -> PersonaVote:
    form = RatingForm(
        helpfulness=helpfulness,
        agree=True,
        confidence=4,  # type: ignore[arg-type]
        helpful_reasons=reasons or [],
        understanding=5,
    )
    return PersonaVote(persona=0, size=size, factor=factor, form=form)


@pytest.mark.parametrize(
    ("votes", "verdict"),
    [
        (
            [vote("helpful", -0.6), vote("helpful", 0.5), vote("somewhat_helpful", 0.0)],
            Verdict.HELPFUL,
        ),
        (
            [vote("helpful", -0.6), vote("not_helpful", 0.5), vote("helpful", 0.0)],
            Verdict.NEEDS_MORE_RATINGS,
        ),
        (
            [vote("not_helpful", -0.6), vote("not_helpful", 0.5), vote("somewhat_helpful", 0.0)],
            Verdict.NOT_HELPFUL,
        ),
        ([vote("helpful", -0.6, size=1), vote("not_helpful", 0.5, size=100)], Verdict.NOT_HELPFUL),
    ],
)
def test_bridging_rule_needs_both_sides(votes: list[PersonaVote], verdict: Verdict) -> None:
    assert BridgingRule().decide(features(votes)) == verdict


def test_features_weigh_personas_by_size_and_count_reasons() -> None:
    f = features(
        [vote("helpful", -0.5, size=30, reasons=["GoodSources"]), vote("not_helpful", 0.5, size=10)]
    )
    assert f["helpful_score"] == pytest.approx(0.75)
    assert f["left_score"] == 1.0 and f["right_score"] == 0.0
    assert f["reason_GoodSources"] == pytest.approx(0.75)


def test_a_linear_model_applies_its_coefficients_in_class_order() -> None:
    model = LinearSoftmax(
        feature_names=["helpful_score"],
        coef=[[10.0], [-10.0], [0.0]],  # Helpful, Not Helpful, Needs More Ratings
        intercept=[-7.0, 3.0, 0.0],
    )
    stack = StackedAggregator(
        models={name: model for name in ("weighted", "gated", "rescue", "meta")},
        weights=dict(WEIGHTS),
    )
    assert stack.decide({"helpful_score": 0.9}) == Verdict.HELPFUL
    assert stack.decide({"helpful_score": 0.5}) == Verdict.NEEDS_MORE_RATINGS
    assert stack.decide({"helpful_score": 0.1}) == Verdict.NOT_HELPFUL
    assert stack.proba({"helpful_score": 0.9}).sum() == pytest.approx(1.0)
    promoted = stack.model_copy(
        update={"promotion": Promotion(helpful_score=0.5, understanding=0.6, not_helpful_share=0.9)}
    )
    assert promoted.decide({"helpful_score": 0.5, "understanding": 0.8}) == Verdict.HELPFUL
    unclear = {"helpful_score": 0.5, "understanding": 0.2, "not_helpful_share": 0.1}
    assert promoted.decide(unclear) == Verdict.NEEDS_MORE_RATINGS


def labelled_panels(n: int, seed: int) -> tuple[list[dict[str, float]], list[Verdict]]:
    """Vote features of notes whose verdict follows the bridging idea, with noise: Helpful
    notes score well on both sides, Not Helpful ones badly, NMR ones on one side only."""
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for i in range(n):
        verdict = (Verdict.HELPFUL, Verdict.NOT_HELPFUL, Verdict.NEEDS_MORE_RATINGS)[i % 3]
        left, right = {
            Verdict.HELPFUL: (0.85, 0.8),
            Verdict.NOT_HELPFUL: (0.2, 0.15),
            Verdict.NEEDS_MORE_RATINGS: (0.85, 0.25) if i % 2 else (0.25, 0.8),
        }[verdict]
        left, right = np.clip(np.array([left, right]) + rng.normal(0, 0.12, 2), 0, 1)
        overall = (left + right) / 2
        f = {name: float(rng.random()) for name in FEATURES}  # noise features
        f |= {
            "left_score": float(left),
            "right_score": float(right),
            "side_gap": float(abs(left - right)),
            "helpful_score": float(overall),
            "not_helpful_share": float(1 - overall),
            "understanding": float(np.clip(overall + rng.normal(0, 0.1), 0, 1)),
        }
        f |= {f"persona_{p}": float(rng.random() < (left if p < 4 else right)) for p in range(8)}
        rows.append(f)
        labels.append(verdict)
    return rows, labels


def test_the_stack_learns_out_of_fold_and_shuffled_labels_learn_nothing() -> None:
    rows, labels = labelled_panels(120, seed=0)
    model, report = fit_stack(rows, labels, folds=5)
    assert report.folds == 5 and len(report.stacked) == len(labels)
    hits = np.mean([a == b for a, b in zip(report.stacked, report.truth, strict=True)])
    assert hits > 0.85  # the bridging signal is learned, judged on notes never trained on
    assert set(report.by_predictor) == set(WEIGHTS)
    fresh_rows, fresh_labels = labelled_panels(60, seed=1)
    fresh = np.mean([model.decide(f) == v for f, v in zip(fresh_rows, fresh_labels, strict=True)])
    assert fresh > 0.85
    # nested CV does not leak: with the labels shuffled, the outer folds see chance
    shuffled = list(np.random.default_rng(2).permutation(np.array(labels, dtype=object)))
    _, noise = fit_stack(rows, shuffled, folds=5)
    chance = np.mean([a == b for a, b in zip(noise.stacked, noise.truth, strict=True)])
    assert chance < 0.5


def test_too_few_notes_of_a_label_is_a_clear_error() -> None:
    rows, labels = labelled_panels(9, seed=0)
    with pytest.raises(ValueError, match="at least two"):
        fit_stack(rows[:4], labels[:4])


def test_shipped_personas_come_from_the_2021_data() -> None:
    shipped = PersonaSet.load()
    # 16 asked for; the clusters under 5 raters folded into their neighbours
    assert 2 <= len(shipped.personas) < shipped.settings["k"]
    assert min(p.size for p in shipped.personas) >= 5
    assert sum(p.size for p in shipped.personas) == shipped.raters
    assert (
        min(p.factor for p in shipped.personas)
        < -0.3
        < 0.3
        < max(p.factor for p in shipped.personas)
    )


# OpenBLAS picks its kernels by processor; each computes the same sums in another order. The
# shipped file must not depend on which one a machine gets (SkylakeX here, Haswell on many
# others), so the build runs under several, each in its own process.
BLAS_KERNELS = [None, "Haswell", "Nehalem"]


@pytest.mark.shared_data
@pytest.mark.parametrize("kernel", BLAS_KERNELS, ids=lambda k: k or "detected")
def test_the_shipped_personas_are_what_the_documented_command_builds(
    tmp_path: Path, kernel: str | None
) -> None:
    folder = SHARED_DATA / "birdwatch_2021"
    if not folder.is_dir():
        pytest.skip("shared data not present")
    if kernel is not None and platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("OpenBLAS x86 kernels")
    out = tmp_path / "personas.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    if kernel is not None:
        env["OPENBLAS_CORETYPE"] = kernel
    argv = ["personas", "build", "--ratings", str(folder / "ratings-00000.tsv")]
    argv += ["--notes", str(folder / "notes-00000.tsv"), "--out", str(out)]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))",
            *argv,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    built, shipped = PersonaSet.load(out), PersonaSet.load()
    assert built.model_dump(exclude={"personas"}) == shipped.model_dump(exclude={"personas"})
    assert len(built.personas) == len(shipped.personas)
    for ours, theirs in zip(built.personas, shipped.personas, strict=True):
        assert (ours.size, ours.top_reasons) == (theirs.size, theirs.top_reasons)
        for name in ("intercept", "factor", "helpful_share", "agree_share"):
            assert getattr(ours, name) == pytest.approx(getattr(theirs, name), abs=2e-3)


def test_small_clusters_fold_into_their_nearest_neighbour() -> None:
    rng = np.random.default_rng(0)
    space = np.vstack(
        [
            rng.normal(0, 0.05, (20, 2)),
            rng.normal(5, 0.05, (20, 2)),
            [[5.5, 5.5], [5.6, 5.4]],  # two stragglers near the second group
        ]
    )
    labels = cluster_raters(space, k=3, seed=0, min_size=5)
    assert sorted(np.bincount(labels)) == [20, 22]
    assert len(set(labels[20:])) == 1  # the stragglers joined the group beside them
    assert seed_stability(space, k=2) == pytest.approx(1.0)


async def test_personas_rate_concurrently_against_the_model_server(
    model_server: ScriptedModelServer,
) -> None:
    model_server.delay_s = 0.3
    client = openai.AsyncOpenAI(base_url=model_server.base_url, api_key="x", max_retries=0)
    panel = PersonaPanel(OpenAIChatModel(client, model="m"), SHIPPED)
    started = time.perf_counter()
    forecast = await panel.forecast("Vaccines cause autism", "Studies find no link. https://a.org")
    elapsed = time.perf_counter() - started
    await client.close()
    assert forecast is not None
    assert forecast.verdict == Verdict.HELPFUL
    personas = len(SHIPPED.personas)
    assert len(forecast.votes) == personas
    # 4 at a time (the note's share) is ~1.2 s; one at a time would be 4.2 s
    assert elapsed < personas * 0.3 / 2, f"{personas} personas took {elapsed:.1f} s: not concurrent"
    prompts = [r["messages"][1]["content"] for r in model_server.requests]
    assert len(set(prompts)) == personas, "each persona has its own profile in its prompt"
    # Everything up to the group's description is the same for every persona, so a
    # prefix-caching server prefills the instructions, post and note once per note.
    assert len({r["messages"][0]["content"] for r in model_server.requests}) == 1
    shared = prompts[0][: min(shared_prefix(prompts[0], p) for p in prompts[1:])]
    assert shared.endswith("</untrusted_note>\n\n## The group you simulate (")


async def test_a_persona_that_fails_only_lowers_coverage() -> None:
    calls = {"n": 0}

    class Flaky:
        answers = frozenset({"RatingForm"})

        def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
            calls["n"] += 1
            if calls["n"] % 4 == 0:
                return {"helpfulness": "brilliant"}
            return {
                "helpfulness": "helpful",
                "agree": True,
                "confidence": 5,
                "understanding": 5,
            }

    panel = PersonaPanel(FakeChatModel(Flaky()), SHIPPED)
    forecast = await panel.forecast("post", "note")
    assert forecast is not None
    personas = len(SHIPPED.personas)
    assert forecast.failed_personas == personas // 4  # every fourth answer is invalid
    assert len(forecast.votes) == personas - personas // 4


def test_personas_build_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, _ = planted(seed=4, raters=60, notes=40, m=3000)
    path = tmp_path / "ratings.tsv"
    lines = ["noteId\tparticipantId\tcreatedAtMillis\tagree\tdisagree\thelpful\tnotHelpful"]
    for u, n, v in zip(table.rater, table.note, table.value, strict=True):
        helpful = int(v > 0.5)
        lines.append(f"n{n}\tr{u}\t0\t1\t0\t{helpful}\t{1 - helpful}")
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "personas.json"
    assert main(["personas", "build", "--ratings", str(path), "--k", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "converged" in printed and "persona  3" in printed
    assert len(json.loads(out.read_text())["personas"]) == 4


def test_personas_calibrate_command(
    model_server: ScriptedModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    class ByNote:
        answers = frozenset({"RatingForm"})

        def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
            note = (
                messages[-1]["content"].split("<untrusted_note>")[1].split("</untrusted_note>")[0]
            )
            level = (
                "helpful"
                if "good" in note
                else "not_helpful"
                if "bad" in note
                else "somewhat_helpful"
            )
            return {
                "helpfulness": level,
                "agree": level == "helpful",
                "confidence": 3,
                "understanding": 1 if level == "not_helpful" else 4,
            }

    model_server.policy = ByNote()
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    data = tmp_path / "labelled.jsonl"
    rows = [
        {"post": f"p{i}", "note": kind, "label": label}
        for i in range(6)
        for kind, label in (
            ("a good note", "helpful"),
            ("a bad note", "not_helpful"),
            ("a plain note", "needs_more_ratings"),
        )
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows))
    out = tmp_path / "calibration.json"
    assert (
        main(
            [
                "personas",
                "calibrate",
                "--data",
                str(data),
                "--out",
                str(out),
                "--folds",
                "3",
                "--min-per-class",
                "6",  # a trial's own minimum: 20 a class by default
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "stacked, with NMR promotion: accuracy 1.000" in printed
    assert "MultiCom reports accuracy 0.847" in printed
    aggregator = StackedAggregator.load(out)
    assert set(aggregator.models) == {"weighted", "gated", "rescue", "meta"}


def test_bad_calibration_data_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "bad.jsonl"
    data.write_text('{"post": "p", "note": "n", "label": "brilliant"}\n')
    assert (
        main(["personas", "calibrate", "--data", str(data), "--out", str(tmp_path / "c.json")]) == 3
    )
    assert "needs post, note and a label" in capsys.readouterr().err


def test_official_preprocessing_filters_notes_again_after_the_raters() -> None:
    """Note X has 5 raters, one of whom (F) has 9 ratings: the rater pass drops F, leaving X
    with 4, and the last note pass drops X — as the official filter does. Two passes would
    keep X's 4 ratings."""
    from pipeline.forecast.ratings import HELPFUL_REASONS, NOT_HELPFUL_REASONS, RatingsTable

    x = 10
    pairs = [(r, n) for r in range(4) for n in [*range(10), x]]  # A-D: 11 ratings each
    pairs += [(4, n) for n in range(10)]  # E: 10
    pairs += [(5, n) for n in [*range(8), x]]  # F: 9, one of them on X
    rater = np.array([p[0] for p in pairs])
    note = np.array([p[1] for p in pairs])
    m = len(pairs)
    table = RatingsTable(
        rater,
        note,
        np.ones(m),
        np.full(m, np.nan),
        np.zeros((m, len(HELPFUL_REASONS))),
        np.zeros((m, len(NOT_HELPFUL_REASONS))),
        [f"r{i}" for i in range(6)],
        [f"n{i}" for i in range(11)],
    )
    kept = official_preprocessing(table)
    assert "n10" not in kept.note_ids and "r5" not in kept.rater_ids
    assert len(kept) == 50  # A-E on n0-n9; two passes would also keep X's 4 ratings (54)


def test_official_preprocessing_keeps_notes_with_5_raters_then_raters_with_10() -> None:
    from pipeline.forecast.ratings import official_preprocessing

    table, _ = planted(seed=4, m=3000)
    kept = official_preprocessing(table)
    per_note = np.bincount(kept.note, minlength=kept.notes)
    per_rater = np.bincount(kept.rater, minlength=kept.raters)
    # the last pass is of notes: every note keeps 5+ raters; a rater may fall below 10 (the
    # official filter stops there, it does not iterate)
    assert per_note.min() >= 5 and per_rater.min() >= 1
    assert 0 < len(kept) < len(table) and kept.raters < table.raters


@pytest.mark.parametrize(
    ("intercept", "factor", "status"),
    [
        (0.41, 0.1, "CURRENTLY_RATED_HELPFUL"),
        (0.41, 0.6, "CURRENTLY_RATED_HELPFUL"),  # the factor bound is the final round's
        (0.39, 0.0, "NEEDS_MORE_RATINGS"),
        (-0.06, 0.0, "CURRENTLY_RATED_NOT_HELPFUL"),
        (-0.05, 0.0, "CURRENTLY_RATED_NOT_HELPFUL"),  # at the bound: ≤, as the official rule
        (-0.30, 0.3, "CURRENTLY_RATED_NOT_HELPFUL"),  # below -0.05 - 0.8 * 0.3 = -0.29
        (-0.20, 0.2, "NEEDS_MORE_RATINGS"),  # -0.05 - 0.8 * 0.2 = -0.21
    ],
)
def test_first_round_status_thresholds(intercept: float, factor: float, status: str) -> None:
    from pipeline.forecast.scoring import first_round_status

    assert first_round_status(intercept, factor).value == status


def test_personas_score_writes_the_official_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ratings = SHARED_DATA / "birdwatch_2021" / "ratings-00000.tsv"
    notes = SHARED_DATA / "birdwatch_2021" / "notes-00000.tsv"
    if not ratings.is_file():
        pytest.skip("shared data not present")
    from bot.cli import main

    out, raters = tmp_path / "scored_notes.tsv", tmp_path / "raters.tsv"
    argv = ["personas", "score", "--ratings", str(ratings), "--notes", str(notes)]
    assert main([*argv, "--out", str(out), "--raters-out", str(raters)]) == 0
    printed = capsys.readouterr().out
    # the official first round on this release (twitter/communitynotes, filter_ratings then
    # MatrixFactorization, run side by side): 5,256 ratings, 204 raters, 627 notes, μ 0.158,
    # 71 Helpful / 14 Not Helpful / 542 Needs More Ratings
    assert printed.startswith("5,256 ratings by 204 raters on 627 notes; μ 0.158; ")
    factorised, gaussian = printed.split("; Gaussian model: ")
    counts = dict(re.findall(r"(CURRENTLY_RATED_\w+|NEEDS_MORE_RATINGS) (\d+)", factorised))
    official = {"HELPFUL": 71, "NOT_HELPFUL": 14}
    for status, n in official.items():
        assert abs(int(counts[f"CURRENTLY_RATED_{status}"]) - n) <= 2, counts
    # X's Gaussian model on the same factors: far stricter on notes of ~8 ratings (a side with
    # fewer than 3 ratings gets a prior of 0.1 at every point); measured 2 / 5 / 620
    by_gaussian = dict(re.findall(r"(CURRENTLY_RATED_\w+|NEEDS_MORE_RATINGS) (\d+)", gaussian))
    assert int(by_gaussian["CURRENTLY_RATED_HELPFUL"]) < int(counts["CURRENTLY_RATED_HELPFUL"])
    assert sum(map(int, by_gaussian.values())) == 627
    rows = out.read_text().splitlines()
    assert rows[0] == (
        "noteId\tinternalNoteIntercept\tinternalNoteFactor1\tratingStatus"
        "\tgaussianNoteIntercept\tgaussianRatingStatus"
    )
    assert len(rows) == 628
    assert raters.read_text().splitlines()[0] == (
        "raterParticipantId\tinternalRaterIntercept\tinternalRaterFactor1"
    )


async def test_a_notes_forecast_keeps_to_its_share_of_the_model_server() -> None:
    running = peak = 0

    class Counting:
        answers = frozenset({"RatingForm"})

        def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
            return {"helpfulness": "helpful", "agree": True, "confidence": 4, "understanding": 4}

    class Slow(FakeChatModel):
        async def structured(self, messages: Any, output: Any, *, timeout_s: float) -> Any:
            nonlocal running, peak
            running += 1
            peak = max(peak, running)
            await asyncio.sleep(0.02)
            running -= 1
            return await super().structured(messages, output, timeout_s=timeout_s)

    personas = SHIPPED
    panel = PersonaPanel(Slow(Counting()), personas, concurrency=8, per_note=3)
    forecast = await panel.forecast("post", "note")
    assert forecast is not None and len(forecast.votes) == len(personas.personas)
    assert peak == 3  # one note never takes more than its share
    peak = 0
    await asyncio.gather(*(panel.forecast("post", f"note {i}") for i in range(4)))
    assert peak == 8  # four notes together stop at the process's share
    few = PersonaPanel(Slow(Counting()), personas, personas_per_note=5)
    fewer = await few.forecast("post", "note")
    sizes = sorted((p.size for p in personas.personas), reverse=True)
    assert fewer is not None and sorted((v.size for v in fewer.votes), reverse=True) == sizes[:5]
