"""The daily digest: counts, votes, lessons, a chart, and posting to Slack."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.memory_store import SqlMemoryStore
from adapters.sqlstore.tables import utcnow
from bot.cli import main
from bot.digest import build_digest, daily_outcomes, post_to_slack
from memory.models import LessonKind, LessonStatus, MemoryItem
from pipeline.desk.episode import FailureKind
from pipeline.ports import MemoryPhase
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeOutcome
from tests.fakes.slack_api import MockSlackApi


async def fill(engine: AsyncEngine) -> None:
    store = EpisodeStore(engine)
    outcomes = [
        EpisodeOutcome(status="noted", note="n https://a.org", urls=["https://a.org"]),
        EpisodeOutcome(status="noted", note="m https://b.org", urls=["https://b.org"]),
        EpisodeOutcome(status="abstained", abstain_reason="no source on fluoride"),
    ]
    for outcome in outcomes:
        row = await store.create(NoteRequest(post_ref="p"), Post(text="p"), "evolving")
        assert row.id is not None
        await store.claim(row.id, "w", 60)
        await store.finish(row.id, outcome)
        await store.record_vote(
            row.id,
            platform="slack",
            user="U1",
            vote=1 if outcome.status == "noted" else -1,
        )
    failed = await store.create(NoteRequest(post_ref=""), Post(text=""), "evolving")
    await store.fail(failed.id or 0, "the post is empty", FailureKind.INPUT)
    broken = await store.create(NoteRequest(post_ref="p"), Post(text="p"), "evolving")
    await store.fail(broken.id or 0, "cannot reach the model server", FailureKind.MODEL_UNAVAILABLE)
    # a vote on a failed episode judges no answer: it is left out of the helpful share
    await store.record_vote(broken.id or 0, platform="slack", user="U1", vote=1)
    memory = SqlMemoryStore(engine)
    await memory.add(
        MemoryItem(
            phase=MemoryPhase.EVIDENCE_ACQUISITION,
            kind=LessonKind.REUSE,
            trigger="posts about fluoride in water",
            strategy="read the dental association's page",
            uses=3,
        ),
        "t",
    )
    old = await memory.add(
        MemoryItem(
            phase=MemoryPhase.NOTE_WRITING,
            kind=LessonKind.AVOID,
            trigger="posts about diets",
            strategy="x",
            created_at=utcnow() - timedelta(days=9),
        ),
        "t",
    )
    await memory.update(
        old.id or 0,
        "votes",
        "vote",
        status=LessonStatus.RETIRED,
        why_retired="voted down on 3 episodes",
    )


async def test_digest_counts_votes_and_lessons(engine: AsyncEngine) -> None:
    await fill(engine)
    digest = await build_digest(EpisodeStore(engine), SqlMemoryStore(engine))
    text = digest.text()
    assert "Notes drafted: 2 · abstentions: 1 · failures: 1 · rejected inputs: 1" in text
    assert "Votes: 👍 2 · 👎 1 (67% of votes helpful)" in text
    assert "Why it abstained: no source on fluoride" in text
    assert "evidence acquisition: 1 new lessons (e.g. “posts about fluoride in water”)" in text
    assert "most used: “posts about fluoride in water”" in text
    assert "Retired: posts about diets (voted down on 3 episodes)" in text
    assert "Home tab of EvoNote in Slack, or /lessons in Discord" in text
    assert digest.chart_png.startswith(b"\x89PNG")


async def test_a_long_reason_is_cut_at_a_word(engine: AsyncEngine) -> None:
    store = EpisodeStore(engine)
    row = await store.create(NoteRequest(post_ref="p"), Post(text="p"), "evolving")
    await store.claim(row.id or 0, "w", 60)
    reason = "no note passed the checks after 5 rewrites: " + "evidence " * 30
    await store.finish(row.id or 0, EpisodeOutcome(status="abstained", abstain_reason=reason))
    text = (await build_digest(store, None)).text()
    line = next(line for line in text.splitlines() if "Why it abstained" in line)
    assert line.endswith("evidence …"), line


async def test_digest_shows_the_standing_with_x_when_it_submits(engine: AsyncEngine) -> None:
    from pipeline.desk.standing import standing_of

    await fill(engine)
    plain = await build_digest(EpisodeStore(engine), SqlMemoryStore(engine))
    assert "On X:" not in plain.text()
    digest = await build_digest(
        EpisodeStore(engine), SqlMemoryStore(engine), standing=standing_of([])
    )
    line = next(x for x in digest.text().splitlines() if x.startswith("On X: "))
    assert line.startswith("On X: Admission (last 0 of 50 test notes): not yet · Live notes: 0")
    assert line.endswith(
        "Writing limit: 0 of 10 live notes written today (a new writer: 0 live notes, under 20)"
    )


async def test_digest_is_posted_to_slack_with_its_chart(
    engine: AsyncEngine,
    slack_api: MockSlackApi,
) -> None:
    await fill(engine)
    digest = await build_digest(EpisodeStore(engine), SqlMemoryStore(engine))
    client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
    await post_to_slack(client, "CDIGEST", digest)
    assert slack_api.uploads and slack_api.uploads[0].startswith(b"\x89PNG")
    complete = slack_api.called("files.completeUploadExternal")[-1]
    assert complete["channel_id"] == "CDIGEST"
    assert "Notes drafted: 2" in complete["initial_comment"]


def test_digest_command_prints_and_writes_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "chart.png"
    assert main(["digest", "--now", "--out", str(out)]) == 0
    assert "EvoNote daily digest" in capsys.readouterr().out
    assert out.read_bytes().startswith(b"\x89PNG")


async def test_the_chart_counts_rejected_inputs_apart_from_failures(engine: AsyncEngine) -> None:
    await fill(engine)
    episodes = await EpisodeStore(engine).recent(50)
    today = utcnow().date()
    counts = {name: days[0] for name, days in daily_outcomes(episodes, [today]).items()}
    # the same counts as the digest's text: 2 noted, 1 abstained, 1 failed, 1 rejected input
    assert counts == {"noted": 2, "abstained": 1, "failed": 1, "rejected input": 1}
