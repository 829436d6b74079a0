"""The persona forecast against real verdicts, beside cheap baselines. Prints; asserts nothing.

    python -m bench.forecast_real [--data ../shared/data] [--recording PATH]
    python -m bench.forecast_real --record --base-url http://127.0.0.1:8092/v1 --minutes 40

Notes (`bench.real_verdicts`): the 40 of HealthNotes with **X's** verdict, and a seeded sample
of 2021 notes with the status **our scorer** gives them. Scores, each checked on the same notes:
- the persona forecast's P(Helpful) − P(Not Helpful) (`Forecast.net_helpful`), replayed from a
  recording of a real model (`bench/data/forecast_real_*.jsonl`); `--record` makes it;
- note length, has a URL, the cited sources' standing by the listed tiers alone (the measured
  domains were earned on these very notes' Helpful ones, `bench.standing`: circular here);
- there is no evaluator-style score in code (X's `claim_opinion_score` is X's, remote).
Each score's AUC; its Brier and balanced accuracy from a one-feature logistic regression fitted
out of fold (stratified 5-fold), so no score is favoured by a threshold chosen on its own
answers; and the forecast as the queue reads it, (net + 1) / 2, against the bar 0.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.forecast_recording import (
    RECORDINGS,
    both_sides,
    forecast_of,
    record,
    recorded,
    replayed_votes,
)
from bench.real_verdicts import RealNote, birdwatch, healthnotes, interleaved
from bench.verdict_metrics import Scores, as_read, scores
from pipeline.forecast.aggregate import Forecast
from pipeline.forecast.personas import PersonaProfile, PersonaSet
from pipeline.forecast.stacking import PAPER
from pipeline.source_quality import listed_tier

RECORDING = RECORDINGS / "forecast_real_qwen2.5-coder-1.5b.jsonl"
# Personas per side of the divide: with 2 a side one note took 4.6 min on the shared 2-core
# server; with 1 a side it rates twice the notes in the same time.
PER_SIDE = 1
BIRDWATCH_PER_CLASS = 20
FORECAST_AS_READ = "persona forecast, net ≥ 0 (as the queue reads it)"
FORECAST_FITTED = "persona forecast, net helpful (fitted out of fold)"
_URL = re.compile(r"https?://\S+")


def url_tier(note: str) -> float:
    """The best listed tier among the note's links (0 without a link)."""
    return float(max((listed_tier(u.rstrip(".,)")) for u in _URL.findall(note)), default=0))


BASELINES: dict[str, Callable[[RealNote], float]] = {
    "note length (characters)": lambda n: float(len(n.note)),
    "has a URL": lambda n: float(bool(_URL.search(n.note))),
    "source standing (listed tier)": lambda n: url_tier(n.note),
}
BASELINE_KEYS = dict(zip(("length", "url", "standing"), BASELINES, strict=True))


def forecasts(
    notes: Sequence[RealNote], recording: Path, personas: Sequence[PersonaProfile]
) -> dict[str, Forecast]:
    """Each recorded note's forecast, rebuilt from its persona answers (no model)."""
    lines = recorded(recording)
    out = {}
    for note in notes:
        votes = replayed_votes(lines.get(note.key, {}), personas)
        if votes:
            out[note.key] = forecast_of(votes)
    return out


def table(notes: Sequence[RealNote], made: dict[str, Forecast]) -> list[Scores]:
    """The forecast's rows on the notes it rated, then each baseline's on the same notes and on
    every note of the set."""
    truth = [n.helpful for n in notes]
    rows = []
    rated = [n for n in notes if n.key in made]
    if rated and len({n.helpful for n in rated}) == 2:
        net = [made[n.key].net_helpful() for n in rated]
        rated_truth = [n.helpful for n in rated]
        rows.append(as_read(FORECAST_AS_READ, net, rated_truth, 0.0))
        rows.append(scores(FORECAST_FITTED, net, rated_truth))
        for name, baseline in BASELINES.items():
            rows.append(scores(f"{name}, same notes", [baseline(n) for n in rated], rated_truth))
    for name, baseline in BASELINES.items():
        rows.append(scores(f"{name}, every note", [baseline(n) for n in notes], truth))
    return rows


def print_table(title: str, rows: Sequence[Scores]) -> None:
    print(title)
    print(f"  {'score':<56} {'notes':>5} {'AUC':>6} {'(95%)':>11} {'bal.acc':>7} {'Brier':>6}")
    for r in rows:
        print(
            f"  {r.name:<56} {r.notes:>5} {r.auc:>6.3f} {r.auc_low:>5.2f}-{r.auc_high:<5.2f} "
            f"{r.balanced_accuracy:>7.3f} {r.brier:>6.3f}"
        )


@dataclass(frozen=True)
class SetResult:
    title: str
    notes: list[RealNote]
    forecasts: dict[str, Forecast]
    rows: list[Scores]
    personas: int

    def heading(self) -> str:
        good = sum(n.helpful for n in self.notes)
        rated_good = sum(n.helpful for n in self.notes if n.key in self.forecasts)
        return (
            f"{self.title}: {len(self.notes)} notes ({good} Helpful); the real model rated "
            f"{len(self.forecasts)} ({rated_good} Helpful) with {self.personas} personas each"
            + (f"; its answers: {self.answers()}" if self.forecasts else "")
        )

    def answers(self) -> str:
        """How the personas answered, over every recorded vote."""
        counts = Counter(v.form.helpfulness.value for f in self.forecasts.values() for v in f.votes)
        return ", ".join(f"{level} {counts[level]}" for level in sorted(counts))

    def row(self, name: str) -> Scores | None:
        return next((r for r in self.rows if r.name == name), None)


def measure_set(title: str, notes: list[RealNote], recording: Path) -> SetResult:
    personas = both_sides(PersonaSet.load(), PER_SIDE)
    made = forecasts(notes, recording, personas)
    return SetResult(title, notes, made, table(notes, made), len(personas))


def healthnotes_result(data: Path, recording: Path = RECORDING) -> SetResult:
    return measure_set("healthnotes_dev (X's verdicts)", healthnotes(data), recording)


def birdwatch_result(data: Path, recording: Path = RECORDING) -> SetResult:
    return measure_set(
        "birdwatch_2021 sample (our scorer's statuses)",
        birdwatch(data, BIRDWATCH_PER_CLASS),
        recording,
    )


def figure(r: Scores) -> str:
    """One row as the docs quote it."""
    interval = f" (95% {r.auc_low:.2f}-{r.auc_high:.2f})" if not math.isnan(r.auc_low) else ""
    if math.isnan(r.brier):
        return f"AUC {r.auc:.3f}{interval}, {r.notes} notes: too few to fit out of fold"
    return (
        f"AUC {r.auc:.3f}{interval}, balanced accuracy {r.balanced_accuracy:.3f}, Brier "
        f"{r.brier:.3f} ({r.notes} notes)"
    )


def benchmark(data: Path, recording: Path) -> None:
    for result in (healthnotes_result(data, recording), birdwatch_result(data, recording)):
        print_table(result.heading(), result.rows)
    print(
        "  no evaluator-style score in code: X's claim_opinion_score is X's own (cn-return-bot "
        "measured AUC 0.67 for helpful-if-rated, REFERENCE.md)"
    )
    print(
        f"MultiCom reports accuracy {PAPER['accuracy']:.3f}, balanced accuracy "
        f"{PAPER['balanced_accuracy']:.3f} (its own notes and model; no AUC or Brier given)"
    )


def record_command(args: argparse.Namespace) -> int:
    from adapters.openai_chat import OpenAIChatModel
    from bot.app import openai_client
    from pipeline.forecast.prompts import MAX_TOKENS

    personas = both_sides(PersonaSet.load(), PER_SIDE)
    notes = interleaved(healthnotes(args.data)) + interleaved(
        birdwatch(args.data, BIRDWATCH_PER_CLASS)
    )

    async def go() -> int:
        client = openai_client(args.base_url, timeout_s=args.timeout)
        # as `bot.app.make_panel` builds the rater: temperature 0.7, the form's token cap
        model = OpenAIChatModel(
            client, model=args.model, temperature=0.7, max_tokens=400, max_tokens_for=MAX_TOKENS
        )
        try:
            return await record(
                model,
                [(n.key, n.post, n.note, n.helpful) for n in notes],
                personas,
                args.recording,
                deadline_s=60 * args.minutes,
                timeout_s=args.timeout,
                concurrency=2,
            )
        finally:
            await client.close()

    done = asyncio.run(go())
    print(f"recorded {done} notes into {args.recording}")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--recording", type=Path, default=RECORDING)
    parser.add_argument("--record", action="store_true", help="ask a real model, append")
    parser.add_argument("--base-url", default="http://127.0.0.1:8092/v1")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per call")
    args = parser.parse_args()
    if args.record:
        raise SystemExit(record_command(args))
    benchmark(args.data, args.recording)


if __name__ == "__main__":
    main()
