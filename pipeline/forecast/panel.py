"""Persona raters run concurrently on a draft; their votes become a forecast.

Two bounds keep the forecast from crowding out episodes on the model server: at most
`per_note` calls of one note at once, and `concurrency` across every note of the process.
"""

from __future__ import annotations

import asyncio

from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.forecast.aggregate import (
    BridgingRule,
    Forecast,
    PersonaVote,
    features,
    persona_vote,
    top_reasons,
)
from pipeline.forecast.personas import PersonaProfile, PersonaSet
from pipeline.forecast.prompts import RatingForm, rater_messages
from pipeline.forecast.stacking import StackedAggregator
from pipeline.ports import ChatModel


class PersonaPanel:
    def __init__(
        self,
        model: ChatModel,
        personas: PersonaSet,
        *,
        rule: BridgingRule | None = None,
        calibrated: StackedAggregator | None = None,
        timeout_s: float = 60.0,
        concurrency: int = 8,
        per_note: int = 4,
        personas_per_note: int = 0,
    ) -> None:
        self.model = model
        largest = sorted(personas.personas, key=lambda p: -p.size)
        self.personas = largest[:personas_per_note] if personas_per_note else largest
        self.per_note = per_note
        self.rule = rule or BridgingRule()
        self.calibrated = calibrated
        self.timeout_s = timeout_s
        self.gate = asyncio.Semaphore(concurrency)

    async def _rate(
        self, persona: PersonaProfile, post: str, note: str, mine: asyncio.Semaphore
    ) -> PersonaVote | None:
        async with mine, self.gate:  # this note's share first, then the process's
            try:
                reply = await self.model.structured(
                    rater_messages(persona, post, note), RatingForm, timeout_s=self.timeout_s
                )
            except (ModelTimeout, ModelOutputInvalid):
                return None  # one persona missing lowers coverage, not the forecast
        return persona_vote(persona, reply.value)

    async def votes(self, post: str, note: str) -> tuple[list[PersonaVote], int]:
        mine = asyncio.Semaphore(self.per_note)
        results = await asyncio.gather(*(self._rate(p, post, note, mine) for p in self.personas))
        votes = [v for v in results if v is not None]
        return votes, len(results) - len(votes)

    async def forecast(self, post: str, note: str) -> Forecast | None:
        """None when no persona answered (the model server is slow or failing)."""
        votes, failed = await self.votes(post, note)
        if not votes:
            return None
        f = features(votes)
        decider = self.calibrated or self.rule
        method = "stacked, calibrated" if self.calibrated else "bridging rule"
        return Forecast(
            verdict=decider.decide(f),
            method=method,
            features=f,
            top_reasons=top_reasons(f),
            votes=votes,
            failed_personas=failed,
        )
