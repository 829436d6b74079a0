"""New posts from watched accounts and searches (tweepy AsyncClient, API v2)."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import tweepy
from tweepy.asynchronous import AsyncClient

from adapters.x.posts import EXPANSIONS, MEDIA_FIELDS, TWEET_FIELDS, USER_FIELDS, XPostSource
from pipeline.errors import PostUnavailable
from pipeline.post import Post


class XWatchFeed:
    def __init__(self, client: AsyncClient, timeout_s: float = 15.0) -> None:
        self.client = client
        self.posts = XPostSource(client, timeout_s)
        self.timeout_s = timeout_s

    async def user_id(self, username: str) -> str:
        response = await self._call(self.client.get_user, username=username)
        if response.data is None:
            raise PostUnavailable(f"the X account @{username} does not exist or is suspended")
        return str(response.data.id)

    async def account_posts(self, user_id: str, since_id: str | None, limit: int) -> list[Post]:
        response = await self._call(
            self.client.get_users_tweets,
            user_id,
            since_id=since_id,
            max_results=max(5, min(limit, 100)),
            exclude=["retweets"],
            **self._fields(),
        )
        return self._posts(response)[:limit]

    async def search_posts(self, query: str, since_id: str | None, limit: int) -> list[Post]:
        response = await self._call(
            self.client.search_recent_tweets,
            f"({query}) -is:retweet",
            since_id=since_id,
            max_results=max(10, min(limit, 100)),
            **self._fields(),
        )
        return self._posts(response)[:limit]

    def posts_from_payload(self, payload: dict[str, Any]) -> list[Post]:
        """Posts from a raw API v2 payload (the Community Notes eligible-posts feed)."""
        raw = payload.get("includes") or {}
        includes = {
            "media": [tweepy.Media(m) for m in raw.get("media", [])],
            "users": [tweepy.User(u) for u in raw.get("users", [])],
            "tweets": [tweepy.Tweet(t) for t in raw.get("tweets", [])],
        }
        response = tweepy.Response(
            [tweepy.Tweet(t) for t in payload.get("data", [])],
            includes,
            [],
            payload.get("meta") or {},
        )
        return self._posts(response)

    @staticmethod
    def _fields() -> dict[str, list[str]]:
        return {
            "expansions": EXPANSIONS,
            "tweet_fields": TWEET_FIELDS,
            "media_fields": MEDIA_FIELDS,
            "user_fields": USER_FIELDS,
        }

    async def close(self) -> None:
        """The HTTP session of every scan, closed once (tweepy leaves a session of its own
        open when a request fails: 'Unclosed client session' on stop)."""
        session, self.client.session = self.client.session, None
        if session is not None:
            await session.close()

    async def _call(self, method: object, *args: object, **kwargs: object) -> tweepy.Response:
        if self.client.session is None:  # one session for every scan, closed by `close`
            self.client.session = aiohttp.ClientSession()
        try:
            async with asyncio.timeout(self.timeout_s):
                return await method(*args, **kwargs)  # type: ignore[operator]
        except TimeoutError as e:
            raise PostUnavailable(f"X did not answer in {self.timeout_s:g} s") from e
        except tweepy.TweepyException as e:
            raise PostUnavailable(f"X refused the request ({e})") from e
        except (aiohttp.ClientError, OSError) as e:  # no answer at all: the network, DNS
            raise PostUnavailable(f"X (api.twitter.com) cannot be reached ({e})") from e

    def _posts(self, response: tweepy.Response) -> list[Post]:
        includes = response.includes or {}
        users = {u.id: u.username for u in includes.get("users", [])}
        posts = [
            self.posts.to_post(
                t, includes, f"https://x.com/{users.get(t.author_id, 'i')}/status/{t.id}"
            )
            for t in response.data or []
        ]
        return sorted(posts, key=lambda p: int(p.post_id or 0))  # oldest first
