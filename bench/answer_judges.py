"""Who could tell a note that answers the post's claim from a neighbouring fact? Three judges
on the same cases, the drafts code lets through today (issue 60): code's own reading (did the
`answers-the-claim` rule refuse it), the sentence embedder's closeness of claim and note
(all-MiniLM-L6-v2, the memory's embedder), and the model server's yes-or-no answer, as the
log-odds of "yes" over "no" on its first token (so a model biased to one word still ranks).
Prints each judge's AUC and, for a bar that refuses no people's verdict, what it catches; then
where each case named in the issue falls. Asserts nothing.

    python -m bench.answer_judges                  # replays the recorded model answers
    python -m bench.answer_judges --ask            # asks the configured model (EVONOTE_LLM__*)

The cases, drawn from data nobody here wrote (`bench.claim_answers.neighbouring_facts`), each
one code does not refuse: people's verdicts (an answer) and neighbouring facts on the same
topic from another claim of the set (its verdict, or its evidence's sentence in this claim's
words: not an answer); with the real model's recorded writes a person judged, and the hand-made
off-claim notes. The recording keeps ids and log-odds only (the data sets' licences).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from adapters.embeddings.minilm import LocalEmbedder
from bench.claim_answers import judged, neighbouring_facts
from bench.rules import DEFAULT_DATA, OFF_CLAIM, off_claim_hand_made, real_model_writes
from bot.app import make_llm_client
from bot.settings import Settings

RECORDED = OFF_CLAIM / "answer-judge-qwen2.5-coder-1.5b.json"

# how many of each kind the model is asked: ~3 s a call on this CPU's 1.5B model
DRAWN = {("averitec", "own"): 20, ("healthfc", "own"): 10, ("averitec", "words"): 15}
DRAWN |= {("healthfc", "words"): 10, ("averitec", "verdict"): 5}

JUDGE_SYSTEM = """You judge whether a note answers a claim. A note answers the claim only if it \
says the claim is true or false, or corrects or confirms what the claim says (its numbers, its \
cause and effect, what happened). A note that states some other fact on the same topic, or \
praises a source, does not answer it. Reply with one word: yes or no."""


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # "own", "words", "verdict", "real", "hand"
    answers: bool
    claim: str
    note: str


def cases(data: Path, seed: int = 60) -> list[Case]:
    """The drawn cases code lets through, then the recorded and hand-made ones."""
    passed: dict[tuple[str, str], list[Case]] = {}
    for name, found in neighbouring_facts(data).items():
        for n in found:
            for kind, row in (("own", n.own), ("verdict", n.verdict), ("words", n.evidence)):
                if row is not None and judged(row).with_rule != "refused":
                    case = Case(row.id, kind, kind == "own", row.post, row.note)
                    passed.setdefault((name, kind), []).append(case)
    rng = random.Random(seed)
    drawn = [c for key, n in DRAWN.items() for c in rng.sample(passed.get(key, []), n)]
    for row, said in real_model_writes(data):
        if said and judged(row).with_rule != "refused":
            drawn.append(Case(row.id, "real", said.startswith("answers"), row.post, row.note))
    for row in off_claim_hand_made():
        if judged(row).with_rule != "refused":
            drawn.append(Case(row.id, "hand", False, row.post, row.note))
    return drawn


async def ask(cases_: list[Case], record: Path) -> None:
    """Each case's log-odds of "yes" over "no", recorded as it comes."""
    settings = Settings()
    client = make_llm_client(settings)
    kept: dict[str, float] = {}
    try:
        for case in cases_:
            reply = await client.chat.completions.create(
                model=settings.llm.writer_model or "",
                messages=[
                    {"role": "system", "content": JUDGE_SYSTEM},
                    {
                        "role": "user",
                        "content": f"Claim: {case.claim}\n\nNote: {case.note}\n\n"
                        "Does the note answer the claim?",
                    },
                ],
                max_tokens=1,
                temperature=0,
                logprobs=True,
                top_logprobs=10,
                timeout=settings.llm.call_timeout_s,
            )
            content = reply.choices[0].logprobs
            top = content.content[0].top_logprobs if content and content.content else []
            said: dict[str, float] = {}
            for t in top:
                word = t.token.strip().lower()
                said[word] = said.get(word, 0.0) + math.exp(t.logprob)
            kept[case.id] = math.log(said.get("yes", 1e-6)) - math.log(said.get("no", 1e-6))
            print(f"{kept[case.id]:+.2f} {case.kind} {case.id}", flush=True)
    finally:
        await client.close()
    about = "log-odds of yes over no, first token, bench.answer_judges JUDGE_SYSTEM"
    text = json.dumps({"about": about, "model": settings.llm.writer_model, "log_odds": kept})
    await asyncio.to_thread(record.write_text, text + "\n", "utf-8")


def auc(scores: list[tuple[float, bool]]) -> float:
    """The chance that an answer scores above a neighbouring fact (ties count half)."""
    on = [s for s, a in scores if a]
    off = [s for s, a in scores if not a]
    if not on or not off:
        return float("nan")
    wins = sum((a > b) + 0.5 * (a == b) for a in on for b in off)
    return wins / (len(on) * len(off))


def zero_cost_catch(scores: list[tuple[float, bool]]) -> tuple[int, int]:
    """Refusing what scores under every answer's score: the neighbouring facts caught, of all."""
    lowest = min((s for s, a in scores if a), default=math.inf)
    off = [s for s, a in scores if not a]
    return sum(s < lowest for s in off), len(off)


def recorded_log_odds(record: Path) -> dict[str, float]:
    if not record.is_file():
        return {}
    kept: dict[str, float] = json.loads(record.read_text(encoding="utf-8"))["log_odds"]
    return kept


async def report(data: Path, record: Path) -> list[str]:
    found = await asyncio.to_thread(cases, data, 60)
    recorded = await asyncio.to_thread(recorded_log_odds, record)
    vectors = await LocalEmbedder().embed([t for c in found for t in (c.claim, c.note)])
    judges = {
        "code (answers-the-claim)": {c.id: 0.0 for c in found},  # every case passes code
        "closeness (embedder cosine)": {
            c.id: float(vectors[2 * i] @ vectors[2 * i + 1]) for i, c in enumerate(found)
        },
        "model (log-odds yes/no)": recorded,
    }
    lines = [
        f"{len(found)} cases code lets through: "
        + ", ".join(
            f"{k} {sum(c.kind == k for c in found)}"
            for k in ("own", "words", "verdict", "real", "hand")
        )
    ]
    for name, score in judges.items():
        scored = [(score[c.id], c.answers) for c in found if c.id in score]
        caught, of = zero_cost_catch(scored)
        lines.append(
            f"{name}: AUC {auc(scored):.3f} on {len(scored)}; a bar refusing no answer "
            f"catches {caught} of {of} off-claim notes"
        )
    lines.append("each off-claim note a person named (closeness, model):")
    for c in found:
        if c.kind in ("real", "hand") and not c.answers:
            model = recorded.get(c.id)
            shown = f"{model:+.2f}" if model is not None else "  -  "
            cosine = judges["closeness (embedder cosine)"][c.id]
            lines.append(f"  {cosine:.2f} {shown} {c.id}: {c.note[:70]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--record", type=Path, default=RECORDED)
    parser.add_argument("--ask", action="store_true", help="ask the configured model")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data set at {args.data}", file=sys.stderr)
        return 2
    if args.ask:
        asyncio.run(ask(cases(args.data), args.record))
    print("\n".join(asyncio.run(report(args.data, args.record))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
