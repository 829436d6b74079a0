"""The Social Utility Judge: grades a finished trajectory and picks its utility mode."""

from __future__ import annotations

from memory.ports import FinishedEpisode
from memory.prompts import JudgeVerdict, judge_messages
from pipeline.ports import ChatModel


class SocialUtilityJudge:
    def __init__(self, model: ChatModel, timeout_s: float = 60.0) -> None:
        self.model = model
        self.timeout_s = timeout_s

    async def judge(self, episode: FinishedEpisode) -> JudgeVerdict:
        reply = await self.model.structured(
            judge_messages(episode), JudgeVerdict, timeout_s=self.timeout_s
        )
        return reply.value
