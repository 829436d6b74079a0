"""Evidence notes per visit, source tiers in the prompt, and the support check after writing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.fakes.policy import ResearchPolicy, page_notes, state_of
from tests.fakes.ports import FakeChatModel, FakeWeb, Journal, health_pages

POST = Post(text="The measles vaccine causes autism.")


def run(policy: Any, web: FakeWeb | None = None, **budget: Any) -> Any:
    web = web or FakeWeb(health_pages())
    journal = Journal()
    runner = EpisodeRunner(
        model=FakeChatModel(policy),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(**budget),
    )
    return runner, journal, web


class Observing(ResearchPolicy):
    """The research policy, remembering every prompt it was shown."""

    def __init__(self, answers: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scripted = answers or {}
        self.answers = set(self.scripted)
        self.prompts: dict[str, list[str]] = {}

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        self.prompts.setdefault(schema, []).append(messages[-1]["content"])
        if schema in self.scripted:
            return self.scripted[schema](messages)
        return super().__call__(schema, messages)


class QuotingWriter(Observing):
    """Writes `prose` citing the CDC page with `quote` as its support."""

    def __init__(self, prose: str, quote: str) -> None:
        super().__init__(prose=prose)
        self.quote = quote

    def write_or_abstain(self, state: dict[str, Any]) -> dict[str, Any]:
        cdc = "https://www.cdc.gov/vaccines/mmr-safety"
        support = [{"claim": self.prose, "url": cdc, "quote": self.quote}]
        return {"thought": "", "action": {"kind": "write", "text": self.prose, "support": support}}


async def test_read_pages_carry_notes_quotes_and_tiers() -> None:
    policy = Observing()
    runner, journal, _ = run(policy, notes_min_chars=0)
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "noted"
    cdc = next(e for e in outcome.evidence if "cdc.gov" in e.url)
    assert cdc.tier == 4
    assert cdc.quotes == ["Many studies have found no link between the MMR vaccine and autism."]
    assert cdc.relevant is True  # the notes are a verdict and quotes
    agent_prompt = policy.prompts["AgentTurn"][-1]
    shown = state_of([{"content": agent_prompt}])["evidence"]
    assert shown[0]["quotes"] and "excerpt" not in shown[0]
    assert all("tier" in r for r in state_of([{"content": agent_prompt}])["search_results"])
    visit = next(s for s in journal.steps if s.phase == "visit")
    assert "relevant, 1 quotes" in visit.observation


async def test_quotes_are_the_pages_own_sentences_picked_by_number() -> None:
    def picky(messages: list[dict[str, Any]]) -> dict[str, Any]:
        notes = page_notes(messages)
        notes["quote_sentences"] = [1, 1, 9]  # a repeat, and a number the page does not have
        return notes

    runner, journal, _ = run(Observing({"PageNotes": picky}), notes_min_chars=0)
    outcome = await runner.run(POST, journal=journal)
    cdc = next(e for e in outcome.evidence if "cdc.gov" in e.url)
    assert cdc.quotes == ["Many studies have found no link between the MMR vaccine and autism."]
    visit = next(s for s in journal.steps if s.phase == "visit")
    assert "1 quote number(s) not on the page, dropped" in visit.observation


async def test_a_page_shorter_than_its_excerpt_is_shown_whole_without_notes() -> None:
    policy = Observing()
    runner, journal, _ = run(policy)  # the fake pages are a sentence or two
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "noted"
    assert "PageNotes" not in policy.prompts  # no model call for them
    assert all(e.excerpt and e.relevant is None for e in outcome.evidence)


async def test_when_notes_fail_the_page_is_still_read_with_its_excerpt() -> None:
    notes = {"PageNotes": lambda m: {"nonsense": True}}
    runner, journal, _ = run(Observing(notes), notes_min_chars=0)
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "noted"
    assert all(e.excerpt and e.relevant is None for e in outcome.evidence)


async def test_an_unsupported_sentence_is_sent_back_with_the_reason() -> None:
    verdicts = iter(
        [
            {
                "verdicts": [
                    {"index": 1, "supported": False, "problem": "the sources give 97%, not 100%"}
                ]
            },
            {
                "verdicts": [
                    {
                        "index": 1,
                        "supported": True,
                        "quote": "Two doses of MMR vaccine are about 97% effective at preventing "
                        "measles.",
                    }
                ]
            },
        ]
    )

    def check(messages: list[dict[str, Any]]) -> Any:
        policy.prose = "MMR is about 97% effective against measles."  # the writer corrects it
        return next(verdicts)

    policy = Observing({"SupportVerdicts": check}, prose="MMR is 100% effective against measles.")
    runner, journal, _ = run(policy)
    outcome = await runner.run(POST, journal=journal)
    writes = [s for s in journal.steps if s.phase == "write"]
    assert "not supported by its sources: the sources give 97%, not 100%" in (writes[0].observation)
    assert outcome.status == "noted"
    assert outcome.support_checked is True
    assert "[1] MMR is 100% effective" in policy.prompts["SupportVerdicts"][0]
    assert "[1] MMR is about 97% effective" in policy.prompts["SupportVerdicts"][1]


async def test_the_same_draft_resubmitted_gets_the_same_verdict_without_asking_again() -> None:
    """A weak model resubmits a refused draft word for word; asked again, a check may say yes
    the second time. The same question has the same answer: one call, and no note."""
    verdicts = iter(
        [
            {"verdicts": [{"index": 1, "supported": False, "problem": "97%, not 100%"}]},
            {
                "verdicts": [
                    {
                        "index": 1,
                        "supported": True,
                        "quote": "Two doses of MMR vaccine are about 97% effective at preventing "
                        "measles.",
                    }
                ]
            },
        ]
    )
    policy = Observing(
        {"SupportVerdicts": lambda m: next(verdicts)},
        prose="MMR is 100% effective against measles.",
    )
    runner, journal, _ = run(policy, max_rewrites=2)
    outcome = await runner.run(POST, journal=journal)
    refused = [s for s in journal.steps if s.phase == "write" and "97%, not 100%" in s.observation]
    assert len(refused) >= 2  # refused each time it came back
    assert len(policy.prompts["SupportVerdicts"]) == 1  # asked once
    assert outcome.status == "abstained"


async def test_a_sentence_left_unchecked_counts_as_unsupported() -> None:
    policy = Observing(
        # no sentence made of one page sentence's words: code bears none out itself
        {"SupportVerdicts": lambda m: {"verdicts": []}},
        prose="Vaccines are tested for years. Two doses work.",
    )
    runner, journal, _ = run(policy, max_rewrites=1)
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "abstained"
    assert "made claims its sources do not bear out" in outcome.abstain_reason
    # the model is told which sentence (in the trajectory; the card does not quote the draft)
    feedback = [s.observation for s in journal.steps if s.phase == "write"]
    assert any(
        "Sentence 1 ('Vaccines are tested for years.') was not checked" in f for f in feedback
    )


async def test_when_the_check_cannot_run_no_note_goes_out_unverified() -> None:
    """Code's own word is off by default: a check that cannot run (here every answer is
    malformed) sends the draft back, and the episode ends with the reason, not a note."""
    checks = {"SupportVerdicts": lambda m: {"bad": 1}}
    policy = Observing(checks)
    runner, journal, _ = run(policy, support_by_quotes=False, max_rewrites=1)
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "abstained"
    assert outcome.note is None
    assert "could not be checked against its sources" in outcome.abstain_reason
    refused = [s for s in journal.steps if s.phase == "write" and "refused_by" in s.action]
    assert refused and all(s.action["refused_by"] == ["support-unchecked"] for s in refused)
    assert len(policy.prompts["SupportVerdicts"]) >= 2  # each draft's check was tried again


async def test_search_is_capped_at_the_post_time_when_asked() -> None:
    seen: list[datetime | None] = []

    class Web(FakeWeb):
        async def search(
            self, query: str, *, limit: int, published_before: datetime | None = None
        ) -> Any:
            seen.append(published_before)
            return await super().search(query, limit=limit)

    when = datetime(2021, 2, 1, tzinfo=UTC)
    web = Web(health_pages())
    runner, _, _ = run(ResearchPolicy(), web, as_of_post_time=True)
    await runner.run(Post(text="claim", created_at=when))
    runner, _, _ = run(ResearchPolicy(), web)
    await runner.run(Post(text="claim", created_at=when))
    # the post's words by code, then the agent's search: all capped
    assert seen == [when] * 2 + [None] * 2


QUOTE = "Many studies have found no link between the MMR vaccine and autism."


@pytest.mark.parametrize(
    ("prose", "quote", "model_checks"),
    [
        # the page's sentence less a word ("Many"): the check's to judge (#59: code bears out
        # only a page's sentence word for word)
        ("Studies have found no link between the MMR vaccine and autism.", QUOTE, True),
        # a quote not on the page: code finds the page's own sentence instead
        (QUOTE, QUOTE[:-1] + "s!", False),
        # a number the quote lacks, a lost negation
        ("Over 90 studies found no link between the MMR vaccine and autism.", QUOTE, True),
        # one word the quote does not say changes the claim
        (
            "Two doses of MMR vaccine are about 97% effective at preventing autism.",
            "Two doses of MMR vaccine are about 97% effective at preventing measles.",
            True,
        ),
        (
            "Two doses of MMR vaccine are about 97% effective at preventing measles.",
            "Two doses of MMR vaccine are about 97% effective at preventing measles.",
            False,
        ),
    ],
)
async def test_a_draft_whose_quotes_bear_it_out_needs_no_check_call(
    prose: str, quote: str, model_checks: bool
) -> None:
    policy = QuotingWriter(prose, quote)
    runner, journal, _ = run(policy, support_by_quotes=True)  # code's own word, where it is on
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "noted" and outcome.support_checked is True
    assert ("SupportVerdicts" in runner.model.calls) is model_checks
    # off, the default: the model checks every draft
    runner, journal, _ = run(QuotingWriter(prose, quote))
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status == "noted" and "SupportVerdicts" in runner.model.calls


async def test_a_lost_negation_is_refused_before_any_check_call() -> None:
    """The page's own sentence with its negation dropped: no sentence of the page carries
    it (the page denies it), so code refuses it and no checker, however obliging, is asked
    (#59: the default checker quotes the page's sentence and says supported)."""
    prose = "Studies have found a link between the MMR vaccine and autism."

    policy = QuotingWriter(prose, QUOTE)
    runner, journal, _ = run(policy)
    outcome = await runner.run(POST, journal=journal)
    assert outcome.status != "noted" and outcome.note is None
    assert "SupportVerdicts" not in runner.model.calls
    refused = [s.action.get("refused_by", []) for s in journal.steps if s.phase == "write"]
    assert any("no-sentence-says-it" in r for r in refused)


def test_an_excerpt_keeps_the_passage_with_the_claims_rarest_word() -> None:
    """On a long page of COVID-19 questions every answer names the FDA, COVID-19 and approval;
    the one a claim about ivermectin needs is the one naming it (a real run's excerpt left it
    out, counting every shared word alike)."""
    from pipeline.excerpt import select_excerpt

    common = [
        f"Question {i}: the FDA has approved no product {i} for COVID-19 years after the "
        f"pandemic began, and approved tests for COVID-19 are listed by the FDA each week."
        for i in range(12)
    ]
    ivermectin = (
        "No. While there are approved uses for ivermectin in people and animals, it is not "
        "approved for the prevention or treatment of COVID-19."
    )
    page = "\n\n".join([*common[:6], ivermectin, *common[6:]])
    claim = "The FDA has approved ivermectin for COVID-19, years too late."
    excerpt = select_excerpt(page, claim, max_chars=500)
    assert ivermectin in excerpt
