"""What code does for a weak agent: the brief's gaps searched before its first turn, results
off the claims left unread, a repeated search turned into the next gap, refused actions
ending the loop, and the final write's reserve kept whatever the loop's last draft took."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from pipeline.budget import EvidenceBudget
from pipeline.episode import MAX_REFUSED_IN_A_ROW, EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.fakes.episodes import runner
from tests.fakes.policy import DEFAULT_BRIEF, ResearchPolicy, search, state_of
from tests.fakes.ports import (
    FakeChatModel,
    FakeClock,
    FakeWeb,
    Journal,
    Page,
    health_pages,
    many_sites,
)

ADAMS = "https://rarediseases.info.nih.gov/diseases/adams-oliver-syndrome"
BRIEF = {
    **DEFAULT_BRIEF,
    "gaps": [
        {**DEFAULT_BRIEF["gaps"][0], "suggested_query": "measles vaccine autism studies"},
        {
            "type": "missing_context",
            "description": "What do health agencies say about MMR safety?",
            "priority": 3,
            "suggested_query": "MMR vaccine safety health agency",
        },
    ],
}


def with_adams() -> dict[str, Page]:
    """The health pages, and the page the raw words "Mayor Eric Adams" found in a real run."""
    pages = {
        ADAMS: Page(
            url=ADAMS,
            title="Adams-Oliver syndrome",
            text="Adams-Oliver syndrome is a rare condition present at birth. Its primary "
            "features are areas of missing skin on the scalp and malformed limbs.",
        )
    }
    return {**pages, **health_pages()}


# a weak agent's budget (the slow-server preset's switch): code searches the top gap too
WEAK_AGENT = EvidenceBudget(search_gap_first=True)


async def test_code_searches_the_top_gap_and_reads_only_results_on_the_claims() -> None:
    post = Post(text="Mayor Eric Adams says the measles vaccine causes autism.")
    web = FakeWeb(with_adams())
    journal = Journal()
    outcome = await runner(ResearchPolicy(brief=BRIEF), web, WEAK_AGENT).run(post, journal=journal)
    assert outcome.status == "noted", outcome.abstain_reason
    by_code = [s for s in journal.steps if s.action.get("by") == "code"]
    assert [s.phase for s in by_code] == ["search", "search", "visit"]
    assert by_code[1].action["query"] == "measles vaccine autism studies"  # priority 5 first
    # listed by both searches, about something else: code reads the three on the claims
    assert {t["url"] for t in by_code[2].action["targets"]} == set(health_pages())
    assert ADAMS not in (outcome.urls or [])


async def test_a_repeated_search_becomes_the_next_gap_then_the_loop_ends() -> None:
    """Seen with the real model: the same refused search twelve turns in a row."""
    calls: list[str] = []
    base = ResearchPolicy(brief=BRIEF)

    def stubborn(schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "AgentTurn":
            return search("measles vaccine autism studies")  # code searched it already
        return base(schema, messages)

    web = FakeWeb(health_pages())
    journal = Journal()
    model = FakeChatModel(stubborn, calls=calls)
    outcome = await _run(model, web, WEAK_AGENT, journal)
    assert "MMR vaccine safety health agency" in web.searches  # the second gap, searched instead
    assert web.searches.count("measles vaccine autism studies") == 1
    # one repeat turned into the second gap, then refusals until the loop gives up
    assert calls.count("AgentTurn") == 1 + MAX_REFUSED_IN_A_ROW
    assert outcome.status == "noted", outcome.abstain_reason  # written in the final phase
    assert calls[-2:] == ["FinalTurn", "SupportVerdicts"]


async def test_the_loops_last_draft_is_checked_in_the_reserve_not_written_again() -> None:
    """The final write keeps its reserve: a draft whose support check the loop's deadline cut
    is checked there, within the reserve, instead of a fresh draft given what is left."""
    clock = FakeClock()
    timeouts: dict[str, list[float]] = {}

    class Timed(FakeChatModel):
        async def structured(self, messages: Any, output: Any, *, timeout_s: float) -> Any:
            timeouts.setdefault(output.__name__, []).append(timeout_s)
            return await super().structured(messages, output, timeout_s=timeout_s)

    # 12 s a call: the brief, the agent's search, visit and write end at 48 s; its check
    # would end at 60 s, past the loop's deadline (100 - 50 = 50 s)
    model = Timed(ResearchPolicy(), clock=clock, seconds_per_call=12)
    budget = EvidenceBudget(deadline_s=100, writing_reserve_s=50, search_post_first=False)
    web = FakeWeb(health_pages())
    outcome = await _run(model, web, budget, Journal(), clock, agent_reads=True)
    assert outcome.status == "noted", outcome.abstain_reason
    assert outcome.support_checked is True
    assert "FinalTurn" not in timeouts  # the draft was kept, not written again
    # the loop's check had until the loop's deadline; the final phase's, the reserve
    assert timeouts["SupportVerdicts"] == [2, 50]
    assert outcome.timings.total_s == 62


async def test_a_draft_citing_no_page_read_is_told_which_pages_it_may_cite() -> None:
    """Seen with the real model: it cited the post's own t.co link alone, three drafts in a
    row, while "cannot be cited" never named what could."""
    post = Post(text="No one knows how Tylenol works https://t.co/fqR0GZlA4a")
    base = ResearchPolicy()

    def cites_the_post(schema: str, messages: list[dict[str, Any]]) -> Any:
        reply = base(schema, messages)
        action = reply.get("action") if isinstance(reply, dict) else None
        if isinstance(action, dict) and action.get("kind") == "write":
            for claim in action["support"]:
                claim["url"] = "https://t.co/fqR0GZlA4a"
        return reply

    journal = Journal()
    outcome = await runner(
        cites_the_post, FakeWeb(health_pages()), EvidenceBudget(max_rewrites=0)
    ).run(post, journal=journal)
    assert outcome.status == "abstained"
    rejected = next(s.observation for s in journal.steps if s.phase == "write")
    assert "cannot be cited: https://t.co/fqR0GZlA4a. Cite pages read: https://" in rejected


async def _run(
    model: FakeChatModel,
    web: FakeWeb,
    budget: EvidenceBudget,
    journal: Journal,
    clock: FakeClock | None = None,
    agent_reads: bool = False,
) -> Any:
    from pipeline.episode import EpisodeRunner
    from pipeline.ports import NoMemory

    if agent_reads:  # the agent's own search and visit, no code shortcuts
        budget = EvidenceBudget(**{**budget.__dict__, "read_search_results": False})
    kwargs: dict[str, Any] = {"clock": clock} if clock is not None else {}
    episode = EpisodeRunner(
        model=model, search=web, reader=web, memory=NoMemory(), budget=budget, **kwargs
    )
    return await episode.run(Post(text="The measles vaccine causes autism."), journal=journal)


@pytest.mark.parametrize(
    ("prose", "refused"),
    [
        ("The BMJ states that the MMR vaccine is safe.", "BMJ"),
        ("According to the BMJ, the MMR vaccine is safe.", "BMJ"),
        ("Pfizer reported that the MMR vaccine is safe.", "Pfizer"),
        ("The CDC says many studies have found no link between MMR and autism.", None),
        ("Many studies have found no link between the MMR vaccine and autism.", None),
        ("Health agencies recommend two doses of the MMR vaccine.", None),
        # groups of people are no one in particular: honest notes open this way
        ("Researchers found no link between the MMR vaccine and autism.", None),
        ("Pediatricians recommend two doses of the MMR vaccine.", None),
    ],
)
async def test_a_claim_may_be_given_only_to_someone_a_cited_page_names(
    prose: str, refused: str | None
) -> None:
    """The cited pages are the CDC's and the WHO's fact sheets: the CDC is in its page's
    address; the BMJ and Pfizer are on no page cited."""
    journal = Journal()
    budget = EvidenceBudget(max_rewrites=0)
    outcome = await runner(ResearchPolicy(prose=prose), FakeWeb(health_pages()), budget).run(
        Post(text="The MMR vaccine causes autism."), journal=journal
    )
    writes = " ".join(s.observation for s in journal.steps if s.phase == "write")
    if refused:
        assert outcome.status == "abstained", outcome.note
        assert f"gives its claim to '{refused}" in writes
    else:
        assert outcome.status == "noted", writes


async def test_the_top_gap_is_searched_and_its_pages_begun_while_the_agent_thinks() -> None:
    """Search ahead: once the brief is known, code searches its top gap and begins reading the
    best results while the agent's first turn is asked; the agent's search of that gap takes
    them, with no second search and no page read twice."""
    web = FakeWeb(many_sites(12))
    at_first_turn: list[tuple[list[str], list[str]]] = []

    @dataclass
    class Thinking(FakeChatModel):
        async def structured(self, messages: Any, output: Any, *, timeout_s: float) -> Any:
            if output.__name__ == "AgentTurn" and not at_first_turn:
                await asyncio.sleep(0.05)  # the agent thinks: what was begun meanwhile?
                at_first_turn.append((list(web.searches), list(web.reads)))
            return await super().structured(messages, output, timeout_s=timeout_s)

    journal = Journal()
    outcome = await EpisodeRunner(
        model=Thinking(ResearchPolicy()),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(),
    ).run(Post(text="The measles vaccine causes autism."), journal=journal)
    assert outcome.status == "noted", outcome.abstain_reason
    gap = DEFAULT_BRIEF["gaps"][0]["suggested_query"]
    searched, read = at_first_turn[0]
    assert searched[-1] == gap  # begun before the agent asked for it
    assert len(read) == 8  # the post's best 4 and the gap's best 4, begun
    agent_search = next(s for s in journal.steps if s.phase == "search" and not s.action.get("by"))
    assert agent_search.action["query"] == gap and "returned 8 results" in agent_search.observation
    assert web.searches.count(gap) == 1
    assert len(web.reads) == len(set(web.reads)) == 8  # each begun page read once, then taken
    assert set(read) <= set(web.read_ok) and set(outcome.urls) <= set(read)


async def test_a_search_ahead_unused_leaves_the_agent_its_own_search() -> None:
    """An agent that searches otherwise still has a search of its own, and a budget with
    room for no more than the agent's search begins none ahead."""
    web = FakeWeb(many_sites(12))
    searched_otherwise = ResearchPolicy()

    def own_query(schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "AgentTurn" and not state_of(messages)["searches_by_agent"]:
            return search("MMR autism cohort study")
        return searched_otherwise(schema, messages)

    outcome = await runner(own_query, web).run(Post(text="The measles vaccine causes autism."))
    assert outcome.status == "noted", outcome.abstain_reason
    gap = DEFAULT_BRIEF["gaps"][0]["suggested_query"]
    # the post's words, the gap begun ahead, and the agent's own, in whatever order they ran
    assert sorted(web.searches[1:]) == sorted([gap, "MMR autism cohort study"])

    tight = FakeWeb(many_sites(12))
    await runner(own_query, tight, EvidenceBudget(max_searches=2)).run(
        Post(text="The measles vaccine causes autism.")
    )
    assert gap not in tight.searches and "MMR autism cohort study" in tight.searches


async def test_the_search_begun_ahead_is_the_agents_even_once_its_budget_is_spent() -> None:
    """It was counted when it began: the agent's later search of that gap takes it, with the
    rest of the budget spent meanwhile, and no second backend call."""
    web = FakeWeb(many_sites(12))
    gap = DEFAULT_BRIEF["gaps"][0]["suggested_query"]
    searches = iter([search("MMR autism cohort study"), search(gap)])
    then = ResearchPolicy()

    def two_searches(schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "AgentTurn" and (planned := next(searches, None)) is not None:
            return planned
        return then(schema, messages)

    journal = Journal()
    outcome = await runner(two_searches, web, EvidenceBudget(max_searches=3)).run(
        Post(text="The measles vaccine causes autism."), journal=journal
    )
    assert outcome.status == "noted", outcome.abstain_reason
    taken = [s for s in journal.steps if s.phase == "search" and s.action.get("query") == gap]
    assert len(taken) == 1 and "returned" in taken[0].observation, taken
    assert web.searches.count(gap) == 1 and len(web.searches) == 3
