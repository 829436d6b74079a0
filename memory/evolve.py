"""The evolve job: judge finished episodes in post-time order, distil lessons, apply votes."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from memory.distil import Distiller
from memory.experience import ExperienceMemory
from memory.judge import SocialUtilityJudge
from memory.ports import EpisodeFeed
from pipeline.errors import ModelOutputInvalid, ModelTimeout, ModelUnavailable
from pipeline.ports import MemoryMode

log = logging.getLogger(__name__)

ACTOR = "evolver"


@dataclass
class EvolveReport:
    judged: int = 0
    added: int = 0
    reinforced: int = 0
    votes_applied: int = 0
    retired: int = 0
    refused: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"judged {self.judged}, added {self.added}, reinforced {self.reinforced}, "
            f"refused {len(self.refused)}, votes applied {self.votes_applied}, "
            f"retired {self.retired}, failed {len(self.failed)}"
        )


class Evolver:
    def __init__(
        self,
        feed: EpisodeFeed,
        memory: ExperienceMemory,
        judge: SocialUtilityJudge,
        distiller: Distiller,
        *,
        mode: MemoryMode = MemoryMode.EVOLVING,
        batch: int = 4,
        merge: bool = True,
    ) -> None:
        self.feed = feed
        self.memory = memory
        self.judge = judge
        self.distiller = distiller
        self.mode = mode
        self.batch = batch
        self.merge = merge

    async def run_once(self) -> EvolveReport:
        report = EvolveReport()
        if self.mode == MemoryMode.OFF:
            return report
        for episode in await self.feed.claim_unjudged(self.batch):
            try:
                verdict = await self.judge.judge(episode)
                await self.feed.save_judgement(episode.id, verdict.utility_mode, verdict.feedback)
                report.judged += 1
                if self.mode != MemoryMode.EVOLVING:
                    continue  # frozen: retrieve, never add
                items, refused = await self.distiller.distil(episode, verdict)
            except (ModelUnavailable, ModelTimeout, ModelOutputInvalid) as e:
                # Unjudged again, so a later run retries it; lessons are never half-written.
                await self.feed.release(episode.id)
                report.failed.append(f"episode {episode.id}: {e}")
                if isinstance(e, ModelUnavailable):
                    break
                continue
            report.refused += refused
            for item in items:
                _, merged = await self.memory.add_or_reinforce(item, ACTOR, merge=self.merge)
                if merged:
                    report.reinforced += 1
                else:
                    report.added += 1
        await self._apply_votes(report)
        log.info("evolve: %s", report.summary())
        return report

    async def _apply_votes(self, report: EvolveReport) -> None:
        votes = await self.feed.unapplied_votes()
        for v in votes:
            retired = await self.memory.apply_vote(v.vote, v.memory_ids, "votes", v.withdrawn)
            report.retired += len(retired)
        await self.feed.mark_votes_applied([v.feedback_id for v in votes])
        report.votes_applied += len(votes)
