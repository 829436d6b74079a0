"""Whatever schema-valid actions the model emits, the episode keeps its promises."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.budget import EvidenceBudget
from pipeline.drafting.note import NOTE_CHAR_LIMIT, note_length
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.fakes.policy import DEFAULT_BRIEF
from tests.fakes.ports import FakeChatModel, FakeClock, FakeWeb, health_pages

PAGES = health_pages()
BROKEN = "https://broken.example/timeout"
POST_LINK = "https://www.who.int/news-room/measles"
URL_POOL = [*PAGES, BROKEN, "https://never-listed.example/a", "http://127.0.0.1/admin"]

urls = st.sampled_from(URL_POOL)
texts = st.text(min_size=1, max_size=420)
search = st.builds(lambda q: {"kind": "search", "query": q}, st.text(min_size=1, max_size=40))
visit = st.builds(
    lambda us: {"kind": "visit", "targets": [{"url": u, "goal": "g"} for u in us]},
    st.lists(urls, min_size=1, max_size=6),
)
write = st.builds(
    lambda t, us: {"kind": "write", "text": t, "support": [{"claim": "c", "url": u} for u in us]},
    texts,
    st.lists(urls, min_size=1, max_size=4),
)
abstain = st.builds(lambda r: {"kind": "abstain", "reason": r}, st.text(min_size=1, max_size=50))
agent_action = st.one_of(search, visit, write, abstain)
final_action = st.one_of(write, abstain)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seconds_per_call=st.sampled_from([0.0, 3.0, 25.0]),
    max_steps=st.integers(1, 15),
    max_searches=st.integers(0, 5),
    max_visits=st.integers(0, 12),
    max_rewrites=st.integers(0, 5),
)
def test_any_model_behaviour_ends_within_budget_and_rules(
    data: st.DataObject,
    seconds_per_call: float,
    max_steps: int,
    max_searches: int,
    max_visits: int,
    max_rewrites: int,
) -> None:
    web = FakeWeb(dict(PAGES), failing={BROKEN: "timed out"})
    clock = FakeClock()

    def policy(schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "VerificationBrief":
            return DEFAULT_BRIEF
        action = data.draw(agent_action if schema == "AgentTurn" else final_action)
        return {"thought": "", "action": action}

    model = FakeChatModel(policy, clock=clock, seconds_per_call=seconds_per_call)
    budget = EvidenceBudget(
        max_steps=max_steps,
        max_searches=max_searches,
        max_visits=max_visits,
        max_rewrites=max_rewrites,
        deadline_s=120,
        writing_reserve_s=20,
    )
    runner = EpisodeRunner(
        model=model, search=web, reader=web, memory=NoMemory(), budget=budget, clock=clock
    )
    post = Post(text="Measles is harmless, skip the vaccine", links=[POST_LINK])

    outcome = asyncio.run(runner.run(post))

    assert outcome.status in ("noted", "abstained")
    assert len(web.searches) <= max_searches
    assert len(web.reads) <= max_visits
    assert model.calls.count("AgentTurn") <= max_steps
    assert model.calls.count("FinalTurn") <= max_rewrites + 1
    assert "http://127.0.0.1/admin" not in web.reads
    assert "https://never-listed.example/a" not in web.reads
    assert outcome.timings.total_s <= budget.deadline_s
    if outcome.status == "noted":
        assert outcome.note is not None
        assert note_length(outcome.note) <= NOTE_CHAR_LIMIT
        assert outcome.urls and set(outcome.urls) <= web.read_ok
        assert len(web.searches) >= 1
    else:
        assert outcome.abstain_reason
