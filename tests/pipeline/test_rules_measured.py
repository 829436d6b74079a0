"""Each rule's measured cost is generated, never typed: the code's values (`Rule.measured`,
read from `pipeline/drafting/measured.json`), the table in docs/benchmarks.md and a fresh run
of `bench.rules` on the cost corpus must agree (`python -m bench.rules --write` makes them)."""

from __future__ import annotations

import pytest

from bench import rules as bench
from pipeline.drafting.measured import Measured, measurement
from pipeline.drafting.rules import RULES, RuleId
from tests.conftest import SHARED_DATA


def test_every_rule_reads_its_figures_from_the_measurement() -> None:
    stored = measurement()
    assert set(stored.rules) <= {r.value for r in RuleId}
    for rule in RULES:
        assert rule.measured == stored.rules.get(rule.id.value, Measured())
    # the costliest rules have figures: an empty file would pass the line above
    assert RULES[1].measured.bad_caught > 0  # unread-tokens


def test_the_docs_hold_the_measurement() -> None:
    docs = bench.DOCS.read_text(encoding="utf-8")
    assert bench.docs_block(docs) == measurement().report(), (
        "docs/benchmarks.md disagrees with pipeline/drafting/measured.json: run "
        "`python -m bench.rules --write`"
    )


def test_the_docs_block_is_replaced_whole() -> None:
    docs = f"before\n{bench.BEGIN}\nold table\n{bench.END}\nafter\n"
    written = bench.docs_with("new table\n", docs)
    assert written == f"before\n{bench.BEGIN}\nnew table\n{bench.END}\nafter\n"
    assert bench.docs_block(written) == "new table\n"


@pytest.mark.skipif(
    not (SHARED_DATA / "evidence_claims").is_dir(), reason="needs ../shared/data/evidence_claims"
)
def test_the_benchmark_gives_the_stored_figures() -> None:
    data = SHARED_DATA / "evidence_claims"
    fresh = bench.measurement(bench.corpora(data), data)
    stored = measurement()
    assert (fresh.sets, fresh.rules, fresh.summary) == (
        stored.sets,
        stored.rules,
        stored.summary,
    ), "the rules changed what they decide: run `python -m bench.rules --write` and say why"
