"""What `python -m bench.rules` measured of the rules, as typed values: generated, never typed
by hand. `python -m bench.rules --write` runs the benchmark and writes `measured.json` beside
this file and the table in docs/benchmarks.md; `tests/pipeline/test_rules_measured.py` fails
when the code's values, the docs' table and the benchmark disagree."""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

MEASURED_FILE = Path(__file__).with_name("measured.json")


@dataclass(frozen=True)
class Measured:
    """One rule's figures: honest drafts refused with a finding of it (`honest_refused`), of
    those how many pass with only it left out (`refused_alone`); bad drafts caught with it
    (`bad_caught`), of those how many escape with only it left out (`caught_only`)."""

    honest_refused: int = 0
    refused_alone: int = 0
    bad_caught: int = 0
    caught_only: int = 0


@dataclass(frozen=True)
class SetFigures:
    """One set of drafts: what code decided of them, and (bad sets) how many escaped."""

    name: str
    honest: bool
    drafts: int
    published_by_code: int
    to_model: int
    refused: int
    escaped: int


@dataclass(frozen=True)
class Measurement:
    """A run of the benchmark: the commit and day it ran on, the corpus, each set's figures,
    each rule's, and the lines printed after the tables."""

    commit: str
    day: str
    corpus: str
    sets: tuple[SetFigures, ...]
    rules: dict[str, Measured] = field(default_factory=dict)
    summary: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Measurement:
        raw = json.loads(text)
        return cls(
            commit=raw["commit"],
            day=raw["day"],
            corpus=raw["corpus"],
            sets=tuple(SetFigures(**s) for s in raw["sets"]),
            rules={k: Measured(**v) for k, v in raw["rules"].items()},
            summary=tuple(raw["summary"]),
        )

    def tables(self) -> str:
        """The sets' table, the rules' table (rules that refused or caught anything, in the
        order measured) and the summary lines, as `bench.rules` prints them."""
        lines = [
            "| set | drafts | published by code | to the model | refused | escaped |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for s in self.sets:
            share = f" ({100 * s.refused / s.drafts:.1f}%)" if s.drafts else ""
            lines.append(
                f"| {s.name} | {s.drafts} | {s.published_by_code} | {s.to_model} "
                f"| {s.refused}{share} | {'' if s.honest else s.escaped} |"
            )
        lines += [
            "",
            "| rule | honest refused | by it alone | bad caught | caught by it only |",
            "| --- | --- | --- | --- | --- |",
        ]
        for rule, c in self.rules.items():
            if c.honest_refused or c.bad_caught:
                lines.append(
                    f"| {rule} | {c.honest_refused} | {c.refused_alone} "
                    f"| {c.bad_caught} | {c.caught_only} |"
                )
        return "\n".join([*lines, "", *self.summary])

    def report(self) -> str:
        """The tables under the line that says where they were measured: what the docs hold."""
        head = f"Measured on commit {self.commit} ({self.day}); {self.corpus}."
        return f"{head}\n\n{self.tables()}\n"


@functools.cache
def measurement() -> Measurement:
    """The last measurement written (`bench.rules --write`)."""
    return Measurement.from_json(MEASURED_FILE.read_text(encoding="utf-8"))


def measured(rule: str) -> Measured:
    """What the last measurement counted for `rule` (zeros: it refused and caught nothing)."""
    return measurement().rules.get(rule, Measured())
