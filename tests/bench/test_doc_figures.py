"""The docs' figures are the benchmarks' own: a cheap benchmark's output and the figure the
docs quote from it must agree (issue 58: `bench.text_policy` refused 8 of 40 human notes, the
docs said 1 of 40). `python -m bench.doc_figures` rewrites them."""

from __future__ import annotations

import pytest

from bench.doc_figures import DOCS, FIGURES, marked, measured, rewritten
from tests.conftest import SHARED_DATA


def test_every_marked_figure_is_known_and_the_cheap_ones_are_quoted() -> None:
    quoted = {name for doc in DOCS for name, _ in marked(doc.read_text("utf-8"))}
    assert quoted <= set(FIGURES), quoted - set(FIGURES)
    assert {n for n, f in FIGURES.items() if f.cheap} <= quoted


def test_the_docs_quote_what_the_cheap_benchmarks_measure_now() -> None:
    cheap = {n for n, f in FIGURES.items() if f.cheap}
    if any(not (SHARED_DATA / FIGURES[n].data).is_file() for n in cheap):
        pytest.skip(f"the benchmarks' data is not under {SHARED_DATA}")
    now = measured(SHARED_DATA, cheap)
    stale = [
        f"{doc.name}: {name}: docs {shown!r}, measured {now[name]!r}"
        for doc in DOCS
        for name, shown in marked(doc.read_text("utf-8"))
        if name in now and now[name] != shown
    ]
    assert not stale, "run `python -m bench.doc_figures`:\n" + "\n".join(stale)


def test_a_rewrite_changes_only_the_figure_and_keeps_a_wrapped_one_that_agrees() -> None:
    text = (
        "refused <!-- figure\n  a -->1 of 40<!-- /figure --> and <!-- figure b -->2\n  of 3"
        "<!-- /figure -->."
    )
    assert rewritten(text, {"a": "8 of 40", "b": "2 of 3"}) == (
        "refused <!-- figure\n  a -->8 of 40<!-- /figure --> and <!-- figure b -->2\n  of 3"
        "<!-- /figure -->."
    )
    assert marked(text) == [("a", "1 of 40"), ("b", "2 of 3")]
