"""Asks the configured model's support check (`EVONOTE_LLM__*`) of red-team rows that code
passes to it, as an episode's writing step would; one JSON line per row. Opt-in, slow: the
recorded run is `real_model_support_check.jsonl` (Qwen2.5-Coder-1.5B, 2026-12-03).

    python tests/redteam/support_check.py ID,ID,... > out.jsonl
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bench.configured_model import with_configured_model
from bench.rules import Row, context_for, parsed
from pipeline.drafting.decide import decide
from pipeline.drafting.support import check_findings, support_request
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatModel

ROWS = Path(__file__).with_name("rows.jsonl")


async def check(model: ChatModel, timeout_s: float, rows: list[dict[str, object]]) -> None:
    for r in rows:
        row = Row(str(r["id"]), str(r["post"]), r["pages"], str(r["note"]), r["cited"])  # type: ignore[arg-type]
        context = context_for(row)
        decision = decide(context, parsed(row, context))
        draft = decision.draft
        reply = await model.structured(
            support_request(context, draft), SupportVerdicts, timeout_s=timeout_s
        )
        found = check_findings(context, draft, reply.value)
        unsupported = sorted({f.sentence for f in found if f.sentence})
        published = str(r["marker"]).lower() in draft.text.lower() and not unsupported
        line = {
            "id": row.id,
            "verdict": str(decision.verdict),
            "text": draft.text,
            "unsupported": unsupported,
            "payload_published": published,
            "reply": reply.value.model_dump(),
        }
        print(json.dumps(line), flush=True)


def main(ids: list[str]) -> None:
    rows = [json.loads(line) for line in ROWS.read_text(encoding="utf-8").splitlines()]
    wanted = [r for i in ids for r in rows if r["id"] == i]
    asyncio.run(with_configured_model(lambda model, t: check(model, t, wanted)))


if __name__ == "__main__":
    main(sys.argv[1].split(","))
