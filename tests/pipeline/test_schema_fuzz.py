"""Answers valid against every output schema, odd in every field (`tests/fakes/odd_answers.py`),
through whole episodes: an episode ends noted, abstained, or failed with a message
(`EvoNoteError`), never with another exception."""

from __future__ import annotations

from typing import Any

import pytest

from memory.distil import Distiller
from memory.echo import PostEcho
from memory.judge import SocialUtilityJudge
from memory.ports import FinishedEpisode
from pipeline.budget import EvidenceBudget
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.episode import EpisodeRunner
from pipeline.errors import EvoNoteError
from pipeline.evidence import Page, SearchResult
from pipeline.ports import NoMemory
from pipeline.post import Post
from pipeline.revision import EpisodeReviser, NoteDraft
from tests.fakes.embedder import HashingEmbedder
from tests.fakes.episodes import runner
from tests.fakes.odd_answers import OddAnswers
from tests.fakes.policy import DEFAULT_BRIEF, ResearchPolicy
from tests.fakes.ports import FakeClock, FakeWeb, Journal, health_pages

POSTS = [
    Post(text="The measles vaccine causes autism. Don't vaccinate your kids!"),
    Post(text="Ivermectin cures COVID-19 https://t.co/AbC123 @drx says so"),
    Post(text="Λέει ότι τα εμβόλια προκαλούν αυτισμό. 疫苗导致自闭症"),
]
EPISODES = 210


async def test_odd_answers_never_end_an_episode_in_a_traceback() -> None:
    await load_word_lists()
    outcomes: dict[str, int] = {}
    for seed in range(EPISODES):
        clock = FakeClock()
        model = OddAnswers(seed)
        web = FakeWeb(health_pages())
        runner = EpisodeRunner(
            model=model, search=web, reader=web, memory=NoMemory(),
            budget=EvidenceBudget(), clock=clock,
        )  # fmt: skip
        try:
            outcome = await runner.run(POSTS[seed % len(POSTS)])
        except EvoNoteError as e:  # a failure with its message: the desk shows it
            outcomes[f"failed: {type(e).__name__}"] = (
                outcomes.get(f"failed: {type(e).__name__}", 0) + 1
            )
            continue
        except Exception as e:
            pytest.fail(f"seed {seed}: {type(e).__name__}: {e} after {model.calls}")
        outcomes[outcome.status] = outcomes.get(outcome.status, 0) + 1
    assert sum(outcomes.values()) == EPISODES


class _BrokenWeb(FakeWeb):
    """A reader and a search backend that fail as no port promises: one page raises what an
    IDN redirect raised in a real reader, and every search of the brief's top gap a bug's
    KeyError (the search begun ahead, and the agent's own)."""

    async def read(self, url: str) -> Page:
        if url == "https://www.who.int/news-room/measles":
            raise UnicodeEncodeError("ascii", "bücher", 1, 2, "ordinal not in range(128)")
        return await super().read(url)

    async def search(self, query: str, **kwargs: Any) -> list[SearchResult]:
        if query == DEFAULT_BRIEF["gaps"][0]["suggested_query"]:
            self.searches.append(query)
            raise KeyError("results")
        return await super().search(query, **kwargs)


async def test_a_page_or_a_search_that_fails_oddly_costs_only_itself() -> None:
    journal = Journal()
    web = _BrokenWeb(health_pages())
    outcome = await runner(ResearchPolicy(rounds=2), web).run(POSTS[0], journal=journal)
    assert outcome.status in ("noted", "abstained"), outcome.failure_reason
    said = " ".join(s.observation for s in journal.steps)
    assert "could not be read" in said and "UnicodeEncodeError" in said
    assert "the search backend failed (KeyError)" in said


async def test_odd_answers_never_make_judging_distilling_or_revising_raise() -> None:
    """The judge, the distiller (with the post-echo check) and the reviser take the same
    odd answers: a verdict, lessons refused with reasons, a revision refused with problems, or
    an `EvoNoteError` — never another exception."""
    await load_word_lists()
    for seed in range(60):
        model = OddAnswers(seed)
        web = FakeWeb(health_pages())
        runner = EpisodeRunner(
            model=model, search=web, reader=web, memory=NoMemory(),
            budget=EvidenceBudget(), clock=FakeClock(),
        )  # fmt: skip
        post = POSTS[seed % len(POSTS)]
        try:
            outcome = await runner.run(post)
        except EvoNoteError:
            continue
        finished = FinishedEpisode(
            id=seed + 1, post=post, status=outcome.status, brief=outcome.brief,
            note=outcome.note, urls=outcome.urls, abstain_reason=outcome.abstain_reason,
            evidence=outcome.evidence,
        )  # fmt: skip
        draft = NoteDraft(
            post=post, brief=outcome.brief, evidence=outcome.evidence,
            prose=(outcome.note or "Measles vaccines are safe.").split("\n\n")[0],
            cited_urls=outcome.urls,
        )  # fmt: skip
        try:
            verdict = await SocialUtilityJudge(OddAnswers(seed)).judge(finished)
            await Distiller(OddAnswers(seed), echo=PostEcho(HashingEmbedder())).distil(
                finished, verdict
            )
            await EpisodeReviser(OddAnswers(seed)).revise(draft, "It scored 0.31.")
        except EvoNoteError:
            continue
        except Exception as e:  # what the test is for
            pytest.fail(f"seed {seed}: {type(e).__name__}: {e}")
