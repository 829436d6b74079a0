"""Does a note answer the post's claim? The `answers-the-claim` draft rule measured where
`bench.rules` cannot: on the real model's own drafts, and on hand-made notes that speak of a
neighbouring fact or a source's standing instead (issue 60). Prints numbers; asserts nothing.
Its cost on people's verdicts is `bench.rules`' (the rule's row, and honest refused).

    python -m bench.claim_answers [--data ../shared/data/evidence_claims]
    python -m bench.claim_answers --draft 8 [--focused] [--record FILE.json]   # asks the model

`--draft N`: N refuted AVeriTeC claims (seeded), each given to the configured model
(`EVONOTE_LLM__*`) as an episode's last write is asked (`agent_messages(..., finishing=True)`):
the claim as the post, its evidence as the pages read; the answer's grammar is a write
(`FinalTurn` with `Write` as its only action), so every call drafts a note — asked to choose,
the 1.5B model abstained on its first two claims, 4 minutes each on the shared server.
`--focused`: the episode's focused write instead (`pipeline.drafting.focused`: the claims' key
words and the page sentences code picks; code cites the sentences the model names), the draft
a weak model's episode ends on.
`--record` keeps each claim's id and the model's answer (never the claim or its evidence: the
set's licence) in tests/fixtures/claim_answers/, which the measurement replays against the
data set; `judged` in that file is a person's reading of each write: "off-claim: …" (a
source's standing, a neighbouring fact) or "answers: …".

`--neighbours`: the same rule on data nobody here wrote (`neighbouring_facts`): each verdict
of people that could be a note (AVeriTeC refuted and misleading, HealthFC refuted and not
enough information) as its claim's note, beside two neighbouring facts on the same topic from
another claim of the set that shares the claim's rarest key words (never the same claim, nor
one sharing over half of its key words): that claim's verdict, and the sentence of its evidence
sharing the most key words with this claim. Each is decided by code with the claim's pages and
the other claim's as the pages read, with and without the rule: the verdicts refused only with
the rule are its cost, the neighbouring facts refused only with it are its catch. The other
claim's sentence may answer this claim too (AVeriTeC holds many COVID remedies): the catch is
a floor.

`--closeness`: a probe, not a rule: of the drafts of `--neighbours` that the rules let through
and that judge nothing (no negation, no judging word), how many fall under each bar of the
sentence embedder's cosine between the claim and the note (all-MiniLM-L6-v2, the memory's
embedder): what a check on closeness would refuse of people's verdicts and catch of
neighbouring facts in the claim's own words, beside the hand-made and the real model's notes.

The measurement: each recorded draft and each hand-made off-claim note
(`tests/fixtures/claim_answers/off_claim_notes.json`, written from the issue's examples; kept
apart from the cost set) decided by code as an episode would, with and without the rule:
published or passed to the model's support check without it, refused with it, is a catch.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from adapters.embeddings.minilm import LocalEmbedder
from bench.configured_model import with_configured_model
from bench.rules import (
    DEFAULT_DATA,
    HONEST_SETS,
    OFF_CLAIM_RECORDED,
    Row,
    context_for,
    could_be_a_note,
    decide,
    drawn_on,
    honest_rows,
    off_claim_hand_made,
    real_model_writes,
)
from pipeline.actions import Write
from pipeline.brief import unanalysed_brief
from pipeline.drafting.answering import claim_subject, judges_something
from pipeline.drafting.focused import sentences_on_the_claims, subject_of
from pipeline.drafting.note import split_sentences
from pipeline.drafting.prompts import FocusedNote, focused_messages
from pipeline.drafting.rules import RuleId
from pipeline.drafting.words import page_sentences, stems
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.prompts import agent_messages, log_line

SET = "averitec_health_dev.jsonl"
WITHOUT = frozenset({RuleId.ANSWERS_THE_CLAIM})


class FinalWrite(BaseModel):
    """An episode's last turn (`FinalTurn`) with the write as its only action."""

    thought: str = Field(max_length=240, description="one short sentence")
    action: Write


def refuted_rows(data: Path, n: int, seed: int = 60) -> list[Row]:
    """A seeded sample of refuted AVeriTeC claims whose verdict could be a note, with pages."""
    rows = [r for r in honest_rows(data / SET, {"refuted"}) if could_be_a_note(r.note)]
    return random.Random(seed).sample(rows, min(n, len(rows)))


def write_messages(row: Row) -> list[Any]:
    """The episode's last write, asked with the row's pages read as the research log."""
    post = Post(text=row.post)
    log = [
        log_line({"read": p["url"], "title": p["title"], "excerpt": p["text"]}) for p in row.pages
    ]
    budget = {"steps_left": 0, "searches_left": 0, "visits_left": 0, "rewrites_left": 0}
    return agent_messages(post, unanalysed_brief(row.post), [], [], log, budget, "", finishing=True)


def focused_request(row: Row) -> tuple[list[Any], int]:
    """The episode's focused write for the row (`pipeline.drafting.focused`): the claims' key
    words and the page sentences code picks; and how many sentences it picked."""
    context = context_for(row)
    sentences = sentences_on_the_claims(context)
    subject = subject_of(context, sentences)
    return focused_messages(subject, [s for _, s in sentences]), len(sentences)


def recording(record: Path) -> dict[str, Any]:
    if not record.is_file():
        return {"answers": [], "judged": {}}
    kept: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    return kept


async def draft(
    model: ChatModel, rows: list[Row], timeout_s: float, record: Path, focused: bool
) -> None:
    """Each row's write (or focused write), added to the recording; a row already drafted
    that way is not asked again."""
    kept = await asyncio.to_thread(recording, record)
    mode = "focused" if focused else "answer"
    done = {a["id"] for a in kept["answers"] if mode in a or a.get("mode") == mode}
    for row in (r for r in rows if r.id not in done):
        try:
            if focused:
                messages, picked = focused_request(row)
                if not picked:
                    continue  # no page sentence on the claims: the episode writes none
                note = await model.structured(messages, FocusedNote, timeout_s=timeout_s)
                value = note.value.model_dump(mode="json")
            else:
                reply = await model.structured(write_messages(row), FinalWrite, timeout_s=timeout_s)
                value = reply.value.model_dump(mode="json")
            answer: dict[str, Any] = {"id": row.id, mode: value}
        except EvoNoteError as e:
            answer = {"id": row.id, "mode": mode, "error": type(e).__name__}
        kept["answers"].append(answer)
        print(json.dumps(answer, ensure_ascii=False), flush=True)
        text = json.dumps(kept, indent=1, ensure_ascii=False) + "\n"
        await asyncio.to_thread(record.write_text, text, "utf-8")


@dataclass(frozen=True)
class Judged:
    id: str
    note: str
    without: str  # code's verdict without the rule
    with_rule: str  # … and with it
    rules: tuple[str, ...]

    @property
    def caught(self) -> bool:
        return self.without != "refused" and self.with_rule == "refused"


def judged(row: Row) -> Judged:
    before, after = decide(row, WITHOUT), decide(row)
    return Judged(row.id, row.note, str(before.verdict), str(after.verdict), tuple(after.rules))


def report(name: str, rows: list[Row]) -> list[str]:
    found = [judged(r) for r in rows]
    without = Counter(str(j.without) for j in found)
    lines = [
        f"{name}: {len(found)} drafts; without the rule {dict(without)}; caught by it "
        f"{sum(j.caught for j in found)} of the {len(found) - without['refused']} not refused"
    ]
    for j in found:
        mark = "CAUGHT" if j.caught else ("refused" if j.with_rule == "refused" else j.with_rule)
        lines.append(f"  [{mark}] {j.id}: {j.note[:110]}")
    return lines


# ---- neighbouring facts from the data sets --------------------------------------------------

LABELS = ("refuted", "misleading", "nei", "supported")


@dataclass(frozen=True)
class Neighbours:
    """A verdict of people as its claim's note, and neighbouring facts on its topic from
    another claim: that claim's verdict, the sentence of its evidence that shares the most of
    this claim's key words (None when none shares one: a fact in the claim's own words), and
    its evidence's first sentence (None when it has no statement: a fact as a page opens)."""

    own: Row
    verdict: Row
    evidence: Row | None
    first: Row | None


def neighbour_of(row: Row, pool: list[Row], subject: dict[str, frozenset[str]]) -> Row | None:
    """The other claim of `pool` whose key words shared with the row's claim are the rarest
    (by inverse document frequency over the pool), never the same claim, one sharing over half
    of its key words, nor one whose verdict shares over half of this verdict's words; its
    verdict speaks of its own claim, not of the data set (`Row.meta`)."""
    count = Counter(s for r in pool for s in subject[r.id])
    mine, note = subject[row.id], stems(row.note)
    best: tuple[float, Row] | None = None
    for other in pool:
        shared = mine & subject[other.id]
        if (
            other.id == row.id
            or other.meta
            or other.post == row.post
            or not shared
            or len(shared) > len(mine) / 2
            or len(note & stems(other.note)) > len(note) / 2
        ):
            continue
        weight = sum(math.log(len(pool) / count[s]) for s in shared)
        if best is None or weight > best[0]:
            best = (weight, other)
    return best[1] if best else None


def as_neighbour(row: Row, other: Row, note: str, kind: str) -> Row:
    """`note` on the row's claim, read beside its pages and the other claim's, citing the pages
    it draws on as a writer would."""
    urls = {p["url"] for p in row.pages}
    pages = row.pages + [p for p in other.pages if p["url"] not in urls]
    return Row(f"{row.id}~{other.id}#{kind}", row.post, pages, note, drawn_on(note, pages))


def evidence_sentences(row: Row, other: Row) -> list[str]:
    """The statements of 40 to 240 characters of the other claim's evidence, in order (pages
    this claim's do not hold)."""
    mine = {p["url"] for p in row.pages}
    return [
        s
        for p in other.pages
        if p["url"] not in mine
        for s in page_sentences(p["text"])
        if 40 <= len(s) <= 240 and s.endswith(".")
    ]


def sharing_most(sentences: list[str], subject: frozenset[str]) -> str | None:
    """The first of the sentences that share the most of the claim's key words; None when
    none shares one."""
    scored = [(len(subject & stems(s)), -i, s) for i, s in enumerate(sentences)]
    best = max(scored, default=None)
    return best[2] if best and best[0] else None


def neighbouring_facts(data: Path) -> dict[str, list[Neighbours]]:
    """Per set, each verdict that could be a note with its two neighbouring facts."""
    sets: dict[str, list[Neighbours]] = {}
    for file, labels in HONEST_SETS.items():
        pool = [r for r in honest_rows(data / file, set(LABELS)) if could_be_a_note(r.note)]
        subject = {r.id: claim_subject(context_for(r)) for r in pool}
        honest = {r.id for r in honest_rows(data / file, labels)}
        found = []
        for row in (r for r in pool if r.id in honest):
            if (other := neighbour_of(row, pool, subject)) is None:
                continue
            sentences = evidence_sentences(row, other)
            sharing = sharing_most(sentences, subject[row.id])
            found.append(
                Neighbours(
                    row,
                    as_neighbour(row, other, other.note, "verdict"),
                    as_neighbour(row, other, sharing, "evidence") if sharing else None,
                    as_neighbour(row, other, sentences[0], "first") if sentences else None,
                )
            )
        sets[file.split("_")[0]] = found
    return sets


def neighbour_report(data: Path) -> list[str]:
    """Per set: people's verdicts refused only with the rule (its cost) and the neighbouring
    facts refused only with it (its catch), of those code would not refuse without it."""
    lines = []
    for name, found in neighbouring_facts(data).items():
        kinds = {
            "people's verdicts (cost)": [n.own for n in found],
            "another claim's verdict (catch)": [n.verdict for n in found],
            "another claim's evidence, its first sentence (catch)": [
                n.first for n in found if n.first
            ],
            "another claim's evidence, in this claim's words (catch)": [
                n.evidence for n in found if n.evidence
            ],
        }
        for kind, rows in kinds.items():
            judged_rows = [judged(r) for r in rows]
            live = [j for j in judged_rows if j.without != "refused"]
            caught = [j for j in live if j.caught]
            share = 100 * len(caught) / max(len(live), 1)
            lines.append(
                f"{name}, {kind}: {len(rows)}; not refused without the rule {len(live)}; "
                f"refused by it {len(caught)} ({share:.1f}%)"
            )
            if kind.endswith("(cost)"):
                lines += [f"  [refused] {j.id}: {j.note[:110]}" for j in caught]
    return lines


BARS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45)


async def closeness_report(data: Path) -> list[str]:
    """Per set and kind, of the drafts the rules let through that judge nothing: how many have
    a cosine between claim and note under each of `BARS`; then each hand-made and recorded
    off-claim note's cosine."""
    embedder = LocalEmbedder()
    passed: dict[tuple[str, str], list[Row]] = {}
    for name, found in (await asyncio.to_thread(neighbouring_facts, data)).items():
        for n in found:
            kinds = {"verdicts": n.own, "verdict": n.verdict, "first": n.first}
            for kind, row in {**kinds, "in its words": n.evidence}.items():
                if (
                    row is not None
                    and decide(row).verdict != "refused"
                    and not judges_something(split_sentences(row.note) or [row.note])
                ):
                    passed.setdefault((name, kind), []).append(row)
    off = off_claim_hand_made() + [r for r, j in real_model_writes(data) if j.startswith("off")]
    rows = [r for kept in passed.values() for r in kept] + off
    vectors = await embedder.embed([t for r in rows for t in (r.post, r.note)])
    cosine = {id(r): float(vectors[2 * i] @ vectors[2 * i + 1]) for i, r in enumerate(rows)}
    lines = ["under the bar " + " ".join(f"{b:.2f}" for b in BARS)]
    for (name, kind), kept in passed.items():
        under = " ".join(str(sum(cosine[id(r)] < b for r in kept)) for b in BARS)
        who = "people's verdicts (cost)" if kind == "verdicts" else f"another claim's {kind}"
        lines.append(f"{name}, {who}: {len(kept)} pass and judge nothing; under: {under}")
    lines += [f"  {cosine[id(r)]:.2f} {r.id}: {r.note[:90]}" for r in off]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--draft", type=int, default=0, help="refuted claims to draft notes on")
    parser.add_argument("--record", type=Path, default=OFF_CLAIM_RECORDED)
    parser.add_argument(
        "--focused", action="store_true", help="draft with the focused write instead"
    )
    parser.add_argument(
        "--neighbours", action="store_true", help="neighbouring facts from the data sets"
    )
    parser.add_argument(
        "--closeness", action="store_true", help="probe: the embedder's claim-note cosine"
    )
    args = parser.parse_args(argv)
    if not (args.data / SET).is_file():
        print(f"no evidence set at {args.data / SET} (see --data)", file=sys.stderr)
        return 2
    if args.neighbours or args.closeness:
        lines = asyncio.run(closeness_report(args.data)) if args.closeness else []
        for line in lines or neighbour_report(args.data):
            print(line)
        return 0
    if args.draft:
        rows = refuted_rows(args.data, args.draft)
        asyncio.run(
            with_configured_model(lambda model, t: draft(model, rows, t, args.record, args.focused))
        )
        return 0
    for line in report("hand-made off-claim notes", off_claim_hand_made()):
        print(line)
    writes = real_model_writes(args.data, args.record)
    for judged_as in ("off-claim", "answers"):
        rows = [r for r, judged in writes if judged.startswith(judged_as)]
        for line in report(f"the real model's writes a person judged {judged_as}", rows):
            print(line)
    unjudged = [r for r, judged in writes if not judged]
    for line in report("the real model's writes not judged yet", unjudged) if unjudged else []:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
