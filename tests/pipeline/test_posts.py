"""What a person types becomes a Post, or a specific message saying what is wrong."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.desk.posts import MAX_POST_FILE_BYTES, PostResolver, read_post_file
from pipeline.errors import InvalidPostInput
from pipeline.post import MAX_ALT_TEXT_CHARS, MAX_LINKS, MAX_MEDIA, Post


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


def test_json_file_with_context(tmp_path: Path) -> None:
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
    post = read_post_file(path)
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
def test_bad_json_files_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "post.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidPostInput, match=message):
        read_post_file(path)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InvalidPostInput, match="does not exist"):
        read_post_file(tmp_path / "nope.json")


async def test_the_resolver_never_opens_a_path(tmp_path: Path) -> None:
    """What arrives from chat is never a file: `@path` is refused as a mention, unread."""
    secret = tmp_path / "post.json"
    secret.write_text(json.dumps({"text": "SECRET FILE CONTENT"}), encoding="utf-8")
    secret.chmod(0)  # an open() would fail loudly with PermissionError... as non-root
    for ref in (f"@{secret}", "@/dev/zero", "@/etc/passwd", "@someone"):
        with pytest.raises(InvalidPostInput, match="is a mention, not a post"):
            await PostResolver().resolve(ref)
    # with a space it is post text, nothing more
    post = await PostResolver().resolve(f"@{secret} is lying about vaccines")
    assert post.text.startswith("@") and "SECRET" not in post.text


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: p.mkdir(), "not a regular file"),
        (lambda p: p.write_bytes(b" " * (MAX_POST_FILE_BYTES + 1)), "a post file has at most"),
        (lambda p: p.write_bytes(b"\xff\xfe{}"), "not UTF-8"),
        (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "not usable JSON"),
        (lambda p: p.write_text('{"text": "a", "n": ' + "9" * 5000 + "}"), "not usable JSON"),
    ],
)
def test_cli_file_reads_are_bounded(tmp_path: Path, make: object, message: str) -> None:
    path = tmp_path / "post.json"
    make(path)  # type: ignore[operator]
    with pytest.raises(InvalidPostInput, match=message):
        read_post_file(path)


def test_a_path_with_nul_is_a_clear_message() -> None:
    with pytest.raises(InvalidPostInput, match="cannot be opened"):
        read_post_file(Path("post\x00.json"))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("existing_notes", [{"text": "n" * 100_000}], "existing_notes.0.text"),
        ("existing_notes", [{"text": "n"}] * 1000, "existing_notes"),
        ("quoted", {"text": "q" * 30_000}, "quoted.text"),
        ("quoted", {"text": "q", "quoted": {"text": "deeper"}}, "quoted"),
    ],
)
def test_every_post_part_has_a_limit(
    tmp_path: Path, field: str, value: object, message: str
) -> None:
    path = tmp_path / "post.json"
    path.write_text(json.dumps({"text": "claim", field: value}), encoding="utf-8")
    with pytest.raises(InvalidPostInput, match=f"field '{message}"):
        read_post_file(path)


def test_parts_a_platform_allows_longer_are_cut_not_refused(tmp_path: Path) -> None:
    """A legal post is always accepted (Bluesky alt text has no 2,000-character limit; a
    Mastodon acct may be 284 characters): the part is cut, the post still checked."""
    path = tmp_path / "post.json"
    post = {
        "text": "claim",
        "media": [{"kind": "photo", "alt_text": "🙂" * 2_100}] * 12,
        "links": ["https://a.example/" + "x" * 3_000]
        + [f"https://a.example/{n}" for n in range(60)],
        "author": "u" * 30 + "@" + "d" * 253,
        "language": "zh-Hant-TW-x-private",
    }
    path.write_text(json.dumps(post), encoding="utf-8")
    read = read_post_file(path)
    assert len(read.media) == MAX_MEDIA
    alt = read.media[0].alt_text or ""
    assert len(alt) == MAX_ALT_TEXT_CHARS and alt.endswith("…")
    assert read.links[0] == "https://a.example/0" and len(read.links) == MAX_LINKS
    assert read.author is not None and len(read.author) == 284
    assert read.language == "zh-Hant-TW"


@pytest.mark.parametrize("ref", ["http://example.com:99999/x", "http://[::1:80/"])
async def test_a_malformed_link_is_a_clear_message(ref: str) -> None:
    with pytest.raises(InvalidPostInput, match="not a valid link"):
        await PostResolver().resolve(ref)
