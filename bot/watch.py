"""The scan_watchlists job: new posts from watched X accounts and searches become episodes."""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from pipeline.desk.notes import NoteService
from pipeline.desk.send_rules import WritingRoom
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.post_choice import ScanPolicy, age_h, choose, engagement_per_hour, too_old
from pipeline.prompts import HealthRelevance, health_filter_messages
from pipeline.request import WATCH_SOURCE, NoteRequest

log = logging.getLogger(__name__)

DAY_S = 24 * 3600.0
ELIGIBLE_PAGE = 20  # eligible posts asked for a cycle at the least
ELIGIBLE_MOST = 100  # X's most a call (`max_results` 1–100, REFERENCE.md)


class WatchFeed(Protocol):
    """New posts of an account or a search (adapters/x implements it on X's API)."""

    async def user_id(self, username: str) -> str: ...

    async def account_posts(self, user_id: str, since_id: str | None, limit: int) -> list[Post]: ...

    async def search_posts(self, query: str, since_id: str | None, limit: int) -> list[Post]: ...

    def posts_from_payload(self, payload: dict[str, Any]) -> list[Post]: ...

    async def close(self) -> None: ...


class WatchMark(Protocol):
    newest_id: str | None
    user_id: str | None


class WatchState(Protocol):
    """The newest post seen per watch (adapters/sqlstore keeps it)."""

    async def get(self, key: str) -> WatchMark | None: ...

    async def save(self, key: str, newest_id: str | None, user_id: str | None) -> None: ...


class EligiblePosts(Protocol):
    """The Community Notes API's feed of posts eligible for notes."""

    async def eligible_posts(
        self, *, test_mode: bool, max_results: int
    ) -> list[dict[str, Any]]: ...


class NotedPosts(Protocol):
    """Which posts already carry a note of ours (the submission log)."""

    async def for_post(self, post_id: str) -> object | None: ...


class WritingLimit(Protocol):
    """Today's writing limit live on X and how much of it is spent (the submission desk)."""

    async def writing_room(self) -> WritingRoom | None: ...


class DraftedAuthors(Protocol):
    """How many posts of each author were drafted lately (the episode store counts them)."""

    async def authors_since(self, seconds: float, source: str) -> Counter[str]: ...


@dataclass(frozen=True)
class ScanLine:
    """What a scan did with one post, or one watch it could not read, and why."""

    taken: bool
    text: str
    failed: bool = False  # a watch (or the eligible feed) that could not be read


@dataclass
class ScanReport:
    """A scan's choices, for `evonote x scan --dry-run`, the log and the App Home."""

    at: datetime
    lines: list[ScanLine] = field(default_factory=list)
    dry_run: bool = False
    sizing: str | None = None  # how many posts the cycle could take, and why

    def summary(self) -> str:
        taken = sum(1 for line in self.lines if line.taken)
        verb = "would take" if self.dry_run else "took"
        said = f"{verb} {taken} of {len(self.lines)} (at {self.at:%Y-%m-%d %H:%M} UTC)"
        return f"{said}; {self.sizing}" if self.sizing else said


@dataclass
class LastScan:
    """The last scan's report, where the App Home reads it (the scanner and the Slack app
    share a process in `serve`'s role all and scheduler; a gateway elsewhere shows none)."""

    report: ScanReport | None = None

    def latest(self) -> ScanReport | None:
        return self.report


def describe(post: Post, watch: str, now: datetime) -> str:
    """Post 501 by @who (account:who) https://x.com/…: 2.0 h old, 12 engagements/h, 3 note
    requests: what the choice weighs, in one line."""
    age = age_h(post, now)
    velocity = engagement_per_hour(post, now)
    facts = [
        f"{age:.1f} h old" if age is not None else "age unknown",
        f"{velocity:.0f} engagements/h" if velocity is not None else "engagement unknown",
        f"{len(post.requests)} note requests" if post.requests else "no note requests",
    ]
    author = f" by @{post.author}" if post.author else ""
    return f"post {post.post_id}{author} ({watch}) {post.url or ''}: " + ", ".join(facts)


class WatchScanner:
    """Each cycle: the new posts of every watch (and X's eligible posts), without those X
    already shows a media note on, those a note of ours covers and those not about health;
    then the best few by `pipeline.post_choice` (young, fast, requested first; a few per author
    a day), queued best first. Every post's fate is logged with its reason."""

    def __init__(
        self,
        feed: WatchFeed,
        state: WatchState,
        notes: NoteService,
        watches: list[tuple[str, str]],
        *,
        health_filter: ChatModel | None = None,
        limit: int = 10,
        timeout_s: float = 30.0,
        eligible: EligiblePosts | None = None,
        test_mode: bool = True,
        noted: NotedPosts | None = None,
        policy: ScanPolicy | None = None,
        drafted: DraftedAuthors | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        last: LastScan | None = None,
        writing_limit: WritingLimit | None = None,
    ) -> None:
        self.writing_limit = writing_limit
        self.eligible = eligible
        self.noted = noted
        self.test_mode = test_mode
        self.feed = feed
        self.state = state
        self.notes = notes
        self.watches = watches
        self.health_filter = health_filter
        self.limit = limit
        self.timeout_s = timeout_s
        self.policy = policy or ScanPolicy()
        self.drafted = drafted
        self.clock = clock
        self.last = last or LastScan()

    async def close(self) -> None:
        await self.feed.close()

    async def about_health(self, post: Post) -> bool:
        if self.health_filter is None:
            return True
        try:
            reply = await self.health_filter.structured(
                health_filter_messages(post.all_text()), HealthRelevance, timeout_s=self.timeout_s
            )
        except EvoNoteError as e:
            log.warning("health filter failed, keeping post %s: %s", post.post_id, e)
            return True  # better a note too many than a health post missed
        return reply.value.about_health

    async def worth_choosing(self, post: Post, now: datetime) -> str | None:
        """Why a found post is no candidate at all, else None."""
        if post.media_note_shown:
            return "X shows a matched media note on it"
        if self.noted and post.post_id and await self.noted.for_post(post.post_id):
            return "it already carries a note of ours"
        if too_old(post, now, self.policy):
            return None  # `choose` says so, with its age
        if not await self.about_health(post):
            return "not about health"
        return None

    def failed(self, report: ScanReport, text: str) -> None:
        report.lines.append(ScanLine(False, text, failed=True))
        if not report.dry_run:
            log.warning("%s", text)

    def said(self, report: ScanReport, taken: bool, text: str) -> None:
        report.lines.append(ScanLine(taken, text))
        if not report.dry_run:
            log.info("%s", text)

    async def queue(
        self,
        found: list[tuple[Post, str]],
        report: ScanReport,
        policy: ScanPolicy,
        drafted: Counter[str] | None,
    ) -> list[int]:
        """The chosen posts of `found` ((post, the watch that found it)) queued, best first
        (none in a dry run), at most the cycle's size (`policy`; `drafted`: the scans' posts
        per author in the last 24 h); each post's fate in `report`."""
        now = report.at
        watch_of: dict[int, str] = {id(post): requester for post, requester in found}
        candidates: list[Post] = []
        for post, requester in found:
            if (why := await self.worth_choosing(post, now)) is not None:
                self.said(report, False, f"skipped {describe(post, requester, now)} — {why}")
                continue
            candidates.append(post)
        queued: list[int] = []
        for choice in choose(candidates, now, policy, drafted):
            post = choice.post
            line = f"{describe(post, watch_of[id(post)], now)} — {choice.why}"
            self.said(report, choice.taken, f"{'taken' if choice.taken else 'skipped'} {line}")
            if not choice.taken or report.dry_run:
                continue
            row = await self.notes.enqueue_post(
                NoteRequest(
                    post_ref=post.url or "",
                    requester=watch_of[id(post)],
                    source=WATCH_SOURCE,
                    key=f"x:watch:{post.post_id}",
                    vouched=False,  # what a scan finds is the post's author's word (#57)
                ),
                post,
            )
            if row is not None:
                queued.append(row.id)
        return queued

    async def cycle_policy(self, report: ScanReport, drafted: Counter[str] | None) -> ScanPolicy:
        """Live on X, a cycle drafts as many posts as today's writing limit still takes: the
        limit less what the last 24 h spent — the scans' drafts (each may become one of
        today's live notes) or the live notes sent and queued, whichever is more. In test
        mode, or with no writing limit known, EVONOTE_X__WATCH_PER_CYCLE a cycle."""
        room = await self.writing_limit.writing_room() if self.writing_limit else None
        if room is None:
            return self.policy
        spent = max(sum(drafted.values()) if drafted else 0, room.used)
        per_cycle = max(room.limit - spent, 0)
        report.sizing = (
            f"today's writing limit is {room.limit}, {spent} spent in the last 24 h: "
            f"room for {per_cycle}"
        )
        return dataclasses.replace(self.policy, per_cycle=per_cycle)

    async def run_once(self, *, dry_run: bool = False) -> list[int]:
        """Queue the best of the new posts; returns their episode ids, best first. Each
        watch's newest post is saved only once the cycle's choice is queued: a scan killed
        between the two finds the same posts again, and a post queued already is not queued
        twice (its request key). `dry_run`: what it would take, in `self.last`, and nothing
        queued or saved."""
        report = ScanReport(self.clock(), dry_run=dry_run)
        found: list[tuple[Post, str]] = []
        seen: list[tuple[str, str | None, str | None]] = []  # (watch, newest id, user id)
        drafted = await self.drafted.authors_since(DAY_S, WATCH_SOURCE) if self.drafted else None
        policy = await self.cycle_policy(report, drafted)
        if self.eligible is not None:
            # as many posts as the cycle may take, and no fewer than a page to choose from
            wanted = min(max(ELIGIBLE_PAGE, policy.per_cycle), ELIGIBLE_MOST)
            try:
                for payload in await self.eligible.eligible_posts(
                    test_mode=self.test_mode, max_results=wanted
                ):
                    found += [(p, "eligible") for p in self.feed.posts_from_payload(payload)]
            except EvoNoteError as e:
                self.failed(report, f"eligible posts not read: {e}")
        for kind, value in self.watches:
            key = f"{kind}:{value}"
            state = await self.state.get(key)
            since = state.newest_id if state else None
            user_id = state.user_id if state else None
            try:
                if kind == "account":
                    user_id = user_id or await self.feed.user_id(value)
                    posts = await self.feed.account_posts(user_id, since, self.limit)
                else:
                    posts = await self.feed.search_posts(value, since, self.limit)
            except EvoNoteError as e:  # one line a watch and scan, no traceback
                self.failed(report, f"watch {key} not read this time: {e}")
                continue
            found += [(p, key) for p in posts]
            newest = max((int(p.post_id or 0) for p in posts), default=None)
            if newest is not None and (since is None or newest > int(since)):
                since = str(newest)
            seen.append((key, since, user_id))
        queued = await self.queue(found, report, policy, drafted)
        self.last.report = report
        if not dry_run:
            for key, since, user_id in seen:
                await self.state.save(key, since, user_id)
        return queued
