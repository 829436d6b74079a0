"""Can a model tell, shown only a claim and a note, whether the note answers the claim? A probe
of the blind check issue 60 offers beside code's `answers-the-claim` rule, on the cases code
misses: the hand-made off-claim notes, each beside its page's on-claim sentence, and the real
model's recorded drafts. Prints each answer; asserts nothing; builds nothing into an episode.

    python -m bench.blind_answer_probe [--data ../shared/data/evidence_claims] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from bench.configured_model import with_configured_model
from bench.rules import DEFAULT_DATA, off_claim_hand_made, real_model_writes
from pipeline.drafting.prompts import ClaimAnswered, answers_messages
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel


def cases(data: Path) -> list[dict[str, str]]:
    found = []
    for row in off_claim_hand_made():
        found.append({"id": row.id, "expect": "off", "claim": row.post, "note": row.note})
        on_claim = row.pages[0]["text"].split(". ", 1)[1]
        found.append({"id": f"{row.id}+on", "expect": "on", "claim": row.post, "note": on_claim})
    for row, judged in real_model_writes(data):
        expect = "off" if judged.startswith("off-claim") else "on" if judged else "?"
        found.append({"id": row.id, "expect": expect, "claim": row.post, "note": row.note})
    return found


async def probe(model: ChatModel, found: list[dict[str, str]], t: float, out: Path) -> None:
    answers: list[dict[str, Any]] = []
    for case in found:
        try:
            reply = await model.structured(
                answers_messages(case["claim"], case["note"]), ClaimAnswered, timeout_s=t
            )
            said: Any = reply.value.answers_the_claim
            why = reply.value.why
        except EvoNoteError as e:
            said, why = None, type(e).__name__
        answers.append({"id": case["id"], "expect": case["expect"], "said": said, "why": why})
        print(json.dumps(answers[-1], ensure_ascii=False), flush=True)
        text = json.dumps({"answers": answers}, indent=1, ensure_ascii=False) + "\n"
        await asyncio.to_thread(out.write_text, text, "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=Path("blind-answer-probe.json"))
    args = parser.parse_args(argv)
    found = cases(args.data)
    asyncio.run(with_configured_model(lambda model, t: probe(model, found, t, args.out)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
