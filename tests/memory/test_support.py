"""Support by what was said, not by who asked (#57), attacked as the issue did: two watches, two
plain accounts, a Not Helpful verdict plus one plain requester activate nothing; a moderator's
approval still does; `require_approval` still wins."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.memory_store import SqlMemoryStore
from memory.distil import Distiller
from memory.experience import ExperienceMemory
from memory.models import LessonKind, LessonStatus, MemoryItem, UtilityMode
from memory.policy import MemoryPolicy
from memory.ports import FinishedEpisode, Vote
from memory.prompts import Attribution, JudgeVerdict
from memory.support import standing_reason
from pipeline.ports import MemoryPhase
from pipeline.post import Post
from tests.fakes.embedder import HashingEmbedder
from tests.fakes.ports import FakeChatModel

EVIDENCE = MemoryPhase.EVIDENCE_ACQUISITION
TRIGGER = "posts claiming the measles vaccine is unsafe for children"
# what the episode taught: the way of working it used, and the mistake it names
DO = "search the health agency's measles vaccine safety pages first"
MISTAKE = "citing a page that only mentions the studies rather than the studies themselves"
NOT_HELPFUL_TAGS = (
    "raters across perspectives on X found it not helpful (top tags: left: sources_missing)"
)


async def memory_on(engine: AsyncEngine, **policy: Any) -> ExperienceMemory:
    memory = ExperienceMemory(SqlMemoryStore(engine), HashingEmbedder(), MemoryPolicy(**policy))
    await memory.load()
    return memory


def verdict(mode: UtilityMode) -> JudgeVerdict:
    return JudgeVerdict(
        understandability=3,
        meaningfulness=3,
        usability=3,
        trustworthiness=3,
        hurt=[Attribution(phase=EVIDENCE, what="cited a page that only mentions the studies")]
        if mode == UtilityMode.UNSATISFACTORY
        else [],
        utility_mode=mode,
        feedback="",
    )


def episode(n: int, requester: str, vouched: bool, crowd: str | None = None) -> FinishedEpisode:
    votes = [Vote(vote=-1, reason=NOT_HELPFUL_TAGS, crowd=True)] if crowd else []
    return FinishedEpisode(
        id=n,
        post=Post(text=f"Measles shots are unsafe for kids, post {n}"),
        requester=requester,
        requester_vouched=vouched,
        status="noted",
        note="Large studies found the measles vaccine safe.",
        votes=votes,
        crowd_verdict=crowd,
    )


def distiller(strategy: str) -> Distiller:
    def model(schema: str, messages: list[dict[str, Any]]) -> Any:
        lesson = {"phase": EVIDENCE.value, "trigger": TRIGGER, "strategy": strategy}
        return {"lessons": [{**lesson, "rationale": "the sources were missing"}]}

    model.answers = ("DistilledLessons",)  # type: ignore[attr-defined]
    return Distiller(FakeChatModel(model))


async def learn(
    memory: ExperienceMemory, episodes: list[FinishedEpisode], mode: UtilityMode
) -> MemoryItem:
    strategy = MISTAKE if mode == UtilityMode.UNSATISFACTORY else DO
    stored = None
    for finished in episodes:
        items, refused = await distiller(strategy).distil(finished, verdict(mode))
        assert not refused
        for item in items:
            stored, _ = await memory.add_or_reinforce(item, "evolver")
    assert stored is not None
    return stored


async def test_two_watches_activate_nothing(engine: AsyncEngine) -> None:
    """The issue's attack: two configured X searches each found one attacker post. Rows
    written before #57 said a watch was vouched for; the memory counts no watch either way."""
    memory = await memory_on(engine)
    found = [
        episode(1, "x_watch:query:measles", vouched=True),
        episode(2, "x_watch:query:chickenpox", vouched=True),
    ]
    item = await learn(memory, found, UtilityMode.SATISFACTORY)
    assert item.support == 2 and item.status == LessonStatus.PROVISIONAL
    assert await memory.retrieve(EVIDENCE, TRIGGER, k=4) == []
    assert item.requesters == []
    assert "provisional: 0 of 2 vouched supporters" in standing_reason(item, memory.policy)
    # a lesson stored before #57 with the watches as its requesters stays provisional too
    old, _ = await memory.add_or_reinforce(
        MemoryItem(
            phase=EVIDENCE,
            trigger="posts claiming chickenpox parties are safer than the vaccine",
            strategy="search the agency pages on chickenpox vaccine safety",
            kind=LessonKind.IMPROVE,
            requesters=["x_watch:query:measles", "x_watch:query:chickenpox"],
        ),
        "import",
    )
    assert old.status == LessonStatus.PROVISIONAL
    line = standing_reason(old, memory.policy)
    assert "not counted: x_watch:query:chickenpox, x_watch:query:measles" in line


async def test_two_plain_accounts_activate_nothing(engine: AsyncEngine) -> None:
    memory = await memory_on(engine)
    asked = [episode(1, "slack:U1", vouched=False), episode(2, "discord:2", vouched=False)]
    item = await learn(memory, asked, UtilityMode.SATISFACTORY)
    assert item.status == LessonStatus.PROVISIONAL and item.requesters == []


async def test_a_not_helpful_verdict_and_one_plain_requester_activate_nothing(
    engine: AsyncEngine,
) -> None:
    """The avoid lesson naming what the raters said went wrong has X's raters' support only;
    the way of working the episode used gets none from a Not Helpful verdict."""
    memory = await memory_on(engine)
    rated = episode(1, "slack:U1", vouched=False, crowd="currently_rated_not_helpful")
    avoid = await learn(memory, [rated], UtilityMode.UNSATISFACTORY)
    assert avoid.requesters == ["x:raters:1"] and avoid.status == LessonStatus.PROVISIONAL
    do = await learn(memory, [rated], UtilityMode.SATISFACTORY)
    assert do.requesters == [] and do.status == LessonStatus.PROVISIONAL


async def test_a_not_helpful_verdict_never_supports_what_the_episode_did(
    engine: AsyncEngine,
) -> None:
    """The issue: a clean note, rated Not Helpful, counted as a supporter of what its episode
    taught. With a vouched requester too, a "do" from that episode has no support at all."""
    memory = await memory_on(engine)
    rated = [
        episode(1, "cli:cli", vouched=True, crowd="currently_rated_not_helpful"),
        episode(2, "slack:UMOD", vouched=True, crowd="firm_reject"),
    ]
    do = await learn(memory, rated, UtilityMode.SATISFACTORY)
    assert do.requesters == [] and do.status == LessonStatus.PROVISIONAL
    # and a Helpful verdict never supports the avoid lessons of its episode
    liked = [episode(3, "cli:cli", vouched=True, crowd="currently_rated_helpful")]
    avoid = await learn(memory, liked, UtilityMode.UNSATISFACTORY)
    assert avoid.requesters == []


async def test_an_avoid_lesson_that_names_nothing_said_gets_no_crowd_support() -> None:
    rated = episode(1, "cli:cli", vouched=True, crowd="currently_rated_not_helpful")
    rated.votes[0] = Vote(vote=-1, reason="raters found it not helpful (top tags: outdated)")
    items, _ = await distiller("writing the note in one long sentence").distil(
        rated, verdict(UtilityMode.UNSATISFACTORY).model_copy(update={"hurt": []})
    )
    assert [i.requesters for i in items] == [["cli:cli"]]


async def test_a_moderators_approval_still_activates(engine: AsyncEngine) -> None:
    memory = await memory_on(engine)
    item = await learn(memory, [episode(1, "slack:U1", vouched=False)], UtilityMode.SATISFACTORY)
    assert item.status == LessonStatus.PROVISIONAL
    await memory.set_status(item.id or 0, LessonStatus.ACTIVE, "slack:UMOD")
    [found] = await memory.retrieve(EVIDENCE, TRIGGER, k=4)
    assert found.strategy == DO and not found.avoid


async def test_two_vouched_requesters_activate_unless_approval_is_required(
    engine: AsyncEngine,
) -> None:
    asked = [episode(1, "slack:U1", vouched=True), episode(2, "slack:U2", vouched=True)]
    memory = await memory_on(engine)
    item = await learn(memory, asked, UtilityMode.SATISFACTORY)
    assert item.status == LessonStatus.ACTIVE
    assert "active by support" in standing_reason(item, memory.policy)

    cautious = ExperienceMemory(
        memory.store, HashingEmbedder(), MemoryPolicy(require_approval=True)
    )
    await cautious.load()
    again = await learn(
        cautious,
        [episode(3, "slack:U3", vouched=True), episode(4, "slack:U4", vouched=True)],
        UtilityMode.UNSATISFACTORY,
    )
    assert again.status == LessonStatus.PROVISIONAL
    assert "require_approval" in standing_reason(again, cautious.policy)


async def test_retrieval_curates_few_lessons_near_the_best_and_none_judged_badly(
    engine: AsyncEngine,
) -> None:
    """#57: precision by curation. A lesson whose episodes people voted down more than up is
    vetoed before `retire_net_down` retires it; a lesson much less like the post than the best
    one is left out; a near-duplicate merges."""
    memory = await memory_on(engine, min_similarity=0.05)
    query = "posts claiming the measles vaccine causes autism in young children"
    best, _ = await memory.add_or_reinforce(
        MemoryItem(
            phase=EVIDENCE,
            trigger="posts claiming the measles vaccine causes autism in children",
            strategy="search the agency pages on the measles vaccine and autism",
            kind=LessonKind.IMPROVE,
            requesters=["slack:U1", "slack:U2"],
        ),
        "t",
    )
    _, merged = await memory.add_or_reinforce(best.model_copy(update={"id": None}), "t")
    assert merged  # the same lesson again: one lesson with more support, not two
    voted_down, _ = await memory.add_or_reinforce(
        MemoryItem(
            phase=EVIDENCE,
            trigger="posts claiming the measles vaccine causes autism in young kids",
            strategy="quote the first page found on measles and autism",
            kind=LessonKind.IMPROVE,
            requesters=["slack:U1", "slack:U2"],
        ),
        "t",
        merge=False,
    )
    await memory.apply_vote(-1, [voted_down.id or 0], "votes")
    far, _ = await memory.add_or_reinforce(
        MemoryItem(
            phase=EVIDENCE,
            trigger="posts about a celebrity's diet and heart health",
            strategy="search the heart association's pages on diets",
            kind=LessonKind.IMPROVE,
            requesters=["slack:U1", "slack:U2"],
        ),
        "t",
    )
    scored = {i.id: cosine for i, cosine in await memory.scored(EVIDENCE, query)}
    assert voted_down.id in scored and far.id in scored  # all clear the absolute floor
    found = await memory.retrieve(EVIDENCE, query, k=4)
    assert [f.id for f in found] == [best.id]
    # without the veto and the relative floor, both reach the prompt
    memory.policy = memory.policy.model_copy(update={"relative_floor": 0.0})
    await memory.apply_vote(1, [voted_down.id or 0], "votes", withdrawn=-1)
    assert {f.id for f in await memory.retrieve(EVIDENCE, query, k=4)} == {
        best.id,
        voted_down.id,
        far.id,
    }
    assert len(await memory.retrieve(EVIDENCE, query, k=1)) == 1
