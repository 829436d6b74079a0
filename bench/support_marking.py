"""The model's support check asked of the drafts code no longer refuses for their ungrounded
terms, with and without those terms marked in the question. Prints numbers; asserts nothing.

    python -m bench.support_marking [--honest 12] [--data ../shared/data/evidence_claims]

The drafts: every recorded real-model draft that only `ungrounded-terms` refused as a whole
(`bench.rules`), and a seeded sample of the honest verdicts it refused alone. Each is checked
twice by the configured model server (`EVONOTE_LLM__*`: the real model of ../shared/realmodel
on this CPU), as an episode's writing step asks it: `support.support_request` with the
claims' words no source uses marked, and without. One line per check, then the counts: drafts
refused whole, sentences passed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path

from bench.configured_model import with_configured_model
from bench.rules import (
    DEFAULT_DATA,
    Row,
    bad_real_model_rows,
    context_for,
    corpora,
    decide,
    parsed,
    rules_without,
)
from pipeline.drafting.decide import decide as decide_draft
from pipeline.drafting.rules import RuleId
from pipeline.drafting.support import check_findings, support_request
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatModel

WITHOUT_THE_RULE = frozenset({RuleId.UNGROUNDED})


def refused_by_it_alone(row: Row) -> bool:
    return decide(row).verdict == "refused" and decide(row, WITHOUT_THE_RULE).verdict != "refused"


def drafts(data: Path, honest: int, seed: int = 7) -> list[tuple[str, Row]]:
    bad = [("bad", r) for r in bad_real_model_rows() if refused_by_it_alone(r)]
    rows = [r for _, is_honest, rs in corpora(data) if is_honest for r in rs]
    refused = [r for r in rows if refused_by_it_alone(r)]
    sample = random.Random(seed).sample(refused, min(honest, len(refused)))
    return bad + [("honest", r) for r in sample]


async def check(
    model: ChatModel, row: Row, marked: bool, timeout_s: float
) -> tuple[list[int], int]:
    """The sentences (1-based) the model's check finds unsupported, of how many."""
    context = context_for(row)
    draft = decide_draft(context, parsed(row, context), rules_without(WITHOUT_THE_RULE)).draft
    messages = support_request(context, draft, mark_unused=marked)
    reply = await model.structured(messages, SupportVerdicts, timeout_s=timeout_s)
    found = check_findings(context, draft, reply.value)
    return sorted({f.sentence for f in found if f.sentence}), len(draft.sentences)


async def run(model: ChatModel, rows: list[tuple[str, Row]], timeout_s: float) -> None:
    whole: dict[tuple[str, bool], int] = {}
    for kind, row in rows:
        for marked in (False, True):
            unsupported, sentences = await check(model, row, marked, timeout_s)
            whole[kind, marked] = whole.get((kind, marked), 0) + (len(unsupported) >= sentences)
            line = {"kind": kind, "id": row.id, "marked": marked, "unsupported": unsupported}
            print(json.dumps(line), flush=True)
    for kind in ("bad", "honest"):
        n = sum(k == kind for k, _ in rows)
        print(
            f"{kind}: {n} drafts, refused whole: unmarked {whole.get((kind, False), 0)}, "
            f"marked {whole.get((kind, True), 0)}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=12, help="honest verdicts to sample")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no cost corpus at {args.data} (see --data)", file=sys.stderr)
        return 2
    asyncio.run(
        with_configured_model(
            lambda model, timeout_s: run(model, drafts(args.data, args.honest), timeout_s)
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
