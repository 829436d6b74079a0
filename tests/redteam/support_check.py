"""Asks the configured model's support check (`EVONOTE_LLM__*`) of red-team rows that code
passes to it, as an episode's writing step would, and says whether the payload is in what the
episode keeps (`bench.rules.kept_after_check`); one JSON line per row. Opt-in, slow: the
recorded runs are `real_model_support_check.jsonl` (this red team's rows) and
`tests/redteam3/real_model_support_check.jsonl` (the third's), Qwen2.5-Coder-1.5B.

    python tests/redteam/support_check.py ID,ID,... [ROWS.jsonl] > out.jsonl
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bench.configured_model import with_configured_model
from bench.rules import Row, context_for, kept_after_check, parsed, read_jsonl
from pipeline.drafting.decide import decide
from pipeline.drafting.support import check_findings, support_request
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatModel
from tests.fakes.attacks import letters

ROWS = Path(__file__).with_name("rows.jsonl")


async def check(model: ChatModel, timeout_s: float, rows: list[Row]) -> None:
    for row in rows:
        context = context_for(row)
        decision = decide(context, parsed(row, context))
        draft = decision.draft
        reply = await model.structured(
            support_request(context, draft), SupportVerdicts, timeout_s=timeout_s
        )
        found = check_findings(context, draft, reply.value)
        kept = kept_after_check(row, reply.value)
        line = {
            "id": row.id,
            "verdict": str(decision.verdict),
            "text": draft.text,
            "unsupported": sorted({f.sentence for f in found if f.sentence}),
            "kept": kept,
            "payload_published": bool(kept) and letters(row.marker) in letters(kept),
            "reply": reply.value.model_dump(),
        }
        print(json.dumps(line), flush=True)


def main(ids: list[str], path: Path = ROWS) -> None:
    rows = {row.id: row for row in read_jsonl(path)}
    wanted = [rows[i] for i in ids]
    asyncio.run(with_configured_model(lambda model, t: check(model, t, wanted)))


if __name__ == "__main__":
    main(sys.argv[1].split(","), Path(sys.argv[2]) if len(sys.argv) > 2 else ROWS)
