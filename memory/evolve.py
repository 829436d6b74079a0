"""The evolve job: judge finished episodes in post-time order, distil lessons, apply votes."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from memory.distil import Distiller
from memory.experience import ExperienceMemory
from memory.judge import SocialUtilityJudge
from memory.models import LessonKind, UtilityMode
from memory.ports import EpisodeFeed, FinishedEpisode
from memory.prompts import JudgeVerdict
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


def with_moderators_verdict(verdict: JudgeVerdict, episode: FinishedEpisode) -> JudgeVerdict:
    """People outrank the model: more 👎 than 👍 (moderators', and X's raters' verdict on the
    note) make the episode Unsatisfactory (its lessons are what to avoid, from their reasons);
    more 👍 lift an Unsatisfactory verdict."""
    net = sum(v.vote for v in episode.votes)
    if net < 0 and verdict.utility_mode != UtilityMode.UNSATISFACTORY:
        reasons = "; ".join(v.reason for v in episode.votes if v.vote < 0 and v.reason)
        return verdict.model_copy(
            update={
                "utility_mode": UtilityMode.UNSATISFACTORY,
                "feedback": (
                    f"People voted it down{': ' + reasons if reasons else ''}. " + verdict.feedback
                )[:800],
            }
        )
    if net > 0 and verdict.utility_mode == UtilityMode.UNSATISFACTORY:
        return verdict.model_copy(update={"utility_mode": UtilityMode.SATISFACTORY})
    return verdict


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
        judge_after_s: float = 0.0,
    ) -> None:
        self.judge_after_s = judge_after_s
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
        for episode in await self.feed.claim_unjudged(self.batch, self.judge_after_s):
            try:
                verdict = with_moderators_verdict(await self.judge.judge(episode), episode)
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
            # the lessons the episode used, and those learned from it
            # (not the lessons of what to avoid learned from it: the vote is why they exist)
            learned = [
                i
                for i, item in self.memory.items.items()
                if v.episode_id in item.source_episodes and item.kind != LessonKind.AVOID
            ]
            lessons = list(dict.fromkeys([*v.memory_ids, *learned]))
            retired = await self.memory.apply_vote(v.vote, lessons, "votes", v.withdrawn)
            report.retired += len(retired)
        await self.feed.mark_votes_applied([v.feedback_id for v in votes])
        report.votes_applied += len(votes)
