"""Watchlists visible (issue 58): a dry run shows which posts a scan would take and why
without queueing anything; a watch X cannot be reached for is one line, no traceback, and
its HTTP session is closed; the App Home shows the last scan's choices."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from tweepy.asynchronous import AsyncClient

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.watch import WatchStore
from adapters.x.watch import XWatchFeed
from bot.slack.home import scan_blocks
from bot.watch import LastScan
from tests.bot.test_watch import AN_HOUR_LATER, Screen, feed, scanner, x_api
from tests.conftest import NetworkGuard
from tests.fakes.processes import free_port
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.x_api import MockXApi

__all__ = ["feed", "x_api"]  # the fixtures, shared with test_watch
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
