"""The figures the docs quote from benchmarks, regenerated from the benchmarks themselves.

A figure in a doc sits between two markers, `<!-- figure NAME -->8 of 40<!-- /figure -->`
(Markdown shows only the text), and `FIGURES` says how each is measured. The docs' figures
went stale as the rules changed (`bench.text_policy`: the docs said 1 of 40 human notes
refused where it refused 8); now

    python -m bench.doc_figures [--data ../shared/data] [--check] [--only-cheap]

rewrites every marked figure from a fresh run (`--check`: only says which differ, exit 1), and
`tests/bench/test_doc_figures.py` fails when a cheap one (seconds) disagrees with its docs.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bench import forecast_real
from bench.text_policy import Refusals, measure

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# the markers may be wrapped with the prose around them
MARKED = re.compile(
    r"(?P<open><!--\s*figure\s+(?P<name>[\w.-]+)\s*-->)(?P<text>.*?)(?P<close><!--\s*/figure\s*-->)",
    re.S,
)
HEALTHNOTES = "healthnotes_dev/posts.jsonl"
BIRDWATCH = "birdwatch_2021/notes-00000.tsv"


@dataclass(frozen=True)
class Figure:
    data: str  # the file under the data folder it is measured on
    cheap: bool  # seconds: checked by the test suite
    render: Callable[[Path], str]


@cache
def _refusals(path: Path) -> Refusals:
    return measure(path)


@cache
def _forecast(posts: Path, birdwatch: bool = False) -> forecast_real.SetResult:
    data = posts.parents[1]  # the data folder: <data>/<set>/<file>
    if birdwatch:
        return forecast_real.birdwatch_result(data)
    return forecast_real.healthnotes_result(data)


def _forecast_row(posts: Path, name: str, birdwatch: bool = False) -> str:
    row = _forecast(posts, birdwatch).row(name)
    return forecast_real.figure(row) if row else "not measured (no recorded forecast)"


FIGURES: dict[str, Figure] = {
    # bench.text_policy on the 40 human notes of HealthNotes (~10 s)
    "text_policy.healthnotes": Figure(
        HEALTHNOTES,
        True,
        lambda p: f"{_refusals(p).refused} of {_refusals(p).english}",
    ),
    "text_policy.healthnotes.kinds": Figure(HEALTHNOTES, True, lambda p: _refusals(p).by_kind()),
    # bench.text_policy on the 2021 Community Notes release (minutes)
    "text_policy.birdwatch_2021": Figure(
        BIRDWATCH,
        False,
        lambda p: (
            f"{_refusals(p).refused:,} of {_refusals(p).english:,} English 2021 notes "
            f"({_refusals(p).share:.1%}: {_refusals(p).by_kind()})"
        ),
    ),
    "text_policy.birdwatch_2021.share": Figure(
        BIRDWATCH, False, lambda p: f"{_refusals(p).share:.1%}"
    ),
    # bench.forecast_real: the recorded real-model forecast replayed on HealthNotes (seconds)
    "forecast_real.healthnotes.as_read": Figure(
        HEALTHNOTES, True, lambda p: _forecast_row(p, forecast_real.FORECAST_AS_READ)
    ),
    "forecast_real.healthnotes.answers": Figure(
        HEALTHNOTES, True, lambda p: _forecast(p).answers() or "none recorded"
    ),
    "forecast_real.healthnotes.fitted": Figure(
        HEALTHNOTES, True, lambda p: _forecast_row(p, forecast_real.FORECAST_FITTED)
    ),
}


def _baseline_figure(name: str, scope: str) -> Figure:
    return Figure(HEALTHNOTES, True, lambda p: _forecast_row(p, f"{name}, {scope}"))


def _birdwatch_figure(name: str) -> Figure:
    return Figure(BIRDWATCH, False, lambda p: _forecast_row(p, f"{name}, every note", True))


# each cheap baseline beside the forecast: on the notes it rated, and on all 40; and on the
# 2021 sample (our scorer's statuses; a factorisation fit first)
FIGURES |= {
    f"forecast_real.healthnotes.{key}.{short}": _baseline_figure(name, scope)
    for key, name in forecast_real.BASELINE_KEYS.items()
    for short, scope in (("same", "same notes"), ("every", "every note"))
}
FIGURES |= {
    f"forecast_real.birdwatch.{key}": _birdwatch_figure(name)
    for key, name in forecast_real.BASELINE_KEYS.items()
}


def marked(text: str) -> list[tuple[str, str]]:
    """(name, text shown, its line breaks as spaces) of every figure marked in a document."""
    return [(m.group("name"), " ".join(m.group("text").split())) for m in MARKED.finditer(text)]


def measured(data: Path, names: set[str]) -> dict[str, str]:
    """Each named figure, measured now (those whose data is absent are left out)."""
    return {
        name: FIGURES[name].render(data / FIGURES[name].data)
        for name in sorted(names)
        if (data / FIGURES[name].data).is_file()
    }


def rewritten(text: str, figures: dict[str, str]) -> str:
    def figure(m: re.Match[str]) -> str:
        new = figures.get(m.group("name"))
        if new is None or new == " ".join(m.group("text").split()):
            return m.group(0)  # as wrapped
        return f"{m.group('open')}{new}{m.group('close')}"

    return MARKED.sub(figure, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--check", action="store_true", help="say which differ; change nothing")
    parser.add_argument("--only-cheap", action="store_true", help="only the figures of seconds")
    args = parser.parse_args(argv)
    unknown = {n for doc in DOCS for n, _ in marked(doc.read_text("utf-8"))} - set(FIGURES)
    if unknown:
        print(f"unknown figures in the docs: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 1
    names = {n for n, f in FIGURES.items() if f.cheap or not args.only_cheap}
    figures = measured(args.data, names)
    stale = 0
    for doc in DOCS:
        text = doc.read_text("utf-8")
        for name, shown in marked(text):
            if name in figures and figures[name] != shown:
                stale += 1
                print(f"{doc.relative_to(ROOT)}: {name}: {shown!r} → {figures[name]!r}")
        if not args.check and (new := rewritten(text, figures)) != text:
            doc.write_text(new, "utf-8")
    missing = names - set(figures)
    if missing:
        print(f"not measured (no data under {args.data}): {', '.join(sorted(missing))}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
