"""Does the brief decline claims that are true and keep those that are false? The claim
analysis alone (one call a claim, no research), on claims a person has judged. Prints
numbers; asserts nothing.

    python -m bench.needs_note [--per-label 10] [--data ../shared/data/evidence_claims]
                               [--set averitec_health_dev.jsonl] [--posts POSTS.jsonl]

From the evidence set: a seeded sample of `supported` claims (true: a post making one needs
no note) and of `refuted` ones (a note is needed), each given to the configured model
(`EVONOTE_LLM__*`) as a post, exactly as an episode's first call asks it. `--posts` takes
your own JSONL of {id, text, label: "needed" | "none"} instead. One JSON line per claim, then
per label: the share declined and why.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.configured_model import with_configured_model
from pipeline.brief import NoteNeed, VerificationBrief
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.prompts import analysis_messages

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "evidence_claims"
# the data set's verdict -> whether a post making the claim needs a note
NEEDS_A_NOTE = {"supported": "none", "refuted": "needed"}


@dataclass(frozen=True)
class Claim:
    id: str
    text: str
    label: str  # "needed" or "none": what a person's verdict says of a note


def claims_of(path: Path, per_label: int, seed: int = 11) -> list[Claim]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    picked: list[Claim] = []
    for verdict, label in NEEDS_A_NOTE.items():
        these = [r for r in rows if r.get("label") == verdict]
        for r in random.Random(seed).sample(these, min(per_label, len(these))):
            picked.append(Claim(str(r["id"]), str(r["claim"]), label))
    return picked


def own_posts(path: Path) -> list[Claim]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [Claim(str(r["id"]), str(r["text"]), str(r["label"])) for r in rows]


async def decide(model: ChatModel, claim: Claim, timeout_s: float) -> NoteNeed | str:
    """The brief's answer, or why there was none."""
    try:
        reply = await model.structured(
            analysis_messages(Post(text=claim.text), []), VerificationBrief, timeout_s=timeout_s
        )
    except EvoNoteError as e:
        return f"error: {e}"
    return reply.value.note_need


async def run(model: ChatModel, claims: list[Claim], timeout_s: float) -> None:
    said: dict[str, Counter[str]] = {"needed": Counter(), "none": Counter()}
    for claim in claims:
        need = await decide(model, claim, timeout_s)
        answer = need.value if isinstance(need, NoteNeed) else need
        said[claim.label][answer] += 1
        print(json.dumps({"id": claim.id, "label": claim.label, "note_need": answer}), flush=True)
    for label, counts in said.items():
        n = sum(counts.values())
        declined = sum(c for a, c in counts.items() if a in set(NoteNeed) - {NoteNeed.NEEDED})
        share = f"{declined / n:.0%}" if n else "-"
        why = ", ".join(f"{a} {c}" for a, c in counts.most_common())
        print(f"a note {label}: {n} claims, declined {declined} ({share}): {why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-label", type=int, default=10, help="claims per verdict")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", default="averitec_health_dev.jsonl", help="file in --data")
    parser.add_argument("--posts", type=Path, help="JSONL of {id, text, label} instead")
    args = parser.parse_args(argv)
    if args.posts is not None:
        claims = own_posts(args.posts)
    elif (args.data / args.set).is_file():
        claims = claims_of(args.data / args.set, args.per_label)
    else:
        print(f"no evidence set at {args.data / args.set} (see --data)", file=sys.stderr)
        return 2
    asyncio.run(with_configured_model(lambda model, timeout_s: run(model, claims, timeout_s)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
