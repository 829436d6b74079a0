"""The scan_watchlists job: new posts from watched X accounts and searches become episodes."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from pipeline.desk.notes import NoteService
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.prompts import HealthRelevance, health_filter_messages
from pipeline.request import NoteRequest

log = logging.getLogger(__name__)


class WatchFeed(Protocol):
    """New posts of an account or a search (adapters/x implements it on X's API)."""

    async def user_id(self, username: str) -> str: ...

    async def account_posts(self, user_id: str, since_id: str | None, limit: int) -> list[Post]: ...

    async def search_posts(self, query: str, since_id: str | None, limit: int) -> list[Post]: ...

    def posts_from_payload(self, payload: dict[str, Any]) -> list[Post]: ...


class WatchMark(Protocol):
    newest_id: str | None
    user_id: str | None


class WatchState(Protocol):
    """The newest post seen per watch (adapters/sqlstore keeps it)."""

    async def get(self, key: str) -> WatchMark | None: ...

    async def save(self, key: str, newest_id: str | None, user_id: str | None) -> None: ...


class EligiblePosts(Protocol):
    """The Community Notes API's feed of posts eligible for notes."""

    async def eligible_posts(self, *, test_mode: bool) -> list[dict[str, Any]]: ...


class NotedPosts(Protocol):
    """Which posts already carry a note of ours (the submission log)."""

    async def for_post(self, post_id: str) -> object | None: ...


class WatchScanner:
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
    ) -> None:
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

    async def queue(self, posts: list[Post], requester: str) -> list[int]:
        queued: list[int] = []
        for post in posts:
            if post.media_note_shown:
                log.info("post %s skipped: X shows a matched media note on it", post.post_id)
                continue
            if self.noted and post.post_id and await self.noted.for_post(post.post_id):
                log.info("post %s skipped: it already carries a note of ours", post.post_id)
                continue
            if not await self.about_health(post):
                continue
            row = await self.notes.enqueue_post(
                NoteRequest(
                    post_ref=post.url or "",
                    requester=requester,
                    source="x_watch",
                    key=f"x:watch:{post.post_id}",
                ),
                post,
            )
            if row is not None:
                queued.append(row.id)
        return queued

    async def run_once(self) -> list[int]:
        """Queue an episode for every new post; returns their ids, oldest post first."""
        queued: list[int] = []
        if self.eligible is not None:
            try:
                for payload in await self.eligible.eligible_posts(test_mode=self.test_mode):
                    queued += await self.queue(self.feed.posts_from_payload(payload), "eligible")
            except EvoNoteError as e:
                log.warning("eligible posts skipped this time: %s", e)
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
            except EvoNoteError as e:
                log.warning("watch %s skipped this time: %s", key, e)
                continue
            queued += await self.queue(posts, key)
            newest = max((int(p.post_id or 0) for p in posts), default=None)
            if newest is not None and (since is None or newest > int(since)):
                since = str(newest)
            await self.state.save(key, since, user_id)
        return queued
