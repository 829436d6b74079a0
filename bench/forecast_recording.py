"""The persona forecast's answers on real notes, recorded from a real model and replayed.

A recording is JSONL, one persona's answer a line: {note, helpful (the note's real verdict),
persona, answer | error, latency_s}.
Recording appends note by note, so a run stopped anywhere keeps what it got and a second run
continues; replaying rebuilds each note's votes from the answers, with no model.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.forecast.aggregate import BridgingRule, Forecast, PersonaVote, features, persona_vote
from pipeline.forecast.personas import PersonaProfile, PersonaSet
from pipeline.forecast.prompts import RatingForm, rater_messages
from pipeline.ports import ChatModel

RECORDINGS = Path(__file__).with_name("data")


def both_sides(personas: PersonaSet, per_side: int) -> list[PersonaProfile]:
    """The `per_side` largest personas on each side of the main divide (factor < 0, ≥ 0): a
    CPU server affords a few calls a note, and the bridging rule needs both sides."""
    left = sorted((p for p in personas.personas if p.factor < 0), key=lambda p: -p.size)
    right = sorted((p for p in personas.personas if p.factor >= 0), key=lambda p: -p.size)
    return left[:per_side] + right[:per_side]


def recorded(path: Path) -> dict[str, dict[int, dict[str, object]]]:
    """note key → persona id → its recorded line (the last, when a failed call was asked
    again)."""
    out: dict[str, dict[int, dict[str, object]]] = defaultdict(dict)
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out[row["note"]][int(row["persona"])] = row
    return out


def replayed_votes(
    lines: dict[int, dict[str, object]], personas: Sequence[PersonaProfile]
) -> list[PersonaVote]:
    """The votes of the personas whose recorded answer is a valid form."""
    votes = []
    for persona in personas:
        row = lines.get(persona.id)
        if row is not None and "answer" in row:
            votes.append(persona_vote(persona, RatingForm.model_validate(row["answer"])))
    return votes


def forecast_of(votes: list[PersonaVote]) -> Forecast:
    """The forecast the panel would make of these votes (the default bridging rule)."""
    f = features(votes)
    return Forecast(
        verdict=BridgingRule().decide(f),
        method="bridging rule",
        features=f,
        top_reasons=[],
        votes=votes,
    )


def net_by_verdict(path: Path) -> tuple[list[float], list[float]]:
    """Net helpful of each recorded note X rated Helpful, and of each it rated Not Helpful
    (notes of the recording's HealthNotes set only: theirs are X's verdicts)."""
    personas = PersonaSet.load().personas
    helpful: list[float] = []
    not_helpful: list[float] = []
    for key, lines in sorted(recorded(path).items()):
        votes = replayed_votes(lines, personas)
        verdicts = {row.get("helpful") for row in lines.values()}
        if not key.startswith("healthnotes:") or not votes or len(verdicts) != 1:
            continue
        (helpful if verdicts.pop() is True else not_helpful).append(
            forecast_of(votes).net_helpful()
        )
    return helpful, not_helpful


async def record(
    model: ChatModel,
    notes: Sequence[tuple[str, str, str, bool]],
    personas: Sequence[PersonaProfile],
    path: Path,
    *,
    deadline_s: float,
    timeout_s: float,
    concurrency: int,
) -> int:
    """Rate each (key, post, note, helpful) with every persona whose answer is not yet recorded
    (a failed call is asked again), until `deadline_s` seconds have passed; returns the notes
    recorded now."""
    done = recorded(path)
    gate = asyncio.Semaphore(concurrency)
    started = time.monotonic()

    async def rate(
        key: str, post: str, note: str, helpful: bool, persona: PersonaProfile
    ) -> dict[str, object]:
        async with gate:
            began = time.monotonic()
            row: dict[str, object] = {"note": key, "helpful": helpful, "persona": persona.id}
            try:
                reply = await model.structured(
                    rater_messages(persona, post, note), RatingForm, timeout_s=timeout_s
                )
                # without its rationale: the model quotes the post and the note there, data
                # the repository may not copy (../shared/data/README.md); no figure uses it
                row["answer"] = reply.value.model_dump(mode="json", exclude={"rationale"})
            except (ModelTimeout, ModelOutputInvalid) as e:  # a server down stops the run
                row["error"] = type(e).__name__
            row["latency_s"] = round(time.monotonic() - began, 2)
            return row

    count = 0
    for key, post, note, helpful in notes:
        if time.monotonic() - started > deadline_s:
            break
        answered = done.get(key, {})
        missing = [p for p in personas if "answer" not in answered.get(p.id, {})]
        if not missing:
            continue
        rows = await asyncio.gather(*(rate(key, post, note, helpful, p) for p in missing))
        with path.open("a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r) + "\n" for r in rows)
        count += 1
        answers = [r["answer"] for r in rows if "answer" in r]
        verdicts = [str(a["helpfulness"]) for a in answers if isinstance(a, dict)]
        print(f"{key}: {', '.join(verdicts)} ({len(rows) - len(answers)} failed)", flush=True)
    return count
