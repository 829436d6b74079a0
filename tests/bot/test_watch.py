"""Watchlists: new posts from watched accounts and searches become queued episodes, once."""

from __future__ import annotations

import asyncio
import gc
import warnings
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from tweepy.asynchronous import AsyncClient

from adapters.sqlstore.engine import sessions_of
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.tables import EpisodeRow
from adapters.sqlstore.watch import WatchStore
from adapters.x.community_notes import CommunityNotesApi
from adapters.x.watch import XWatchFeed
from bot.slack.home import scan_blocks
from bot.watch import LastScan, WatchScanner
from pipeline.post_choice import ScanPolicy
from tests.conftest import NetworkGuard
from tests.fakes.ports import FakeChatModel
from tests.fakes.processes import free_port
from tests.fakes.service import fake_note_service
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.x_api import LoopbackSession, MockXApi


def tweet(number: int, text: str, author: str = "111") -> dict[str, Any]:
    return {
        "id": str(number),
        "text": text,
        "author_id": author,
        "lang": "en",
        "created_at": "2021-02-01T12:00:00.000Z",
        "edit_history_tweet_ids": [str(number)],
    }


TIMELINE = {
    "data": [
        tweet(503, "Cooking pasta tonight"),
        tweet(502, "The flu shot gives you the flu"),
        tweet(501, "Vaccines cause autism"),
    ],
    "includes": {"users": [{"id": "111", "name": "H", "username": "healthguru"}]},
    "meta": {"result_count": 3, "newest_id": "503", "oldest_id": "501"},
}
SEARCH = {
    "data": [tweet(601, "Ivermectin cures covid, vaccines useless", author="222")],
    "includes": {"users": [{"id": "222", "name": "O", "username": "other"}]},
    "meta": {"result_count": 1, "newest_id": "601"},
}


class Screen:
    answers = frozenset({"HealthRelevance"})

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> Any:
        text = messages[-1]["content"]
        self.seen.append(text)
        return {"about_health": "pasta" not in text, "reason": ""}


@pytest.fixture
async def x_api(network_guard: NetworkGuard) -> AsyncIterator[MockXApi]:
    api = MockXApi()
    await api.start()
    network_guard.allow(api.port)
    api.answer(
        "/2/users/by/username/healthguru",
        {"data": {"id": "111", "name": "H", "username": "healthguru"}},
    )
    api.answer("/2/users/111/tweets", TIMELINE)
    api.answer("/2/tweets/search/recent", SEARCH)
    yield api
    await api.stop()


@pytest.fixture
async def feed(x_api: MockXApi) -> AsyncIterator[XWatchFeed]:
    client = AsyncClient(bearer_token="b")
    client.session = LoopbackSession(x_api.port)
    yield XWatchFeed(client)
    await client.session.close()


# an hour after the fixtures' posts: within the scans' age limit
AN_HOUR_LATER = datetime(2021, 2, 1, 13, tzinfo=UTC)


def scanner(
    engine: AsyncEngine, feed: XWatchFeed, screen: Screen, watches: list[tuple[str, str]]
) -> WatchScanner:
    return WatchScanner(
        feed,
        WatchStore(engine),
        fake_note_service(engine),
        watches,
        health_filter=FakeChatModel(screen),
        clock=lambda: AN_HOUR_LATER,
    )


async def test_new_health_posts_are_queued_once(
    engine: AsyncEngine, feed: XWatchFeed, x_api: MockXApi
) -> None:
    screen = Screen()
    watches = [("account", "healthguru"), ("query", "ivermectin OR vaccines")]
    first = await scanner(engine, feed, screen, watches).run_once()
    store = EpisodeStore(engine)
    rows = [await store.get(i) for i in first]
    assert [r.post.post_id for r in rows if r] == ["501", "502", "601"]  # oldest first
    assert {r.source for r in rows if r} == {"x_watch"}
    # a scanned post carries no vouch (#57): two watches activated an attacker's lesson
    async with sessions_of(engine)() as session:
        vouched = [(await session.get(EpisodeRow, i)).requester_vouched for i in first]  # type: ignore[union-attr]
    assert vouched == [False, False, False]
    assert rows[0] is not None and rows[0].post_ref == "https://x.com/healthguru/status/501"
    assert len(screen.seen) == 4  # the pasta post was screened out
    state = await WatchStore(engine).get("account:healthguru")
    assert state is not None and (state.newest_id, state.user_id) == ("503", "111")

    x_api.requests.clear()
    restarted = scanner(engine, feed, Screen(), watches)  # a new process: state from the db
    assert await restarted.run_once() == []  # X answered the same posts again: none re-queued
    paths = [r.path for r in x_api.requests]
    assert "/2/users/by/username/healthguru" not in paths  # the user id was remembered
    timeline = next(r for r in x_api.requests if r.path == "/2/users/111/tweets")
    assert timeline.query["since_id"] == "503"
    search = next(r for r in x_api.requests if r.path == "/2/tweets/search/recent")
    assert search.query["since_id"] == "601"
    assert "-is:retweet" in search.query["query"]


async def test_a_failing_watch_does_not_stop_the_others(
    engine: AsyncEngine, feed: XWatchFeed, x_api: MockXApi
) -> None:
    x_api.answer(
        "/2/users/by/username/gone",
        {
            "errors": [
                {
                    "type": "https://api.twitter.com/2/problems/resource-not-found",
                    "title": "Not Found Error",
                    "detail": "Could not find user with username: [gone].",
                }
            ]
        },
    )
    queued = await scanner(
        engine, feed, Screen(), [("account", "gone"), ("query", "vaccines")]
    ).run_once()
    assert len(queued) == 1
    assert await WatchStore(engine).get("account:gone") is None


async def test_posts_eligible_for_notes_are_a_scan_source(
    engine: AsyncEngine, feed: XWatchFeed
) -> None:
    import httpx
    import respx

    from adapters.x.community_notes import CommunityNotesApi
    from adapters.x.oauth import OAuth1Credentials

    async with httpx.AsyncClient() as http:
        api = CommunityNotesApi(http, OAuth1Credentials("a", "b", "c", "d"))
        watcher = scanner(engine, feed, Screen(), [])
        watcher.eligible = api
        with respx.mock:
            route = respx.get("https://api.x.com/2/notes/search/posts_eligible_for_notes")
            route.respond(
                200,
                json={
                    "data": [tweet(701, "Raw milk cures allergies", author="333")],
                    "includes": {"users": [{"id": "333", "name": "M", "username": "milkfan"}]},
                    "meta": {"result_count": 1},
                },
            )
            queued = await watcher.run_once()
            assert route.calls.last.request.url.params["test_mode"] == "true"
            assert route.calls.last.request.url.params["max_results"] == "20"
            # a cycle that may take more posts asks X's feed for as many (at most 100)
            watcher.policy = ScanPolicy(per_cycle=60)
            await watcher.run_once(dry_run=True)
            assert route.calls.last.request.url.params["max_results"] == "60"
    row = await EpisodeStore(engine).get(queued[0])
    assert row is not None
    assert row.post_ref == "https://x.com/milkfan/status/701"
    assert row.requester == "eligible"


async def test_the_feed_brings_what_requesters_said_and_skips_what_x_would_refuse(
    engine: AsyncEngine, feed: XWatchFeed
) -> None:
    """From the eligible-posts feed (its recorded shapes): note requests and suggested
    sources come with the post; a post X shows a matched media note on, or one that already
    carries a note of ours, is not queued."""
    import httpx
    import respx

    from adapters.sqlstore.submissions import SubmissionStore
    from adapters.x.community_notes import CommunityNotesApi
    from adapters.x.oauth import OAuth1Credentials
    from pipeline.desk.episode import Submission
    from pipeline.post import Post
    from pipeline.request import NoteRequest

    asked = {
        **tweet(801, "Raw milk cures allergies", author="333"),
        "note_request_suggestions": [
            {
                "suggestion": "Raw milk carries listeria; pasteurisation does not cause allergy",
                "source_link": "https://www.fda.gov/food/raw-milk",
                "suggestion_id": "1890000000000000001",
            },
            {"suggestion": None, "source_link": None, "suggestion_id": "1890000000000000002"},
        ],
        "suggested_source_links_with_counts": [
            {"url": "https://x.com/CDCgov/status/123", "count": 2},
            {"url": "https://www.fda.gov/food/raw-milk", "count": 5},
        ],
    }
    shown = {
        **tweet(802, "Raw milk cures asthma", author="333"),
        "matched_media_notes": [{"note_id": "9", "match_status": "matched_and_shown"}],
    }
    ours = tweet(803, "Raw milk cures eczema", author="333")
    store = EpisodeStore(engine)
    earlier = await fake_note_service(engine).enqueue_post(
        NoteRequest(post_ref="p"), Post(text="earlier", post_id="803")
    )
    assert earlier is not None and earlier.id is not None
    await SubmissionStore(engine).add(
        Submission(
            episode_id=earlier.id,
            post_id="803",
            note_id="42",
            classification="not_misleading",
            submitted_by="mod",
        )
    )
    async with httpx.AsyncClient() as http:
        api = CommunityNotesApi(
            http, OAuth1Credentials("a", "b", "c", "d"), feed_size="small", feed_lang="all"
        )
        watcher = scanner(engine, feed, Screen(), [])
        watcher.eligible, watcher.noted = api, SubmissionStore(engine)
        with respx.mock:
            route = respx.get("https://api.x.com/2/notes/search/posts_eligible_for_notes")
            route.respond(
                200,
                json={
                    "data": [asked, shown, ours],
                    "includes": {"users": [{"id": "333", "name": "M", "username": "milkfan"}]},
                    "meta": {"result_count": 3},
                },
            )
            queued = await watcher.run_once()
            params = route.calls.last.request.url.params
    assert params["post_selection"] == "feed_size:small,feed_lang:all"
    for field in ("note_request_suggestions", "suggested_source_links_with_counts"):
        assert field in params["tweet.fields"].split(",")
    assert len(queued) == 1
    row = await store.get(queued[0])
    assert row is not None and row.post.post_id == "801"
    assert [r.text for r in row.post.requests] == [
        "Raw milk carries listeria; pasteurisation does not cause allergy"
    ]
    assert row.post.suggested_links() == [
        "https://www.fda.gov/food/raw-milk",
        "https://x.com/CDCgov/status/123",
    ]


async def test_a_scan_drafts_no_post_past_the_age_limit_and_says_why(
    engine: AsyncEngine, feed: XWatchFeed, caplog: pytest.LogCaptureFixture
) -> None:
    """Two days after the fixtures' posts every one of them is past the 24 h limit: none is
    screened (no model call) or queued, and the scan's log says why for each."""
    screen = Screen()
    watcher = scanner(engine, feed, screen, [("account", "healthguru")])
    watcher.clock = lambda: AN_HOUR_LATER + timedelta(days=2)
    with caplog.at_level("INFO", logger="bot.watch"):
        assert await watcher.run_once() == []
    assert screen.seen == []
    assert caplog.text.count("h old, past the 24 h limit") == 3


async def test_a_scan_that_dies_while_queueing_finds_the_same_posts_next_time(
    engine: AsyncEngine, feed: XWatchFeed
) -> None:
    """The database goes away after the first post is queued: the watch's newest id is not
    saved, so the next scan fetches the posts again and queues the rest, each once."""
    watches = [("account", "healthguru")]
    dying = scanner(engine, feed, Screen(), watches)
    real = dying.notes.enqueue_post
    calls = 0

    async def enqueue_then_fail(request: Any, post: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise ConnectionError("the database went away")
        return await real(request, post)

    dying.notes.enqueue_post = enqueue_then_fail  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        await dying.run_once()
    assert await WatchStore(engine).get("account:healthguru") is None  # nothing marked seen
    again = await scanner(engine, feed, Screen(), watches).run_once()
    rows = [await EpisodeStore(engine).get(i) for i in again]
    assert [r.post.post_id for r in rows if r] == ["502"]  # 501 was queued before: not twice
    every = await EpisodeStore(engine).recent(10)
    assert sorted(r.post.post_id or "" for r in every) == ["501", "502"]


# Watchlists visible (issue 58): a dry run shows which posts a scan would take and why
# without queueing anything; a watch X cannot be reached for is one line, no traceback, and
# its HTTP session is closed; the App Home shows the last scan's choices.
WATCHES = [("account", "healthguru"), ("query", "ivermectin OR vaccines")]


async def test_a_dry_run_says_what_it_would_take_and_why_and_queues_nothing(
    engine: AsyncEngine, feed: XWatchFeed, x_api: MockXApi
) -> None:
    watcher = scanner(engine, feed, Screen(), WATCHES)
    assert await watcher.run_once(dry_run=True) == []
    report = watcher.last.report
    assert report is not None and report.dry_run
    taken = [line.text for line in report.lines if line.taken]
    assert len(taken) == 3 and report.summary().startswith("would take 3 of 4")
    first = next(t for t in taken if "post 501" in t)
    # the watch, the author, the link, the age, the velocity, the requests
    assert "post 501 by @healthguru (account:healthguru) https://x.com/healthguru/status/501" in (
        first
    )
    assert "1.0 h old" in first and "engagement" in first and "no note requests" in first
    skipped = next(line.text for line in report.lines if not line.taken)
    assert "post 503" in skipped and "not about health" in skipped
    assert await EpisodeStore(engine).recent(10) == []  # nothing queued
    assert await WatchStore(engine).get("account:healthguru") is None  # nothing marked seen
    # the real scan afterwards takes the same three
    assert len(await scanner(engine, feed, Screen(), WATCHES).run_once()) == 3


async def test_an_unreachable_x_is_one_line_a_watch_and_leaves_no_session_open(
    engine: AsyncEngine, caplog: pytest.LogCaptureFixture, network_guard: NetworkGuard
) -> None:
    closed = free_port()  # nothing listens there: refused at once
    network_guard.allow(closed)
    client = AsyncClient(bearer_token="b")
    unreachable = XWatchFeed(client, timeout_s=5)

    async def refused(*_: object, **__: object) -> object:
        session = client.session
        assert session is not None  # the feed's own, for every call
        async with session.get(f"http://127.0.0.1:{closed}/"):
            raise AssertionError("nothing listens there")

    client.request = refused  # type: ignore[method-assign]
    watcher = scanner(engine, unreachable, Screen(), WATCHES)
    watcher.clock = lambda: AN_HOUR_LATER
    with caplog.at_level("WARNING"):
        assert await watcher.run_once() == []
    warned = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 2 and all(r.exc_info is None for r in warned)
    assert all("cannot be reached" in r.getMessage() for r in warned)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        await watcher.close()
        await asyncio.sleep(0)
        gc.collect()
    assert client.session is None
    assert not [w for w in seen if "Unclosed" in str(w.message)]


async def test_the_home_shows_the_last_scan(
    engine: AsyncEngine, feed: XWatchFeed, x_api: MockXApi
) -> None:
    last = LastScan()
    watcher = scanner(engine, feed, Screen(), WATCHES)
    watcher.last = last
    await watcher.run_once()
    assert last.latest() is not None
    blocks = scan_blocks(last.report)  # type: ignore[arg-type]
    text = blocks[0]["text"]["text"]
    assert text.startswith("*Last watchlist scan*: took 3 of 4")
    assert text.index("✓") < text.index("·")  # the taken first
    assert "@healthguru" in text and "https://x.com/healthguru/status/501" in text


async def test_the_home_tab_publishes_the_last_scan(slack_api: MockSlackApi) -> None:
    from datetime import UTC, datetime

    from slack_sdk.web.async_client import AsyncWebClient

    from bot.settings import SlackSettings
    from bot.slack.home import LessonsHome
    from bot.slack.moderators import SlackModerators
    from bot.watch import ScanLine, ScanReport

    client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
    report = ScanReport(datetime(2026, 12, 3, 8, 0, tzinfo=UTC))
    report.lines += [
        ScanLine(False, "skipped post 7 by @a (query:x) https://x.com/a/status/7: 30.0 h old"),
        ScanLine(True, "taken post 9 by @b (account:b) https://x.com/b/status/9: 1.0 h old"),
    ]
    home = LessonsHome(
        client, SlackModerators(SlackSettings(), client), None, last_scan=lambda: report
    )
    await home.publish("U1")
    view = slack_api.called("views.publish")[-1]["view"]
    shown = str(view)
    assert "Last watchlist scan" in shown and "took 1 of 2" in shown
    assert shown.index("post 9") < shown.index("post 7")  # the taken first


async def test_live_a_cycle_drafts_as_many_posts_as_todays_writing_limit_takes(
    engine: AsyncEngine, feed: XWatchFeed, api: CommunityNotesApi
) -> None:
    """Live on X a new writer may write 10 notes a day: with 9 sent in the last 24 h, the
    cycle takes one post (the best), skips the other and says why; in test mode the same
    scan takes EVONOTE_X__WATCH_PER_CYCLE's 5, so both."""
    from adapters.sqlstore.submissions import SubmissionStore
    from pipeline.desk.episode import Submission
    from tests.fakes.community_notes import desk, noted_episode

    store, submissions = EpisodeStore(engine), SubmissionStore(engine)
    for n in range(9):
        episode = await noted_episode(store, post_id=str(80_000 + n))
        await submissions.add(
            Submission(
                episode_id=episode,
                post_id=str(80_000 + n),
                note_id=str(n),
                test_mode=False,
                classification="misinformed_or_potentially_misleading",
                submitted_by="mod",
            )
        )
    api.test_mode = False
    watcher = scanner(engine, feed, Screen(), [("account", "healthguru")])
    watcher.writing_limit = desk(engine, api)
    await watcher.run_once(dry_run=True)
    report = watcher.last.report
    assert report is not None
    assert report.sizing == "today's writing limit is 10, 9 spent in the last 24 h: room for 1"
    assert [line.taken for line in report.lines] == [False, True, False]  # pasta, then health
    assert report.lines[-1].text.endswith("1 better posts taken this cycle")
    assert report.summary().endswith("room for 1")
    api.test_mode = True
    await watcher.run_once(dry_run=True)
    report = watcher.last.report
    assert report is not None and report.sizing is None
    assert sum(line.taken for line in report.lines) == 2
