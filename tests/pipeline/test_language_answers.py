"""A model's language answer is made a valid tag where it enters: an answer valid against the
schema ("English", "", "the post mak", seen from a schema-driven stand-in) never fails an
episode."""

from __future__ import annotations

import pytest

from bot.simulator.model import DEFAULT_BRIEF, ResearchPolicy
from pipeline.brief import VerificationBrief, language_tag
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.post import Post
from tests.fakes.episodes import runner
from tests.fakes.ports import FakeWeb, health_pages

POST = Post(text="The measles vaccine causes autism. Don't vaccinate your kids!")


@pytest.mark.parametrize(
    ("answer", "tag"),
    [("en", "en"), ("EN", "en"), ("pt-BR", "pt-BR"), ("English", "en"), ("Deutsch", "en"),
     ("", "en"), ("x", "en"), ("the post mak", "en"), ("zz", "en"), ("de-DE-x-foo-bar", "de")],
)  # fmt: skip
def test_any_language_answer_is_a_tag(answer: str, tag: str) -> None:
    assert language_tag(answer) == tag
    brief = VerificationBrief.model_validate({**DEFAULT_BRIEF, "language": answer})
    assert brief.language == tag


@pytest.mark.parametrize("answer", ["English", "the post mak", ""])
async def test_an_odd_language_answer_still_gets_a_note(answer: str) -> None:
    await load_word_lists()
    policy = ResearchPolicy(brief={**DEFAULT_BRIEF, "language": answer})
    outcome = await runner(policy, FakeWeb(health_pages())).run(POST)
    assert outcome.status == "noted", outcome.failure_reason or outcome.abstain_reason
    assert outcome.brief is not None and outcome.brief.language == "en"
