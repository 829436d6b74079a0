"""Paste any post link: X without a key (its embed), Bluesky, Mastodon — each against a local
mock with the real service's response shape, and each failure with its own message."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import httpx
import pytest
import respx

from adapters.bluesky import APPVIEW, BlueskyPostSource
from adapters.mastodon import MastodonPostSource
from adapters.x.oembed import OEMBED_URL, XOEmbedSource
from pipeline.desk.posts import PostResolver
from pipeline.errors import PostUnavailable, SourceRefused
from pipeline.post import Post
from tests.fakes.post_pages import EMBED_HTML, PUBLIC, THREAD, status
from tests.fakes.resolver import StubResolver


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


@respx.mock
async def test_x_without_a_key_reads_the_embed(http: httpx.AsyncClient) -> None:
    route = respx.get(OEMBED_URL).respond(
        200,
        json={
            "html": EMBED_HTML,
            "author_name": "Dr Example",
            "author_url": "https://twitter.com/drexample",
        },
    )
    post = await XOEmbedSource(http).fetch("https://x.com/drexample/status/1890?s=20")
    assert route.calls[0].request.url.params["url"] == "https://x.com/i/status/1890"
    assert post.text.startswith('Measles vaccine & autism: the "truth" they hide\nread ')
    assert post.links == ["https://vaxtruth.example/study", "https://t.co/def"]
    assert (post.author, post.post_id, post.language) == ("drexample", "1890", "en")
    assert post.created_at == datetime(2025, 2, 10, 12, tzinfo=UTC)
    assert post.unseen and "media" in post.unseen[0]  # the brief and the card say so


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (404, "does not exist on X"),
        (403, "protected or its account suspended"),
        (429, "rate-limiting"),
        (500, "HTTP 500"),
    ],
)
@respx.mock
async def test_x_embed_failures_say_what_happened(
    http: httpx.AsyncClient, status: int, says: str
) -> None:
    respx.get(OEMBED_URL).respond(status, json={"error": "x"})
    with pytest.raises(PostUnavailable, match=says):
        await XOEmbedSource(http).fetch("https://twitter.com/a/status/42")


class RefusingApi:
    """X's API when the token's tier or quota refuses: another reader may still serve it."""

    def handles(self, url: str) -> bool:
        return "x.com" in url

    async def fetch(self, url: str) -> Post:
        raise SourceRefused("X's rate limit is reached; try again after 10:15 UTC")


@respx.mock
async def test_the_embed_is_the_fallback_when_the_api_refuses(http: httpx.AsyncClient) -> None:
    respx.get(OEMBED_URL).respond(200, json={"html": EMBED_HTML})
    resolver = PostResolver([RefusingApi(), XOEmbedSource(http)])
    post = await resolver.resolve("https://x.com/drexample/status/1890")
    assert post.post_id == "1890"
    with pytest.raises(SourceRefused, match="rate limit"):  # with no fallback: the API's word
        await PostResolver([RefusingApi()]).resolve("https://x.com/drexample/status/1890")


@respx.mock
async def test_bluesky_reads_text_facets_images_quote_and_parent(http: httpx.AsyncClient) -> None:
    route = respx.get(f"{APPVIEW}/xrpc/app.bsky.feed.getPostThread").respond(200, json=THREAD)
    source = BlueskyPostSource(http)
    url = "https://bsky.app/profile/healthtruth.bsky.social/post/3kxyz"
    assert source.handles(url)
    post = await source.fetch(url)
    sent = route.calls[0].request.url.params
    assert sent["uri"] == "at://healthtruth.bsky.social/app.bsky.feed.post/3kxyz"
    assert post.text == "Fluoride lowers IQ, see this study"
    assert post.links == ["https://fluoride.example/iq"]
    assert post.media[0].alt_text == "A chart of IQ scores by fluoride level"
    assert post.quoted is not None and post.quoted.text == "Water fluoridation is safe."
    assert post.replied_to is not None and post.replied_to.author == "parent.bsky.social"
    assert (post.author, post.language) == ("healthtruth.bsky.social", "en")
    assert post.created_at == datetime(2025, 3, 1, 8, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("status", "body", "says"),
    [
        (400, {"error": "NotFound", "message": "Post not found"}, "does not exist on Bluesky"),
        (200, {"thread": {"$type": "app.bsky.feed.defs#notFoundPost"}}, "does not exist"),
        (200, {"thread": {"$type": "app.bsky.feed.defs#blockedPost"}}, "not visible"),
        (429, {"error": "RateLimitExceeded"}, "rate-limiting"),
    ],
)
@respx.mock
async def test_bluesky_failures_say_what_happened(
    http: httpx.AsyncClient, status: int, body: dict[str, object], says: str
) -> None:
    respx.get(f"{APPVIEW}/xrpc/app.bsky.feed.getPostThread").respond(status, json=body)
    with pytest.raises(PostUnavailable, match=says):
        await BlueskyPostSource(http).fetch("https://bsky.app/profile/a.bsky.social/post/3k")


@respx.mock
async def test_mastodon_reads_a_status_with_a_warning_and_its_reply_target(
    http: httpx.AsyncClient,
) -> None:
    reply = status(
        "109",
        '<p>Vaccines shed spike protein <a href="https://shed.example/x" rel="nofollow">'
        'shed.example/x</a> <a href="https://social.example/tags/vax" class="mention hashtag">'
        "#vax</a></p><p>Stay safe</p>",
        spoiler_text="vaccine talk",
        in_reply_to_id="100",
        media_attachments=[
            {"type": "image", "url": "https://files.example/a.png", "description": "A graph"}
        ],
    )
    respx.get(f"https://{PUBLIC}/api/v1/statuses/109").respond(200, json=reply)
    respx.get(f"https://{PUBLIC}/api/v1/statuses/100").respond(
        200, json=status("100", "<p>Do mRNA vaccines shed?</p>")
    )
    source = MastodonPostSource(http, StubResolver({"social.example": [[PUBLIC]]}))
    url = "https://social.example/@vax/109"
    assert source.handles(url)
    post = await source.fetch(url)
    request = respx.calls[0].request
    assert request.headers["host"] == "social.example"  # pinned to the checked address
    assert post.text.startswith("[content warning: vaccine talk]\nVaccines shed spike protein")
    assert "Stay safe" in post.text
    assert post.links == ["https://shed.example/x"]  # not the hashtag
    assert post.media[0].alt_text == "A graph"
    assert post.replied_to is not None and post.replied_to.text == "Do mRNA vaccines shed?"


@respx.mock
async def test_a_mastodon_host_on_a_private_address_is_never_fetched(
    http: httpx.AsyncClient,
) -> None:
    source = MastodonPostSource(http, StubResolver({"internal.example": [["10.0.0.5"]]}))
    with pytest.raises(PostUnavailable, match="refused: internal.example resolves to 10.0.0.5"):
        await source.fetch("https://internal.example/@admin/1")
    assert respx.calls.call_count == 0


@pytest.mark.parametrize(
    ("code", "says"),
    [(404, "does not exist on social.example"), (401, "not public"), (429, "rate-limiting")],
)
@respx.mock
async def test_mastodon_failures_say_what_happened(
    http: httpx.AsyncClient, code: int, says: str
) -> None:
    respx.get(f"https://{PUBLIC}/api/v1/statuses/7").respond(code, json={"error": "x"})
    source = MastodonPostSource(http, StubResolver({"social.example": [[PUBLIC]]}))
    with pytest.raises(PostUnavailable, match=says):
        await source.fetch("https://social.example/@vax/7")


async def test_unsupported_sites_are_named_with_the_supported_ones() -> None:
    with pytest.raises(Exception, match="X .*Bluesky .*Mastodon"):
        await PostResolver([]).resolve("https://www.facebook.com/some/post/1")


def test_check_reads_an_x_link_without_a_token(
    app_env: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole application: no EVONOTE_X__BEARER_TOKEN, an X link, a note about it."""
    import json

    from bot.cli import main

    with respx.mock:
        respx.route(host="127.0.0.1").pass_through()  # the scripted model server
        respx.get(OEMBED_URL).respond(200, json={"html": EMBED_HTML})
        code = main(["check", "https://x.com/drexample/status/1890", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)
    assert result["status"] == "noted"
    assert result["post"]["post_id"] == "1890" and result["post"]["unseen"]


def test_cards_and_the_cli_say_what_the_source_could_not_see() -> None:
    from bot.discord.embeds import card_embed
    from bot.render import episode_text
    from bot.slack.blocks import card_blocks
    from pipeline.desk.cards import card_for
    from pipeline.desk.episode import Episode

    episode = Episode(
        id=3,
        source="cli",
        requester="me",
        status="noted",
        note_text="n\n\nhttps://a.org",
        char_count=3,
        post=Post(text="MMR causes autism", unseen=["media, alt text and quoted posts"]),
        created_at=datetime.now(UTC),
    )
    card = card_for(episode)
    assert "not visible: media, alt text and quoted posts" in str(card_blocks(card))
    fields = {f.name: f.value for f in card_embed(card).fields}
    assert "not visible: media" in fields["Length"]
    assert "not visible to EvoNote: media" in episode_text(episode)


async def test_every_spelling_of_a_post_link_names_the_same_post(http: httpx.AsyncClient) -> None:
    """What a pasted link is deduplicated on: the post, not the link's spelling."""
    resolver = PostResolver(
        [
            XOEmbedSource(http),
            BlueskyPostSource(http),
            MastodonPostSource(http, StubResolver({"social.example": [[PUBLIC]]})),
        ]
    )
    same = {
        "https://x.com/drexample/status/1890",
        "https://twitter.com/drexample/status/1890?s=20",
        "https://mobile.twitter.com/i/web/status/1890#m",
    }
    assert {resolver.post_key(u) for u in same} == {"x:1890"}
    bsky = "https://bsky.app/profile/a.bsky.social/post/3kabc"
    assert (
        resolver.post_key(bsky)
        == resolver.post_key(bsky + "/")
        == ("at://a.bsky.social/app.bsky.feed.post/3kabc")
    )
    toot = "https://social.example/@alice/1122"
    assert resolver.post_key(toot) == "mastodon:social.example:1122"
    for page in ("https://x.com/home", "https://bsky.app/profile/a.bsky.social", "https://a.org/x"):
        assert resolver.post_key(page) is None, page
