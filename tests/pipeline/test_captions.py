"""Images on posts are described by a vision model before the claim is analysed."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from adapters.openai_vision import OpenAICaptioner
from pipeline.budget import EvidenceBudget
from pipeline.desk.cards import card_for
from pipeline.episode import EpisodeRunner
from pipeline.errors import ModelTimeout
from pipeline.ports import NoMemory
from pipeline.post import Media, Post
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeChatModel, FakeWeb, Journal, health_pages

CHART = "https://pbs.twimg.com/media/chart.jpg"


class FakeCaptioner(OpenAICaptioner):
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.asked: list[str] = []

    async def caption(self, image_url: str, post_text: str, *, timeout_s: float) -> str:
        self.asked.append(image_url)
        if self.fail:
            raise ModelTimeout("the vision model did not answer within 5 s")
        return f"Chart: autism diagnoses 2000-2020 ({image_url.rsplit('/', 1)[-1]})"


def post_with_media() -> Post:
    return Post(
        text="Look at this! Vaccines did this.",
        media=[
            Media(kind="photo", url=CHART),
            Media(kind="photo", url="https://evil.example/x.jpg"),
            Media(kind="photo", url=None, alt_text="a syringe"),
        ],
        quoted=Post(
            text="quoted", media=[Media(kind="video", url="https://pbs.twimg.com/thumb/v.jpg")]
        ),
    )


async def test_images_are_captioned_and_reach_the_analysis() -> None:
    captioner = FakeCaptioner()
    prompts: list[str] = []
    inner = ResearchPolicy()

    def policy(schema: str, messages: list[dict[str, Any]]) -> Any:
        prompts.append(messages[-1]["content"])
        return inner(schema, messages)

    web = FakeWeb(health_pages())
    journal = Journal()
    runner = EpisodeRunner(
        model=FakeChatModel(policy),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(),
        captioner=captioner,
    )
    outcome = await runner.run(post_with_media(), journal=journal)
    assert captioner.asked == [CHART, "https://pbs.twimg.com/thumb/v.jpg"]  # X's hosts only
    assert "[photo: Chart: autism diagnoses 2000-2020 (chart.jpg)]" in prompts[0]
    assert "[photo: a syringe]" in prompts[0]
    assert journal.steps[0].phase == "caption"
    assert "captioned 2 of 2 images" in journal.steps[0].observation
    assert outcome.post is not None
    assert outcome.post.quoted is not None and outcome.post.quoted.media[0].caption


async def test_a_failed_caption_leaves_the_media_marked_uninspected() -> None:
    web = FakeWeb(health_pages())
    journal = Journal()
    runner = EpisodeRunner(
        model=FakeChatModel(ResearchPolicy()),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(),
        captioner=FakeCaptioner(fail=True),
    )
    outcome = await runner.run(post_with_media(), journal=journal)
    assert outcome.status == "noted"
    assert "failed: the vision model did not answer" in journal.steps[0].observation
    assert outcome.post is not None and outcome.post.media[0].caption is None


def test_cards_say_when_media_was_not_inspected() -> None:
    from datetime import UTC, datetime

    from pipeline.desk.episode import Episode

    episode = Episode(
        id=1,
        source="cli",
        requester="me",
        post_ref="x",
        status="noted",
        post=post_with_media(),
        note_text="n",
        char_count=1,
        created_at=datetime.now(UTC),
    )
    assert card_for(episode).media_not_inspected


async def test_openai_captioner_sends_the_image_to_the_vision_model(
    model_server: ScriptedModelServer,
) -> None:
    client = openai.AsyncOpenAI(base_url=model_server.base_url, api_key="x", max_retries=0)
    captioner = OpenAICaptioner(client, "qwen-vl")
    assert captioner.can_read(CHART)
    assert not captioner.can_read("http://pbs.twimg.com/media/a.jpg")
    assert not captioner.can_read("https://169.254.169.254/latest")
    text = await captioner.caption(CHART, "post text", timeout_s=5)
    await client.close()
    assert text.startswith('A bar chart titled "Autism diagnoses"')
    sent = model_server.requests[-1]
    assert sent["model"] == "qwen-vl"
    assert sent["messages"][1]["content"][1] == {"type": "image_url", "image_url": {"url": CHART}}
    model_server.delay_s = 2
    slow = OpenAICaptioner(
        openai.AsyncOpenAI(base_url=model_server.base_url, api_key="x", max_retries=0), "m"
    )
    with pytest.raises(ModelTimeout, match="vision model did not answer"):
        await slow.caption(CHART, "t", timeout_s=0.3)
