"""Posts by URL from X: URL variants, and responses shaped like X's API v2 documentation."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from tweepy.asynchronous import AsyncClient

from adapters.x.posts import XPostSource, engagement
from adapters.x.urls import is_x_url, post_id
from pipeline.desk.posts import PostResolver
from pipeline.errors import InvalidPostInput, PostUnavailable
from tests.conftest import NetworkGuard
from tests.fakes.x_api import LoopbackSession, MockXApi

TWEET = "/2/tweets/1357"


@pytest.mark.parametrize(
    "url",
    [
        "https://x.com/someone/status/1357",
        "https://twitter.com/someone/status/1357?s=20",
        "https://mobile.twitter.com/someone/status/1357/photo/1",
        "http://www.x.com/a_b/status/1357",
        "https://fxtwitter.com/someone/status/1357",
        "https://vxtwitter.com/someone/status/1357#m",
        "https://x.com/i/web/status/1357",
        "https://twitter.com/someone/statuses/1357",
    ],
)
def test_status_url_variants(url: str) -> None:
    assert is_x_url(url)
    assert post_id(url) == "1357"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://x.com/someone", "not to a post"),
        ("https://x.com/someone/status/", "not to a post"),
        ("https://x.com/someone/status/12ab", "is not a post number"),
        ("https://x.com/search?q=vaccines", "not to a post"),
    ],
)
def test_malformed_status_urls(url: str, message: str) -> None:
    with pytest.raises(InvalidPostInput, match=message):
        post_id(url)


def test_other_sites_are_not_x() -> None:
    assert not is_x_url("https://x.com.evil.example/someone/status/1")
    assert not is_x_url("https://nottwitter.com/a/status/1")


@pytest.fixture
async def x_api(network_guard: NetworkGuard) -> AsyncIterator[MockXApi]:
    api = MockXApi()
    await api.start()
    network_guard.allow(api.port)
    yield api
    await api.stop()


@pytest.fixture
async def source(x_api: MockXApi) -> AsyncIterator[XPostSource]:
    client = AsyncClient(bearer_token="test-bearer")
    client.session = LoopbackSession(x_api.port)
    yield XPostSource(client)
    await client.session.close()


FULL: dict[str, Any] = {
    "data": {
        "id": "1357",
        "text": "Vaccines cause autism! See https://t.co/abc https://t.co/pic",
        "created_at": "2021-02-01T12:00:00.000Z",
        "lang": "en",
        "author_id": "111",
        "note_tweet": {"text": "Vaccines cause autism! A long post about it. https://t.co/abc"},
        "attachments": {"media_keys": ["3_1", "7_2"]},
        "entities": {
            "urls": [
                {
                    "start": 27,
                    "end": 50,
                    "url": "https://t.co/abc",
                    "expanded_url": "https://blog.example/study",
                    "display_url": "blog.example/study",
                },
                {
                    "start": 51,
                    "end": 74,
                    "url": "https://t.co/pic",
                    "expanded_url": "https://x.com/someone/status/1357/photo/1",
                    "display_url": "pic.x.com/pic",
                },
            ]
        },
        "referenced_tweets": [{"type": "quoted", "id": "999"}, {"type": "replied_to", "id": "888"}],
        "edit_history_tweet_ids": ["1357"],
    },
    "includes": {
        "media": [
            {
                "media_key": "3_1",
                "type": "photo",
                "url": "https://pbs.twimg.com/media/a.jpg",
                "alt_text": "A chart of autism diagnoses by year",
            },
            {
                "media_key": "7_2",
                "type": "video",
                "preview_image_url": "https://pbs.twimg.com/ext_tw_video_thumb/b.jpg",
                "variants": [
                    {
                        "bit_rate": 2176000,
                        "content_type": "video/mp4",
                        "url": "https://video.twimg.com/b.mp4",
                    }
                ],
            },
            {"media_key": "3_9", "type": "photo", "url": "https://pbs.twimg.com/media/q.jpg"},
        ],
        "users": [
            {"id": "111", "name": "Some One", "username": "someone"},
            {"id": "222", "name": "Other", "username": "other"},
        ],
        "tweets": [
            {
                "id": "999",
                "text": "Study shows link",
                "author_id": "222",
                "lang": "en",
                "created_at": "2021-01-30T09:00:00.000Z",
                "attachments": {"media_keys": ["3_9"]},
                "edit_history_tweet_ids": ["999"],
                "referenced_tweets": [{"type": "quoted", "id": "777"}],
            },
            {
                "id": "888",
                "text": "What do you think about vaccines?",
                "author_id": "222",
                "edit_history_tweet_ids": ["888"],
            },
        ],
    },
}


async def test_a_post_with_long_text_media_quote_and_reply(
    x_api: MockXApi, source: XPostSource
) -> None:
    x_api.answer(TWEET, FULL)
    post = await source.fetch("https://x.com/someone/status/1357?s=20")
    assert post.text.startswith("Vaccines cause autism! A long post")  # note_tweet wins
    assert (post.post_id, post.author, post.language) == ("1357", "someone", "en")
    assert post.created_at is not None and post.created_at.year == 2021
    assert [m.kind for m in post.media] == ["photo", "video"]
    assert post.media[0].alt_text == "A chart of autism diagnoses by year"
    assert post.media[1].url == "https://pbs.twimg.com/ext_tw_video_thumb/b.jpg"
    assert post.links == ["https://blog.example/study"]  # the post's own photo link dropped
    assert post.quoted is not None and post.quoted.text == "Study shows link"
    assert post.quoted.author == "other"
    assert post.quoted.media[0].url == "https://pbs.twimg.com/media/q.jpg"
    assert post.quoted.quoted is None  # quote chains stop after one level
    assert post.replied_to is not None and "vaccines" in post.replied_to.text
    request = x_api.requests[-1]
    assert request.headers["Authorization"] == "Bearer test-bearer"
    assert "note_tweet" in request.query["tweet.fields"]
    assert "referenced_tweets.id" in request.query["expansions"]


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (
            {
                "type": "https://api.twitter.com/2/problems/resource-not-found",
                "title": "Not Found Error",
                "detail": "Could not find tweet with id: [1357].",
            },
            "deleted, or never existed",
        ),
        (
            {
                "type": "https://api.twitter.com/2/problems/not-authorized-for-resource",
                "title": "Authorization Error",
                "detail": "Sorry, you are not authorized to see the Tweet with id: [1357].",
            },
            "protected",
        ),
        (
            {
                "type": "https://api.twitter.com/2/problems/resource-unavailable",
                "title": "Forbidden",
                "detail": "User has been suspended: [someone].",
            },
            "suspended",
        ),
    ],
)
async def test_missing_posts_arrive_as_200_with_errors(
    x_api: MockXApi, source: XPostSource, error: dict[str, str], message: str
) -> None:
    x_api.answer(
        TWEET,
        {
            "errors": [
                {
                    "value": "1357",
                    "resource_type": "tweet",
                    "parameter": "id",
                    "resource_id": "1357",
                    **error,
                }
            ]
        },
    )
    with pytest.raises(PostUnavailable, match=message):
        await source.fetch("https://x.com/someone/status/1357")


async def test_rate_limits_say_when_without_waiting(x_api: MockXApi, source: XPostSource) -> None:
    x_api.answer(
        TWEET,
        {"title": "Too Many Requests", "status": 429},
        status=429,
        headers={"x-rate-limit-reset": "1612180800", "x-rate-limit-remaining": "0"},
    )
    with pytest.raises(PostUnavailable, match=r"rate limit is reached; try again after 12:00 UTC"):
        await source.fetch("https://x.com/someone/status/1357")


async def test_a_bad_token_names_the_variable(x_api: MockXApi, source: XPostSource) -> None:
    x_api.answer(
        TWEET, {"title": "Unauthorized", "status": 401, "detail": "Unauthorized"}, status=401
    )
    with pytest.raises(PostUnavailable, match="EVONOTE_X__BEARER_TOKEN"):
        await source.fetch("https://x.com/someone/status/1357")


async def test_media_only_posts_and_oversized_posts(x_api: MockXApi, source: XPostSource) -> None:
    x_api.answer(
        TWEET,
        {
            "data": {
                "id": "1357",
                "text": "",
                "author_id": "111",
                "edit_history_tweet_ids": ["1357"],
                "attachments": {"media_keys": ["3_1"]},
            },
            "includes": {
                "media": [FULL["includes"]["media"][0]],
                "users": FULL["includes"]["users"],
            },
        },
    )
    post = await source.fetch("https://x.com/someone/status/1357")
    assert post.text == ""
    assert "A chart of autism diagnoses" in post.all_text()
    x_api.answer(
        TWEET,
        {
            "data": {
                "id": "1357",
                "text": "x",
                "edit_history_tweet_ids": ["1357"],
                "note_tweet": {"text": "y" * 25_001},
            }
        },
    )
    with pytest.raises(InvalidPostInput, match="25,001 characters"):
        await source.fetch("https://x.com/someone/status/1357")


async def test_the_resolver_routes_x_urls_to_the_source(
    x_api: MockXApi, source: XPostSource
) -> None:
    x_api.answer(TWEET, FULL)
    post = await PostResolver([source]).resolve("https://fxtwitter.com/someone/status/1357")
    assert post.post_id == "1357"


def test_x_public_metrics_are_the_posts_engagement() -> None:
    metrics = {"like_count": 10, "retweet_count": 5, "reply_count": 2, "quote_count": 1}
    assert engagement(metrics) == 18
    assert engagement({**metrics, "impression_count": 9000}) == 18  # views are no engagement
    assert engagement(None) is None
    assert engagement({"like_count": "many"}) == 0
