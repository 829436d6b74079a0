"""Post sources against answers nobody foresaw: wrong types, JSON nested thousands deep, huge
bodies, legal posts at every platform limit. Each is a post (cut where it must be) or a
`PostUnavailable` with a message: never another exception, never a body read whole."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import respx

from adapters.bluesky import APPVIEW, BlueskyPostSource
from adapters.mastodon import MastodonPostSource
from adapters.x.oembed import OEMBED_URL, XOEmbedSource
from pipeline.desk.posts import PostResolver
from pipeline.errors import PostUnavailable
from pipeline.post import MAX_ALT_TEXT_CHARS, MAX_LINKS, Post
from tests.fakes.post_pages import EMBED_HTML, PUBLIC, THREAD, status
from tests.fakes.resolver import StubResolver

MASTODON_URL = "https://social.example/@vax/109"
BLUESKY_URL = "https://bsky.app/profile/healthtruth.bsky.social/post/3kxyz"
X_URL = "https://x.com/drexample/status/1890"
STATUS_API = f"https://{PUBLIC}/api/v1/statuses/109"
THREAD_API = f"{APPVIEW}/xrpc/app.bsky.feed.getPostThread"


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


def nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def answers(base: dict[str, Any], paths: list[tuple[tuple[str | int, ...], Any]]) -> list[Any]:
    """`base` with one part replaced by each hostile value in turn."""
    out = []
    for path, value in paths:
        answer = copy.deepcopy(base)
        target = answer
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        out.append(answer)
    return out


WRONG_TYPES: list[Any] = [None, 7, 1.5, True, "text", [], [1, 2], {"x": 1}]
MASTODON_STATUS = status("109", "<p>Vaccines shed spike protein</p>", in_reply_to_id=None)
MASTODON_ANSWERS = [
    [],
    "a string",
    42,
    None,
    {"no": "content"},
    *answers(
        MASTODON_STATUS,
        [
            ((key,), bad)
            for key in ("content", "account", "media_attachments", "language", "id")
            for bad in WRONG_TYPES
        ],
    ),
    *answers(MASTODON_STATUS, [(("account", "acct"), bad) for bad in WRONG_TYPES]),
    *answers(MASTODON_STATUS, [(("media_attachments",), [bad]) for bad in WRONG_TYPES]),
]
BLUESKY_ANSWERS = [
    [],
    "a string",
    42,
    None,
    {"thread": "x"},
    {"thread": []},
    *answers(THREAD, [(("thread", "post"), bad) for bad in WRONG_TYPES]),
    *answers(THREAD, [(("thread", "post", "record"), bad) for bad in WRONG_TYPES]),
    *answers(THREAD, [(("thread", "post", "record", "facets"), bad) for bad in WRONG_TYPES]),
    *answers(THREAD, [(("thread", "post", "embed"), bad) for bad in WRONG_TYPES]),
    *answers(THREAD, [(("thread", "post", "author"), bad) for bad in WRONG_TYPES]),
    *answers(THREAD, [(("thread", "parent"), bad) for bad in WRONG_TYPES]),
]
OEMBED = {"html": EMBED_HTML, "author_url": "https://twitter.com/drexample"}
OEMBED_ANSWERS = [
    [],
    "x",
    3,
    None,
    {"html": "<p>no quote</p>"},
    {"html": "<" * 10000},
    *answers(OEMBED, [((key,), bad) for key in ("html", "author_url") for bad in WRONG_TYPES]),
]


async def outcome(source: Any, url: str) -> Post | PostUnavailable:
    """What a moderator would get: through the resolver, as in every front end."""
    try:
        return await PostResolver([source]).resolve(url)
    except PostUnavailable as e:
        return e


async def replay(
    source: Any, api: str, url: str, bodies: list[Any], raw: bytes
) -> list[PostUnavailable]:
    """Each hostile answer (JSON bodies, then one raw body) in turn; the refusals. None of
    them may reach the resolver's last line of defence: each adapter understood its failure."""
    results = []
    for body in bodies:
        respx.get(api).respond(200, json=body)
        results.append(await outcome(source, url))
    respx.get(api).respond(200, content=raw)
    results.append(await outcome(source, url))
    refused = [r for r in results if isinstance(r, PostUnavailable)]
    assert refused
    assert not [e for e in refused if "does not understand" in str(e)], refused
    return refused


@respx.mock
async def test_mastodon_answers_of_every_wrong_shape_are_messages(http: httpx.AsyncClient) -> None:
    source = MastodonPostSource(http, StubResolver({"social.example": [[PUBLIC]]}))
    assert len(MASTODON_ANSWERS) > 60
    refused = await replay(source, STATUS_API, MASTODON_URL, MASTODON_ANSWERS, nested(5_000))
    assert all("social.example" in str(e) for e in refused), refused


@respx.mock
async def test_bluesky_answers_of_every_wrong_shape_are_messages(http: httpx.AsyncClient) -> None:
    assert len(BLUESKY_ANSWERS) > 50
    refused = await replay(
        BlueskyPostSource(http), THREAD_API, BLUESKY_URL, BLUESKY_ANSWERS, nested(100_000)
    )
    assert all("Bluesky" in str(e) for e in refused), refused


@respx.mock
async def test_x_embed_answers_of_every_wrong_shape_are_messages(http: httpx.AsyncClient) -> None:
    refused = await replay(
        XOEmbedSource(http), OEMBED_URL, X_URL, OEMBED_ANSWERS, b"\xff\xfe not json"
    )
    assert all("X's embed" in str(e) for e in refused), refused


@respx.mock
async def test_a_huge_answer_is_refused_without_being_read_whole(http: httpx.AsyncClient) -> None:
    sent = 0

    async def endless() -> AsyncIterator[bytes]:
        nonlocal sent
        chunk = b" " * 65_536
        for _ in range(5_000):  # 300 MB if read to the end
            sent += len(chunk)
            yield chunk

    respx.get(THREAD_API).mock(return_value=httpx.Response(200, content=endless()))
    with pytest.raises(PostUnavailable, match="larger than 2,000,000 bytes"):
        await BlueskyPostSource(http).fetch(BLUESKY_URL)
    assert sent < 3_000_000


@respx.mock
async def test_legal_posts_at_each_platforms_limits_are_accepted(http: httpx.AsyncClient) -> None:
    """Bluesky: 700 emoji graphemes of alt text (2,100 code points), a 253-character handle,
    60 link facets. Mastodon: a 284-character acct, a 1,500-character description, a long
    language tag."""
    handle = ("h" * 60 + ".") * 4 + "bsky.social"  # 253 characters
    thread = copy.deepcopy(THREAD)
    view = thread["thread"]["post"]
    view["author"]["handle"] = handle
    view["embed"] = {
        "$type": "app.bsky.embed.images#view",
        "images": [{"fullsize": "https://cdn.example/i.jpg", "alt": "👩‍⚕️" * 700}],
    }
    view["record"]["facets"] = [
        {"features": [{"$type": "app.bsky.richtext.facet#link", "uri": f"https://l.example/{n}"}]}
        for n in range(60)
    ]
    respx.get(THREAD_API).respond(200, json=thread)
    post = await BlueskyPostSource(http).fetch(BLUESKY_URL)
    assert post.author == handle
    assert len(post.media[0].alt_text or "") == MAX_ALT_TEXT_CHARS
    assert len(post.links) == MAX_LINKS

    acct = "u" * 30 + "@" + "d" * 253
    long = status(
        "109",
        "<p>Shedding is real</p>",
        account={"acct": acct},
        language="zh-Hant-TW-x-private",
        media_attachments=[
            {"type": "image", "url": "https://f.example/a", "description": "d" * 1500}
        ],
    )
    respx.get(STATUS_API).respond(200, json=long)
    post = await MastodonPostSource(http, StubResolver({"social.example": [[PUBLIC]]})).fetch(
        MASTODON_URL
    )
    assert post.author == acct and post.language == "zh-Hant-TW"
    assert post.media[0].alt_text == "d" * 1500


async def test_an_adapter_that_breaks_is_a_message_from_the_resolver() -> None:
    class Broken:
        def handles(self, url: str) -> bool:
            return True

        async def fetch(self, url: str) -> Post:
            raise AttributeError("'list' object has no attribute 'get'")

    with pytest.raises(PostUnavailable, match="could not be read.*AttributeError"):
        await PostResolver([Broken()]).resolve("https://social.example/@a/1")
