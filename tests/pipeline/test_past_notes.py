"""Our past notes on the same author reach the writer, with their status on X, inside the
untrusted block where the author's own words are (an AI writer on X found this input its one
decisive A/B: +8.4% net helpful against +3.5%)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from pipeline.desk.episode import Submission
from pipeline.post import Post
from pipeline.request import NoteRequest
from tests.fakes.policy import ResearchPolicy
from tests.fakes.service import fake_note_service


class Recording:
    def __init__(self) -> None:
        self.research = ResearchPolicy()
        self.briefs: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        if schema == "VerificationBrief":
            self.briefs.append(messages[-1]["content"])
        return self.research(schema, messages)


async def noted(notes: Any, n: int, author: str) -> int:
    post = Post(text=f"The measles vaccine causes autism ({n}).", post_id=str(n), author=author)
    row = await notes.enqueue_post(NoteRequest(post_ref=f"https://x.com/{author}/status/{n}"), post)
    done = await notes.run(row.id)
    assert done.status == "noted"
    return int(row.id)


async def test_the_writer_sees_our_notes_on_the_authors_other_posts(engine: AsyncEngine) -> None:
    policy = Recording()
    notes = fake_note_service(engine, policy)
    notes.past_notes = EpisodeStore(engine)
    first = await noted(notes, 1, "healthguru")
    await SubmissionStore(engine).add(
        Submission(
            episode_id=first,
            post_id="1",
            note_id="n1",
            test_mode=False,
            classification="misinformed_or_potentially_misleading",
            submitted_by="mod",
            status="currently_rated_not_helpful",
        )
    )
    await noted(notes, 2, "HealthGuru")  # the same account, however it is cased
    await noted(notes, 3, "someone_else")
    first_brief, second_brief, other_brief = policy.briefs
    assert "Our earlier note" not in first_brief  # nothing of ours on the author yet
    said = "Our earlier note on another post of this author (currently rated not helpful): "
    post_block = second_brief.split("<untrusted_post>")[1].split("</untrusted_post>")[0]
    assert said in post_block  # inside the author's untrusted block
    assert "Our earlier note" not in other_brief
