"""The brief's "no note needed", measured with the real model before it may decide: the
recorded answers of Qwen2.5-Coder-1.5B on 20 supported and 20 refuted AVeriTeC health claims
(`python -m bench.needs_note --per-label 20 --record …`, 2026-12-03), replayed. The switch
(`EVONOTE_BUDGET__DECLINE_UNNEEDED`) is on by default only if those answers beat chance."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.needs_note import Claim, declined, run
from pipeline.budget import EvidenceBudget
from pipeline.note_need_gate import beats_chance, fisher_one_sided
from tests.fakes.replay import ReplayedModel

RECORDED = (
    Path(__file__).parents[1]
    / "fixtures"
    / "needs_note"
    / "averitec-health-dev-qwen2.5-coder-1.5b.json"
)


# declined: the supported claims (no note needed) 0 of 20, the refuted ones (a note needed) 2
# of 20, both as "the error is a side detail": one-sided Fisher p = 1.0, the wrong way round
MEASURED = (0, 20, 2, 20)


def replayed_answer(answer: dict[str, str]) -> dict[str, Any]:
    if answer["note_need"].startswith("error:"):  # bench.needs_note: "error: why"
        return {"schema": "BriefsFirstAnswer", "error": answer["note_need"]}
    return {"schema": "BriefsFirstAnswer", "answer": {"note_need": answer["note_need"]}}


async def test_the_real_models_declines_do_not_beat_chance_so_the_switch_is_off() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["answers"]
    # the claims' text stays in the data set (its licence): the ids and labels replay them
    claims = [Claim(a["id"], f"claim {a['id']}", a["label"]) for a in recorded]
    said = await run(ReplayedModel([replayed_answer(a) for a in recorded]), claims, 1.0)
    none, needed = said["none"], said["needed"]
    test = beats_chance(declined(none), sum(none.values()), declined(needed), sum(needed.values()))
    assert (test.declined_none, test.n_none, test.declined_needed, test.n_needed) == MEASURED
    assert EvidenceBudget().decline_unneeded is test.beats


def test_the_bar_at_this_sample() -> None:
    """At 20 claims a label with no refuted claim declined, 5 declines of the supported ones
    beat chance and 4 do not (one-sided, 5%)."""
    assert fisher_one_sided(5, 20, 0, 20) < 0.05 < fisher_one_sided(4, 20, 0, 20)
    assert beats_chance(0, 20, 0, 20).needed_to_beat() == 5
    # the first real-model run (10 + 10, 1 declined of each) was nowhere near
    assert beats_chance(1, 10, 1, 10).p > 0.5
    # declining the claims that need a note more often is worse than chance, never better
    assert not beats_chance(0, 20, 6, 20).beats
