"""Our notes looked at again 1 h and 3 h after they went out (`LateRevisions`), through X's API
(mocked with respx) and the episode's own pipeline over fakes: a revision goes only when it
adds a source of standing, once per window, whatever stops midway."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import CommunityNotesApi
from pipeline.budget import EvidenceBudget
from pipeline.desk.cards import card_for
from pipeline.desk.episode import Submission
from pipeline.desk.late_revision_rules import windows_of
from pipeline.desk.late_revisions import LateRevisions
from pipeline.desk.outcomes import outcome_report
from pipeline.desk.revision_log import RevisionState
from pipeline.desk.send_rules import DAY_S, writer_standing
from pipeline.episode import EpisodeRunner
from pipeline.evidence import Evidence
from pipeline.ports import NoMemory
from scheduler.notes_sent import revise_sent_notes
from tests.fakes.community_notes import API, desk, noted_episode
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeChatModel, FakeWeb, ServedModel, health_pages
from tests.fakes.submissions import NOW

POST, FIRST, REVISED = "1357", "5001", "6001"
# what the research over `health_pages` cites: two sources of standing
FOUND = ["https://www.cdc.gov/vaccines/mmr-safety", "https://www.who.int/news-room/measles"]


def at(hours: float) -> datetime:
    """`hours` after the note was sent."""
    return NOW + timedelta(hours=hours)


class Clock:
    def __init__(self, hours: float) -> None:
        self.now = at(hours)

    def __call__(self) -> datetime:
        return self.now


class Research:
    """The episode's runner over fakes, counted, its model server up or `down`."""

    def __init__(self) -> None:
        self.served = ServedModel(FakeChatModel(ResearchPolicy()))
        self.runner = EpisodeRunner(
            model=self.served,
            search=FakeWeb(health_pages()),
            reader=FakeWeb(health_pages()),
            memory=NoMemory(),
            budget=EvidenceBudget(),
        )
        self.runs = 0

    async def run(self, post: object) -> object:
        self.runs += 1
        return await self.runner.run(post)  # type: ignore[arg-type]


async def sent_note(
    engine: AsyncEngine,
    cited: list[str] | None = None,
    *,
    sent: datetime = NOW,
    test_mode: bool = True,
) -> int:
    """Our note on POST, sent at `sent`, citing `cited` (a CDC page the research does not
    find, by default)."""
    pages = [
        Evidence(url=u, title="Measles", excerpt="Vaccination is safe.", quotes=[], tier=4)
        for u in cited or []
    ]
    episode = await noted_episode(EpisodeStore(engine), POST, cited=pages or None)
    await SubmissionStore(engine).add(
        Submission(
            episode_id=episode,
            post_id=POST,
            note_id=FIRST,
            classification="misinformed_or_potentially_misleading",
            misleading_tags=["factual_error"],
            submitted_by="mod",
            test_mode=test_mode,
            submitted_at=sent,
        )
    )
    return episode


def reviser(
    engine: AsyncEngine, api: CommunityNotesApi, research: Research, clock: Clock
) -> LateRevisions:
    submitter, store = desk(engine, api), SubmissionStore(engine)
    return LateRevisions(
        submitter.episodes,
        store,
        store,
        submitter.rules,
        submitter.links,
        research,  # type: ignore[arg-type]
        windows_of([1, 3], 1),
        research_timeout_s=60,
        clock=clock,
    )


def x_api(*listed: str) -> tuple[respx.Route, respx.Route]:
    """X's answers: DELETE of the first note, POST of the revision; `notes_written` lists
    `listed` on POST."""
    delete = respx.delete(f"{API}/2/notes/{FIRST}").mock(
        side_effect=[
            httpx.Response(200, json={"data": {"deleted": True}}),
            httpx.Response(404, json={"title": "Not Found", "detail": "note is not found"}),
            httpx.Response(404, json={"title": "Not Found", "detail": "note is not found"}),
        ]
    )
    post = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": REVISED}})
    notes = [{"id": n, "info": {"post_id": POST}, "status": "needs_more_ratings"} for n in listed]
    respx.get(f"{API}/2/notes/search/notes_written").respond(200, json={"data": notes, "meta": {}})
    return delete, post


@respx.mock
async def test_a_revision_that_adds_evidence_replaces_the_note_once_per_window(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """At 1 h 5 min the research cites two sources of standing the note sent does not: the
    note is withdrawn and the revision written, once (a second run asks nothing). At 3 h 10
    min the research finds the same two: nothing new, dropped. Between the windows (2 h 30)
    and before the first (50 min), nothing is researched. The card and `x report` say it."""
    episode = await sent_note(engine)
    delete, post = x_api()
    research, clock = Research(), Clock(50 / 60)
    revisions = reviser(engine, api, research, clock)
    assert await revisions.run() == [] and research.runs == 0
    clock.now = at(1 + 5 / 60)
    (line,) = await revisions.run()
    assert line.startswith(f"revision at 1 h of note {FIRST} sent to X as note {REVISED}")
    assert "adds 2 source(s) of standing" in line
    assert delete.call_count == 1 and post.call_count == 1
    sent_text = post.calls[0].request.content.decode()
    assert FOUND[0] in sent_text and '"test_mode":true' in sent_text.replace(" ", "")
    assert await revisions.run() == [] and research.runs == 1  # the window is done
    store = SubmissionStore(engine)
    (row,) = await store.all()
    assert (row.note_id, row.status) == (REVISED, None)
    assert row.status_history[-1]["replaced"] == FIRST
    clock.now = at(2.5)
    assert await revisions.run() == [] and research.runs == 1
    clock.now = at(3 + 10 / 60)
    (line,) = await revisions.run()
    assert line.startswith(f"revision of note {REVISED} (episode {episode}) at 3 h dropped")
    assert "adds no evidence" in line
    assert (delete.call_count, post.call_count, research.runs) == (1, 1, 2)
    assert await revisions.run() == []
    one, three = await store.late_revisions()
    assert (one.window, one.state, one.added_sources) == ("1 h", RevisionState.SENT, FOUND)
    assert (three.window, three.state) == ("3 h", RevisionState.DROPPED)
    # shown where the note is shown, and counted
    submitter = desk(engine, api)
    row_of_episode = await submitter.episodes.get(episode)
    assert row_of_episode is not None
    card = card_for(row_of_episode, facts=await submitter.card_facts(row_of_episode))
    assert card.submission is not None
    assert f"as note {REVISED}" in card.submission
    assert f"Revised at 1 h as note {REVISED}" in card.submission
    assert "Looked at again at 3 h, kept as sent: adds no evidence" in card.submission
    report = outcome_report(await store.all(), revisions=await store.late_revisions())
    assert report[2] == (
        "Revisions after sending (kept only when they add evidence): 2 looked at, 1 sent "
        "(1 h: 1), 1 dropped, 0 failed, 0 on the way"
    )
    assert report[3].startswith("  dropped: adds no evidence: 1")


@respx.mock
async def test_a_revision_on_the_same_sources_is_dropped_and_says_why(
    engine: AsyncEngine, api: CommunityNotesApi, caplog: pytest.LogCaptureFixture
) -> None:
    """The note sent cites both pages the research finds (another spelling of one): the new
    draft adds nothing; X is asked nothing, and the job logs the reason."""
    await sent_note(engine, cited=[FOUND[0], "http://who.int/news-room/measles/"])
    delete, post = x_api()
    research = Research()
    with caplog.at_level(logging.INFO, logger="scheduler.notes_sent"):
        await revise_sent_notes(reviser(engine, api, research, Clock(1.2)))
    assert research.runs == 1 and delete.call_count == 0 and post.call_count == 0
    (message,) = [r.getMessage() for r in caplog.records]
    assert "at 1 h dropped: adds no evidence: no source of standing" in message
    (row,) = await SubmissionStore(engine).all()
    assert row.note_id == FIRST


@respx.mock
async def test_a_kill_between_decision_and_sending_loses_nothing_and_sends_once(
    engine: AsyncEngine, api: CommunityNotesApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the decision is stored, before X is asked: the next process sends it
    without researching again. Killed again after X wrote the revision, before it was
    recorded: the next run finds it among our notes on the post and sends nothing."""
    await sent_note(engine)
    delete, post = x_api(REVISED)
    research = Research()

    async def killed(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    real_send = LateRevisions._send
    monkeypatch.setattr(LateRevisions, "_send", killed)
    with pytest.raises(KeyboardInterrupt):
        await reviser(engine, api, research, Clock(1.1)).run()
    (decided,) = await SubmissionStore(engine).late_revisions()
    assert decided.state == RevisionState.DECIDED and post.call_count == 0
    monkeypatch.setattr(LateRevisions, "_send", real_send)

    real_record = SubmissionStore.revision_sent
    monkeypatch.setattr(SubmissionStore, "revision_sent", killed)
    # X lists no note but the first one until it has written the revision
    respx.get(f"{API}/2/notes/search/notes_written").mock(
        side_effect=[
            httpx.Response(200, json={"data": [], "meta": {}}),
            httpx.Response(
                200, json={"data": [{"id": REVISED, "info": {"post_id": POST}}], "meta": {}}
            ),
        ]
    )
    with pytest.raises(KeyboardInterrupt):
        await reviser(engine, api, research, Clock(1.2)).run()
    assert (delete.call_count, post.call_count) == (1, 1)
    monkeypatch.setattr(SubmissionStore, "revision_sent", real_record)
    (line,) = await reviser(engine, api, research, Clock(1.3)).run()
    assert line == f"revision at 1 h of note {FIRST} found on X as note {REVISED} after a restart"
    assert (delete.call_count, post.call_count, research.runs) == (1, 1, 1)
    (row,) = await SubmissionStore(engine).all()
    assert row.note_id == REVISED


@respx.mock
async def test_two_runs_at_once_decide_one_revision_and_send_it_once(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """Two schedulers (a lease handed over mid-run) look at the same note in the same
    window: one decision is stored, the other run stops; X gets one revision."""
    await sent_note(engine)
    delete, post = x_api()
    first, second = Research(), Research()
    lines = await asyncio.gather(
        reviser(engine, api, first, Clock(1.1)).run(),
        reviser(engine, api, second, Clock(1.1)).run(),
    )
    assert sorted(len(found) for found in lines) == [0, 1]
    assert post.call_count == 1 and delete.call_count == 1
    (revision,) = await SubmissionStore(engine).late_revisions()
    assert revision.state == RevisionState.SENT


@respx.mock
async def test_with_the_model_server_down_nothing_is_decided_until_it_answers(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """Down: the run says the revision waits, stores nothing and asks X nothing. Back within
    the window: the revision is decided and sent."""
    await sent_note(engine)
    delete, post = x_api()
    research = Research()
    research.served.down = True
    (line,) = await reviser(engine, api, research, Clock(1.1)).run()
    assert line == (
        f"revision of note {FIRST} (episode 1) at 1 h waits: the model server at "
        "http://127.0.0.1:8091/v1 refused the connection"
    )
    assert await SubmissionStore(engine).late_revisions() == []
    assert delete.call_count == 0 and post.call_count == 0
    research.served.down = False
    (line,) = await reviser(engine, api, research, Clock(1.5)).run()
    assert f"sent to X as note {REVISED}" in line


@respx.mock
async def test_a_revision_counts_against_the_day_and_waits_for_no_room(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """A revision is a new note to X: sent, it counts among the day's submissions. Live, with
    today's writing limit spent (a new writer's 10), a kept revision is dropped, and the note
    sent stays."""
    now = datetime.now(UTC)
    await sent_note(engine, sent=now - timedelta(minutes=70), test_mode=False)
    store = SubmissionStore(engine)
    for n in range(10):
        await store.add(
            Submission(
                episode_id=1,
                post_id=str(9000 + n),
                note_id=str(8000 + n),
                test_mode=False,
                classification="misinformed_or_potentially_misleading",
                submitted_by="mod",
                submitted_at=now - timedelta(minutes=5),
            )
        )
    delete, post = x_api()
    clock = Clock(0)
    clock.now = now
    (line,) = await reviser(engine, api, Research(), clock).run()
    assert line.startswith(f"revision at 1 h of note {FIRST} dropped: no room for it: today's")
    assert delete.call_count == 0 and post.call_count == 0
    assert await store.submitted_since(DAY_S) == 11


@respx.mock
async def test_a_revision_sent_counts_among_the_days_submissions(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    now = datetime.now(UTC)
    await sent_note(engine, sent=now - timedelta(minutes=70))
    x_api()
    store = SubmissionStore(engine)
    assert await store.submitted_since(DAY_S) == 1
    clock = Clock(0)
    clock.now = now
    (line,) = await reviser(engine, api, Research(), clock).run()
    assert f"sent to X as note {REVISED}" in line
    assert await store.submitted_since(DAY_S) == 2
    assert await store.submitted_since(DAY_S, destination="bluesky") == 0


@respx.mock
async def test_a_live_revision_counts_in_todays_writing_as_the_app_home_shows_it(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """X counts a revision as a new note: the standing's written-today (the App Home, `x
    status`, the cycle's room) counts it, as the limit check does."""
    now = datetime.now(UTC)
    await sent_note(engine, sent=now - timedelta(minutes=70), test_mode=False)
    x_api()
    store = SubmissionStore(engine)
    assert (await writer_standing(store)).written_today == 1
    clock = Clock(0)
    clock.now = now
    (line,) = await reviser(engine, api, Research(), clock).run()
    assert f"sent to X as note {REVISED} (live)" in line
    assert (await writer_standing(store)).written_today == 2


@respx.mock
async def test_a_revision_x_keeps_refusing_fails_after_three_runs_and_says_so(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """The note is withdrawn, then X refuses the revision: each run asks again (the note is
    gone already: X's "not found" is no error), and after three refusals the revision fails
    with a line that says the post has no note of ours; a fourth run asks X nothing."""
    await sent_note(engine)
    delete, post = x_api()
    post.respond(400, json={"title": "Invalid Request", "detail": "one note per post"})
    runs = [await reviser(engine, api, Research(), Clock(1.1 + k / 10)).run() for k in range(4)]
    assert [len(lines) for lines in runs] == [1, 1, 1, 0], runs
    assert runs[0][0].startswith(f"revision at 1 h of note {FIRST} not sent yet (")
    assert "one note per post" in runs[0][0] and runs[0][0].endswith("tried again next run")
    assert runs[2][0].startswith(f"revision at 1 h of note {FIRST} failed: X refused it 3 times")
    assert runs[2][0].endswith(f"post {POST} has no note of ours")
    assert (delete.call_count, post.call_count) == (3, 3)
    (revision,) = await SubmissionStore(engine).late_revisions()
    assert (revision.state, revision.attempts) == (RevisionState.FAILED, 3)
