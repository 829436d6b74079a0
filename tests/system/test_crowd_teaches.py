"""The crowd's verdict reaches the memory (#45): a note X's raters mark Not Helpful, with their
tags, becomes after `sync` and one evolve run a lesson of what to avoid, learned from that
episode with the raters' reason, which guides the next similar post; a note they mark Helpful
raises the support of the lessons its episode used."""

from __future__ import annotations

from typing import Any

import httpx
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episode_feed import SqlEpisodeFeed
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.memory_store import SqlMemoryStore
from adapters.x.community_notes import CommunityNotesApi
from memory.distil import Distiller
from memory.evolve import Evolver
from memory.experience import ExperienceMemory
from memory.judge import SocialUtilityJudge
from memory.models import LessonKind, LessonStatus, MemoryItem
from memory.policy import MemoryPolicy
from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.ports import MemoryPhase
from pipeline.post import Post
from pipeline.request import NoteRequest
from tests.fakes.community_notes import API, CREDENTIALS, desk, noted_episode
from tests.fakes.embedder import HashingEmbedder
from tests.fakes.policy import DEFAULTS, ResearchPolicy
from tests.fakes.ports import FakeChatModel, FakeWeb, health_pages

AVOID = "citing a page that only mentions the studies rather than the studies themselves"
TAGS = [
    {"bucket": "left", "not_helpful_tag_counts": {"tag_name": "sources_missing", "tag_count": 4}},
    {"bucket": "right", "not_helpful_tag_counts": {"tag_name": "incorrect", "tag_count": 2}},
]


async def sent_episode(store: EpisodeStore, post_id: str, memory_ids: list[int]) -> int:
    """A noted episode a vouched requester asked for, its note approved by a moderator."""
    asked = NoteRequest(
        post_ref=f"https://x.com/a/status/{post_id}",
        requester="slack:UMOD",
        source="slack",
        vouched=True,
    )
    episode = await noted_episode(store, post_id, request=asked, memory_ids=memory_ids)
    await store.approve(episode, "UMOD")
    return episode


@respx.mock
async def test_what_x_raters_find_teaches_the_next_similar_post(engine: AsyncEngine) -> None:
    # the hashing embedder's cosines run lower than MiniLM's, for which the floor is set
    memory = ExperienceMemory(
        SqlMemoryStore(engine), HashingEmbedder(), MemoryPolicy(min_similarity=0.1)
    )
    await memory.load()
    used, _ = await memory.add_or_reinforce(
        MemoryItem(
            phase=MemoryPhase.EVIDENCE_ACQUISITION,
            trigger="posts claiming vaccines cause autism",
            strategy="search the health agency's pages on vaccine safety first",
            kind=LessonKind.IMPROVE,
            requesters=["slack:U1", "slack:U2"],
        ),
        "test",
        merge=False,
    )
    store = EpisodeStore(engine)
    rated_down = await sent_episode(store, "1001", [])
    rated_up = await sent_episode(store, "1002", [used.id or 0])

    respx.post(f"{API}/2/notes/evaluate").respond(200, json={"data": {"claim_opinion_score": 0.9}})
    respx.post(f"{API}/2/notes").mock(
        side_effect=[
            httpx.Response(200, json={"data": {"id": "18001"}}),
            httpx.Response(200, json={"data": {"id": "18002"}}),
        ]
    )
    async with httpx.AsyncClient() as client:
        api = CommunityNotesApi(client, CREDENTIALS, evaluate_path="/2/notes/evaluate")
        submitter = desk(engine, api)
        await submitter.submit(rated_down, "mod")
        await submitter.submit(rated_up, "mod")
        statuses = [
            {"id": "18001", "status": "currently_rated_not_helpful", "scoring_status": TAGS},
            {"id": "18002", "status": "currently_rated_helpful"},
        ]
        respx.get(f"{API}/2/notes/search/notes_written").respond(
            200, json={"data": statuses, "meta": {}}
        )
        assert await submitter.sync() == 2

    distilled_from: list[str] = []

    def model(schema: str, messages: list[dict[str, Any]]) -> Any:
        prompt = messages[-1]["content"]
        if schema == "DistilledLessons":
            if "sources_missing" not in prompt:  # only the raters' reason teaches here
                return {"lessons": []}
            distilled_from.append(prompt)
            return {
                "lessons": [
                    {
                        "phase": "note_writing",
                        "trigger": "posts claiming the measles vaccine causes autism",
                        "strategy": AVOID,
                        "rationale": "raters across perspectives found the sources missing",
                    }
                ]
            }
        return DEFAULTS[schema](messages)

    model.answers = ("DistilledLessons",)  # type: ignore[attr-defined]
    judge_and_distil = FakeChatModel(model)
    evolve = Evolver(
        SqlEpisodeFeed(engine),
        memory,
        SocialUtilityJudge(judge_and_distil),
        Distiller(judge_and_distil),
    )
    report = await evolve.run_once()
    assert report.judged == 2 and report.added == 1, report

    # the Not Helpful note: judged with the raters' tags, and what to avoid learned from it
    row = await store.get(rated_down)
    assert row is not None and row.utility_mode == "Unsatisfactory"
    assert "left: sources_missing" in (row.judge_feedback or "")
    assert "left: sources_missing" in distilled_from[0]
    (avoid,) = [i for i in memory.items.values() if i.kind == LessonKind.AVOID]
    assert avoid.source_episodes == [rated_down] and avoid.strategy == AVOID
    assert avoid.status == LessonStatus.ACTIVE  # the vouched requester and X's raters
    # the Helpful note: the lesson its episode used gains the crowd's support
    lifted = await memory.store.get(used.id or 0)
    assert lifted is not None and lifted.votes_up == 1

    # a later episode on a similar post is told what to avoid
    prompts: list[str] = []
    writer = ResearchPolicy()

    def seen(schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "AgentTurn":
            prompts.append("\n".join(m["content"] for m in messages))
        return writer(schema, messages)

    web = FakeWeb(health_pages())
    await EpisodeRunner(
        model=FakeChatModel(seen), search=web, reader=web, memory=memory, budget=EvidenceBudget()
    ).run(Post(text="The studies on vaccines and autism are hidden from parents"))
    # … as what to avoid, in the untrusted lessons block (#57: the kind was not shown)
    assert prompts and all(f"avoid: {AVOID}" in p for p in prompts)
    assert all(p.index(f"avoid: {AVOID}") > p.index("<untrusted_lessons>") for p in prompts)
