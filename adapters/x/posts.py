"""`PostSource` for X over tweepy's AsyncClient (API v2, app-only bearer token).

A post comes with its long-form text (`note_tweet`), author, time, language, media (type, URL
or preview image, alt text), and the posts it quotes or replies to, with their media. Deleted,
protected and suspended posts arrive as HTTP 200 with `errors` and no `data`: each gets its own
message. Rate limits never make an interactive request sleep: it fails with the time to retry.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import aiohttp
import tweepy
from tweepy.asynchronous import AsyncClient

from adapters.x.urls import XStatusLinks, post_id
from pipeline.errors import InvalidPostInput, PostUnavailable, SourceRefused
from pipeline.post import (
    MAX_POST_CHARS,
    MAX_REQUESTS,
    Media,
    NoteRequestSuggestion,
    Post,
    SuggestedSource,
)

EXPANSIONS = [
    "attachments.media_keys",
    "author_id",
    "referenced_tweets.id",
    "referenced_tweets.id.attachments.media_keys",
    "referenced_tweets.id.author_id",
]
TWEET_FIELDS = [
    "created_at",
    "public_metrics",
    "lang",
    "note_tweet",
    "referenced_tweets",
    "attachments",
    "author_id",
    "entities",
]
MEDIA_FIELDS = ["type", "url", "preview_image_url", "alt_text", "variants"]
USER_FIELDS = ["username"]
PROBLEMS = {
    "resource-not-found": "the post was deleted, or never existed",
    "not-authorized-for-resource": "the post is protected: only approved followers can see it",
    "resource-unavailable": "the post is unavailable (its account may be suspended)",
}


def _why(error: BaseException) -> str:
    """The innermost reason a connection failed ('Name or service not known'), one line."""
    while error.__cause__ is not None:
        error = error.__cause__
    return getattr(error, "strerror", None) or str(error).splitlines()[0] or type(error).__name__


def _problem(errors: list[dict[str, Any]]) -> str:
    for error in errors:
        kind = str(error.get("type", "")).rsplit("/", 1)[-1]
        if kind in PROBLEMS:
            return PROBLEMS[kind]
        if error.get("title") == "Authorization Error":
            return PROBLEMS["not-authorized-for-resource"]
    detail = errors[0].get("detail") if errors else None
    return f"X returned no post ({detail or 'no reason given'})"


def engagement(metrics: object) -> int | None:
    """Likes, reposts, replies and quotes from X's `public_metrics`; None when absent."""
    if not isinstance(metrics, dict):
        return None
    counts = [metrics.get(k) for k in ("like_count", "retweet_count", "reply_count", "quote_count")]
    return sum(c for c in counts if isinstance(c, int) and c >= 0)


class XPostSource(XStatusLinks):
    def __init__(self, client: AsyncClient, timeout_s: float = 15.0) -> None:
        self.client = client
        self.timeout_s = timeout_s

    async def fetch(self, url: str) -> Post:
        number = post_id(url)
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self.client.get_tweet(
                    number,
                    expansions=EXPANSIONS,
                    tweet_fields=TWEET_FIELDS,
                    media_fields=MEDIA_FIELDS,
                    user_fields=USER_FIELDS,
                )
        except tweepy.TooManyRequests as e:
            reset = e.response.headers.get("x-rate-limit-reset")
            when = (
                datetime.fromtimestamp(int(reset), UTC).strftime("%H:%M UTC") if reset else "later"
            )
            # another reader of X (the embed) may still serve it
            raise SourceRefused(f"X's rate limit is reached; try again after {when}") from e
        except tweepy.Forbidden as e:
            raise SourceRefused(f"X's API refused the request (the token's tier): {e}") from e
        except tweepy.Unauthorized as e:
            raise PostUnavailable(
                "X rejected the bearer token: check EVONOTE_X__BEARER_TOKEN"
            ) from e
        except tweepy.NotFound as e:
            raise PostUnavailable(PROBLEMS["resource-not-found"]) from e
        except (tweepy.TweepyException, TimeoutError) as e:
            raise PostUnavailable(f"X could not be reached ({type(e).__name__})") from e
        except (aiohttp.ClientError, OSError) as e:
            # tweepy's async client lets aiohttp's connection errors through; the embed may
            # still be reachable, so the next reader of X is tried.
            raise SourceRefused(f"X's API could not be reached ({_why(e)})") from e
        if response.data is None:
            raise PostUnavailable(_problem(list(response.errors or [])))
        return self.to_post(response.data, response.includes or {}, url)

    def to_post(self, tweet: Any, includes: dict[str, Any], url: str | None) -> Post:
        media = {m.media_key: m for m in includes.get("media", [])}
        users = {u.id: u.username for u in includes.get("users", [])}
        tweets = {t.id: t for t in includes.get("tweets", [])}
        data = tweet.data
        text = (data.get("note_tweet") or {}).get("text") or data.get("text") or ""
        if len(text) > MAX_POST_CHARS:
            raise InvalidPostInput(
                f"the post has {len(text):,} characters; more than X's "
                f"{MAX_POST_CHARS:,}-character limit, so it is not read"
            )
        links = [
            u.get("expanded_url") or u.get("url")
            for u in (data.get("entities") or {}).get("urls", [])
        ]
        post = Post(
            text=text,
            url=url or f"https://x.com/i/status/{tweet.id}",
            post_id=str(tweet.id),
            author=users.get(tweet.author_id),
            created_at=tweet.created_at,
            engagement=engagement(data.get("public_metrics")),
            language=tweet.lang,
            media=[
                self._media(media[k])
                for k in (data.get("attachments") or {}).get("media_keys", [])
                if k in media
            ],
            links=[
                link
                for link in links
                if link
                and "/status/" not in link
                and "/photo/" not in link
                and "/video/" not in link
            ],
        )
        post.requests = [
            NoteRequestSuggestion(
                text=str(r.get("suggestion") or ""), source_link=r.get("source_link")
            )
            for r in data.get("note_request_suggestions") or []
            if isinstance(r, dict) and (r.get("suggestion") or r.get("source_link"))
        ][:MAX_REQUESTS]
        post.suggested_sources = [
            SuggestedSource(url=str(s["url"]), count=int(s.get("count") or 1))
            for s in data.get("suggested_source_links_with_counts") or []
            if isinstance(s, dict) and isinstance(s.get("url"), str) and len(s["url"]) <= 2000
        ][:MAX_REQUESTS]
        post.media_note_shown = any(
            isinstance(m, dict) and m.get("match_status") == "matched_and_shown"
            for m in data.get("matched_media_notes") or []
        )
        for reference in data.get("referenced_tweets") or []:
            referenced = tweets.get(int(reference["id"]))
            if referenced is None or url is None:  # one level: quote chains stop here
                continue
            nested = self.to_post(referenced, includes, None)
            if reference["type"] == "quoted":
                post.quoted = nested
            elif reference["type"] == "replied_to":
                post.replied_to = nested
        return post

    @staticmethod
    def _media(item: Any) -> Media:
        return Media(
            kind=item.type,
            url=item.url or item.preview_image_url,
            alt_text=getattr(item, "alt_text", None) or item.data.get("alt_text"),
        )
