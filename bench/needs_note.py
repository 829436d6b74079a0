"""Does the brief decline claims that are true and keep those that are false? The claim
analysis's first answer alone (one short call a claim, no research: `BriefsFirstAnswer`), on
claims a person has judged. Prints numbers; asserts nothing.

    python -m bench.needs_note [--per-label 20] [--data ../shared/data/evidence_claims]
                               [--set averitec_health_dev.jsonl] [--posts POSTS.jsonl]
                               [--record FILE.json]

From the evidence set: a seeded sample of `supported` claims (true: a post making one needs
no note) and of `refuted` ones (a note is needed), each given to the configured model
(`EVONOTE_LLM__*`) as a post, exactly as an episode's first call asks it. `--posts` takes
your own JSONL of {id, text, label: "needed" | "none"} instead. One JSON line per claim, then
per label: the share declined and why, and whether the supported claims are declined more
often than the refused ones beyond chance (`pipeline.note_need_gate`). `--record` keeps each
claim's id, label and answer (never the claim: the set's licence) for a fake to replay
(tests/fixtures/needs_note/).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

from bench.configured_model import with_configured_model
from pipeline.brief import NoteNeed, VerificationBrief
from pipeline.errors import EvoNoteError
from pipeline.note_need_gate import beats_chance
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
    """A seeded sample of each verdict, taken in turns (one of each, then the next): a run
    stopped early still compares like numbers of each."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    samples = []
    for verdict, label in NEEDS_A_NOTE.items():
        these = [r for r in rows if r.get("label") == verdict]
        picked = random.Random(seed).sample(these, min(per_label, len(these)))
        samples.append([Claim(str(r["id"]), str(r["claim"]), label) for r in picked])
    return [c for turn in itertools.zip_longest(*samples) for c in turn if c is not None]


def own_posts(path: Path) -> list[Claim]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [Claim(str(r["id"]), str(r["text"]), str(r["label"])) for r in rows]


class BriefsFirstAnswer(BaseModel):
    """The brief's first field alone. The prompt is the episode's own (`analysis_messages`) and
    the schema reaches the server only as its grammar, which asks `note_need` first either way
    (`VerificationBrief` requires it first): the same answer, drawn the same way, without the
    ~300 tokens of the brief after it (a whole brief took 2-4 minutes on the shared CPU
    server, 2026-12-03)."""

    note_need: NoteNeed = Field(description=VerificationBrief.model_fields["note_need"].description)


async def decide(model: ChatModel, claim: Claim, timeout_s: float) -> NoteNeed | str:
    """The brief's answer, or why there was none."""
    try:
        reply = await model.structured(
            analysis_messages(Post(text=claim.text), []), BriefsFirstAnswer, timeout_s=timeout_s
        )
    except EvoNoteError as e:
        return f"error: {e}"
    return reply.value.note_need


async def run(
    model: ChatModel, claims: list[Claim], timeout_s: float, record: Path | None = None
) -> dict[str, Counter[str]]:
    """Each claim's answer, one JSON line each, then the shares declined and the test against
    chance; the answers by label."""
    said: dict[str, Counter[str]] = {"needed": Counter(), "none": Counter()}
    # a stopped run goes on where it stopped: the answers recorded are not asked again
    kept = {a["id"]: a for a in recorded(record)}
    for claim in claims:
        if claim.id in kept:
            answer = kept[claim.id]["note_need"]
        else:
            need = await decide(model, claim, timeout_s)
            answer = need.value if isinstance(need, NoteNeed) else need
            kept[claim.id] = {"id": claim.id, "label": claim.label, "note_need": answer}
        said[claim.label][answer] += 1
        print(json.dumps(kept[claim.id]), flush=True)
        if record is not None:  # after each claim: an interrupted run keeps what it asked
            text = json.dumps({"answers": list(kept.values())}, indent=1) + "\n"
            await asyncio.to_thread(record.write_text, text, "utf-8")
    for line in report(said):
        print(line)
    return said


def recorded(record: Path | None) -> list[dict[str, str]]:
    if record is None or not record.is_file():
        return []
    answers: list[dict[str, str]] = json.loads(record.read_text(encoding="utf-8"))["answers"]
    return answers


def declined(counts: Counter[str]) -> int:
    """The answers that decline a note (an error is no decline)."""
    return sum(c for a, c in counts.items() if a in set(NoteNeed) - {NoteNeed.NEEDED})


def report(said: dict[str, Counter[str]]) -> list[str]:
    lines = []
    for label, counts in said.items():
        n = sum(counts.values())
        share = f"{declined(counts) / n:.0%}" if n else "-"
        why = ", ".join(f"{a} {c}" for a, c in counts.most_common())
        lines.append(f"a note {label}: {n} claims, declined {declined(counts)} ({share}): {why}")
    none, needed = said["none"], said["needed"]
    test = beats_chance(declined(none), sum(none.values()), declined(needed), sum(needed.values()))
    lines.append(test.line())
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-label", type=int, default=20, help="claims per verdict")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--set", default="averitec_health_dev.jsonl", help="file in --data")
    parser.add_argument("--posts", type=Path, help="JSONL of {id, text, label} instead")
    parser.add_argument("--record", type=Path, help="keep each claim's answer in this file")
    args = parser.parse_args(argv)
    if args.posts is not None:
        claims = own_posts(args.posts)
    elif (args.data / args.set).is_file():
        claims = claims_of(args.data / args.set, args.per_label)
    else:
        print(f"no evidence set at {args.data / args.set} (see --data)", file=sys.stderr)
        return 2
    asyncio.run(
        with_configured_model(lambda model, timeout_s: run(model, claims, timeout_s, args.record))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
