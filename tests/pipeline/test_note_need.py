"""Whether a post needs a note at all, asked first: when the switch is on, a joke, an opinion
or an accurate post costs one short call and its card says why; a post that needs one is
researched as before. Off by default (no model has beaten chance at it: bench.needs_note), and
never acted on for a post that describes itself: a claim under "satire" still gets its note."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.openai_chat import serving_schema
from pipeline.brief import NO_NOTE_BECAUSE, NoteNeed, VerificationBrief
from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from pipeline.post import Post
from pipeline.prompts import analysis_messages
from tests.fakes.policy import DEFAULT_BRIEF, ResearchPolicy
from tests.fakes.ports import FakeChatModel, FakeWeb, Journal, health_pages

OPINION = Post(text="I think the new measles campaign posters are the ugliest ever made.")
DECLINING = EvidenceBudget(decline_unneeded=True)


class Deciding:
    """The research policy, with the brief's answer to whether a note is needed."""

    def __init__(self, need: str) -> None:
        self.need = need
        self.research = ResearchPolicy()

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "VerificationBrief":
            return {**DEFAULT_BRIEF, "note_need": self.need}
        return self.research(schema, messages)


async def run(
    need: str, budget: EvidenceBudget = DECLINING, post: Post = OPINION
) -> tuple[Any, FakeChatModel, FakeWeb, Journal]:
    web = FakeWeb(health_pages())
    model = FakeChatModel(Deciding(need))
    journal = Journal()
    outcome = await EpisodeRunner(
        model=model, search=web, reader=web, memory=NoMemory(), budget=budget
    ).run(post, journal=journal)
    return outcome, model, web, journal


@pytest.mark.parametrize("need", [n for n in NoteNeed if n is not NoteNeed.NEEDED])
async def test_a_post_that_needs_no_note_costs_one_call_and_says_why(need: NoteNeed) -> None:
    outcome, model, web, journal = await run(need.value)
    assert outcome.status == "abstained" and outcome.note is None
    assert outcome.abstain_reason == f"No note needed: {NO_NOTE_BECAUSE[need]}"
    assert model.calls == ["VerificationBrief"]  # no agent turn, no support check
    assert web.reads == []  # nothing read; the post's own search, if begun, is dropped
    assert [s.phase for s in journal.steps] == ["claim_analysis"]


async def test_a_post_that_needs_a_note_is_researched_and_noted() -> None:
    outcome, model, web, _ = await run("needed")
    assert outcome.status == "noted"
    assert "AgentTurn" in model.calls and web.reads


async def test_by_default_the_brief_answers_and_the_episode_goes_on() -> None:
    """Off by default: the real 1.5B model's "no note needed" has not beaten chance
    (test_note_need_measured), so it is recorded and the post is researched."""
    assert EvidenceBudget().decline_unneeded is False
    assert EvidenceBudget.model_validate({"preset": "slow-server"}).decline_unneeded is False
    outcome, model, _, _ = await run("opinion_or_prediction", EvidenceBudget())
    assert outcome.status == "noted" and "AgentTurn" in model.calls


# A health claim stated as fact, under the post's own word for itself, in the spellings a
# poster would use to get past a filter.
LABELLED = [
    "SATIRE: the MMR vaccine causes autism in one child in ten.",
    "#satire The MMR vaccine causes autism in one child in ten.",
    "Satirical post. The MMR vaccine causes autism in one child in ten.",
    "s.a.t.i.r.e — the MMR vaccine causes autism in one child in ten.",
    "\u0455\u0430tire (Cyrillic letters): the MMR vaccine causes autism in one child in ten.",
    "\uff33\uff21\uff34\uff29\uff32\uff25 the MMR vaccine causes autism in one child in ten.",
    "sat\u200bire: the MMR vaccine causes autism in one child in ten.",
    "S4T1RE the MMR vaccine causes autism in one child in ten.",
    "Parody account. The MMR vaccine causes autism in one child in ten.",
    "The MMR vaccine causes autism in one child in ten. Just my opinion!",
    "IMO the MMR vaccine causes autism in one child in ten.",
    "The MMR vaccine causes autism in one child in ten. jk",
    "The MMR vaccine causes autism in one child in ten /s",
    "It's a JOKE, but the MMR vaccine causes autism in one child in ten.",
    "Sátira: la vacuna triple vírica causa autismo en uno de cada diez niños.",
]


@pytest.mark.parametrize("text", LABELLED)
@pytest.mark.parametrize("need", [n for n in NoteNeed if n is not NoteNeed.NEEDED])
async def test_a_post_that_calls_itself_satire_still_gets_its_note(
    text: str, need: NoteNeed
) -> None:
    """A hostile model declines the post for whatever reason the label offers it; with the
    switch on, code overrules it: the post's words about itself never decide."""
    outcome, model, web, _ = await run(need.value, DECLINING, Post(text=text))
    assert outcome.status == "noted" and outcome.note is not None
    assert "AgentTurn" in model.calls and web.reads


async def test_a_decline_without_a_label_is_still_acted_on_when_switched_on() -> None:
    """The overrule is the label's, not every decline's: a control for the test above."""
    outcome, _, _, _ = await run(NoteNeed.JOKE.value, DECLINING, Post(text=LABELLED[0][8:]))
    assert outcome.status == "abstained"


def test_the_judgements_prompt_gives_no_self_description_as_a_reason() -> None:
    system = analysis_messages(OPINION, [])[0].content
    assert "What the post says of itself" in system and "is no reason" in system


def test_the_model_answers_whether_a_note_is_needed_before_anything_else() -> None:
    schema = serving_schema(VerificationBrief)
    assert schema["required"][0] == "note_need"
    assert next(iter(schema["properties"])) == "note_need"
    system = analysis_messages(OPINION, [])[0].content
    assert all(n.value in system for n in NoteNeed)
    # a brief stored before the question existed still loads, as needing a note
    stored = {k: v for k, v in DEFAULT_BRIEF.items() if k != "note_need"}
    assert VerificationBrief.model_validate(stored).note_need is NoteNeed.NEEDED


async def test_the_real_models_no_note_on_a_false_claim_is_not_acted_on_by_default() -> None:
    """Recorded: the 1.5B model called "drinking diluted bleach kills any virus" a side detail
    that needs no note. Acted on, that false claim would go without one — which is why the
    default keeps the question but not the verdict."""
    from tests.fakes.replay import ReplayedModel, recording

    recorded = recording("needs-note-brief-declines-a-false-claim")
    post = Post(text=recorded["post"])

    async def replay(budget: EvidenceBudget) -> tuple[Any, ReplayedModel]:
        model = ReplayedModel(recorded["answers"])
        web = FakeWeb(health_pages())
        outcome = await EpisodeRunner(
            model=model, search=web, reader=web, memory=NoMemory(), budget=budget
        ).run(post, journal=Journal())
        return outcome, model

    acted_on, model = await replay(DECLINING)
    assert acted_on.abstain_reason == "No note needed: the error is a side detail"
    assert model.asked == ["VerificationBrief"]
    _, model = await replay(EvidenceBudget())
    assert "AgentTurn" in model.asked  # the episode went on to research the claim
