"""The hierarchical helpfulness judge and the pairwise utility judge."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from pipeline.drafting.note import NOTE_CHAR_LIMIT, find_urls, note_length
from pipeline.evaluation.prompts import (
    CORRECTNESS_SYSTEM,
    HELPFULNESS_SYSTEM,
    RELEVANCE_SYSTEM,
    GateVerdict,
    PairwiseVerdict,
    gate_messages,
    pairwise_messages,
)
from pipeline.ports import ChatModel

Result = Literal["win", "tie", "loss"]
DIMENSIONS = ("understandability", "meaningfulness", "usability", "trustworthiness")
SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}


@dataclass
class HierarchicalVerdict:
    helpful: bool
    failed_gate: int | None  # 1 length, 2 evidence relevance, 3 correctness, 4 helpfulness
    reasons: list[str] = field(default_factory=list)


class HierarchicalJudge:
    """A note is helpful only if it passes every gate, in order; the first failure stops."""

    GATES = ((2, RELEVANCE_SYSTEM), (3, CORRECTNESS_SYSTEM), (4, HELPFULNESS_SYSTEM))

    def __init__(self, model: ChatModel, timeout_s: float = 60.0) -> None:
        self.model = model
        self.timeout_s = timeout_s

    async def judge(
        self, post: str, note: str, evidence: list[dict[str, Any]]
    ) -> HierarchicalVerdict:
        if note_length(note) > NOTE_CHAR_LIMIT or not find_urls(note):
            return HierarchicalVerdict(False, 1, [f"length {note_length(note)} or no URL"])
        reasons = []
        for gate, system in self.GATES:
            reply = await self.model.structured(
                gate_messages(system, post, note, evidence), GateVerdict, timeout_s=self.timeout_s
            )
            reasons.append(reply.value.reason)
            if not reply.value.passed:
                return HierarchicalVerdict(False, gate, reasons)
        return HierarchicalVerdict(True, None, reasons)


@dataclass
class PairwiseResult:
    overall: Result
    dimensions: dict[str, Result]

    @property
    def score(self) -> float:
        return SCORE[self.overall]


class PairwiseJudge:
    """Ours against a reference note, shown in random order (position bias), mapped back."""

    def __init__(
        self, model: ChatModel, rng: random.Random | None = None, timeout_s: float = 60.0
    ) -> None:
        self.model = model
        self.rng = rng or random.Random(0)
        self.timeout_s = timeout_s

    async def compare(self, post: str, ours: str, reference: str) -> PairwiseResult:
        ours_first = self.rng.random() < 0.5
        a, b = (ours, reference) if ours_first else (reference, ours)
        verdict: PairwiseVerdict = (
            await self.model.structured(
                pairwise_messages(post, a, b), PairwiseVerdict, timeout_s=self.timeout_s
            )
        ).value

        def ours_result(outcome: str) -> Result:
            if outcome == "tie":
                return "tie"
            return "win" if (outcome == "A") == ours_first else "loss"

        return PairwiseResult(
            ours_result(verdict.overall), {d: ours_result(getattr(verdict, d)) for d in DIMENSIONS}
        )
