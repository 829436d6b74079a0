"""What a person types becomes a Post, or a specific message saying what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.posts import PostResolver
from pipeline.errors import InvalidPostInput
from pipeline.post import Post


async def test_plain_text_becomes_a_post_with_its_links() -> None:
    post = await PostResolver().resolve("  Vaccines cause autism, see https://bad.example/x.  ")
    assert post.text.startswith("Vaccines cause autism")
    assert post.links == ["https://bad.example/x"]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("", "the post is empty"),
        ("   \n ", "the post is empty"),
        ("x" * 102_400, "102,400 characters; a post has at most 25,000"),
        ("www.cdc.gov/measles", "has no http:// or https://"),
        ("x.com/someone/status/123", "has no http:// or https://"),
        ("htp://x.com/someone/status/1", "not an http(s) link"),
        ("ftp://example.org/post", "not an http(s) link"),
        ("https://www.facebook.com/some/post/1", "unsupported site 'www.facebook.com'"),
        ("https://x.com/someone/status/1234567890", "EVONOTE_X__BEARER_TOKEN is not set"),
        ("https://mobile.twitter.com/a/status/1", "EVONOTE_X__BEARER_TOKEN is not set"),
    ],
)
async def test_bad_input_gets_a_specific_message(given: str, message: str) -> None:
    with pytest.raises(InvalidPostInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        await PostResolver().resolve(given)


async def test_a_configured_source_fetches_its_urls() -> None:
    class FakeX:
        def handles(self, url: str) -> bool:
            return "x.com" in url

        async def fetch(self, url: str) -> Post:
            return Post(text="fetched", url=url)

    post = await PostResolver([FakeX()]).resolve("https://x.com/a/status/1")
    assert post.text == "fetched" and post.url == "https://x.com/a/status/1"


async def test_json_file_with_context(tmp_path: Path) -> None:
    path = tmp_path / "post.json"
    path.write_text(
        json.dumps(
            {
                "text": "El sarampión no es peligroso https://example.org/a",
                "language": "es",
                "created_at": "2021-02-01T10:00:00Z",
                "media": [{"kind": "photo", "alt_text": "a chart of cases"}],
                "quoted": {"text": "Measles cases fell"},
            }
        ),
        encoding="utf-8",
    )
    post = await PostResolver().resolve(f"@{path}")
    assert post.language == "es"
    assert post.links == ["https://example.org/a"]
    assert post.quoted is not None and post.quoted.text == "Measles cases fell"
    assert "a chart of cases" in post.all_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"language": "en"}', "missing the field 'text'"),
        ("[1, 2]", "one JSON object"),
        ("{not json", "not valid JSON"),
        ('{"text": "hi", "created_at": "yesterday"}', "field 'created_at'"),
    ],
)
async def test_bad_json_files_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "post.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidPostInput, match=message):
        await PostResolver().resolve(f"@{path}")


async def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InvalidPostInput, match="does not exist"):
        await PostResolver().resolve(f"@{tmp_path / 'nope.json'}")
