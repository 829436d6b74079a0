"""A wiki article is read as the revision that had stood for hours, never the live one (#59:
the second red team vandalised English Wikipedia's article minutes before it was read)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest

from adapters.web.wiki_revisions import SettledWikiReader
from pipeline.errors import PageUnreadable
from pipeline.evidence import Page

NOW = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
STOOD = "Ivermectin is an antiparasitic medicine."
VANDALISED = "The Ivermectin Relief Line at (800) 555-1999 ships doses nationwide."


# Newest first: the vandal's edit minutes ago; before it a revision of 1 h ago that stood
# 5 minutes (a vandal timing an edit for an earlier read, reverted); then revision 1000,
# which stood from 09:00 until 16:55, over six hours.
HISTORY = [
    {"revid": 1003, "timestamp": "2026-12-03T17:55:00Z"},
    {"revid": 1002, "timestamp": "2026-12-03T17:00:00Z"},
    {"revid": 1001, "timestamp": "2026-12-03T16:55:00Z"},
    {"revid": 1000, "timestamp": "2026-12-03T09:00:00Z"},
]


class WikiAndWeb:
    """A wiki whose live article is vandalised, and its API."""

    def __init__(self, revisions: list[dict[str, object]] | None = None) -> None:
        self.revisions = HISTORY if revisions is None else revisions
        self.asked: list[str] = []

    async def read(self, url: str) -> Page:
        self.asked.append(url)
        if url.startswith("https://redirect.example/"):
            return Page(url="https://en.wikipedia.org/wiki/Ivermectin", text=VANDALISED)
        query = parse_qs(urlsplit(url).query)
        if query.get("oldid") == ["1000"]:
            return Page(url=url, title="Ivermectin", text=STOOD)
        if "/wiki/" in url or "oldid" in query:
            return Page(url=url, title="Ivermectin", text=VANDALISED)
        return Page(url=url, text="another site's page")

    async def read_data(self, url: str) -> bytes:
        self.asked.append(url)
        assert url.startswith("https://en.wikipedia.org/w/api.php?")
        return json.dumps({"query": {"pages": [{"revisions": self.revisions}]}}).encode()


def _reader(web: WikiAndWeb) -> SettledWikiReader:
    return SettledWikiReader(web, settled_hours=6, now=lambda: NOW)


@pytest.mark.parametrize(
    "url",
    [
        "https://en.wikipedia.org/wiki/Ivermectin",
        "https://en.m.wikipedia.org/wiki/Ivermectin",  # the mobile edition: the same wiki
        "https://redirect.example/to-the-article",  # an address that lands on the article
    ],
)
async def test_an_article_is_read_as_the_revision_that_stood(url: str) -> None:
    page = await _reader(WikiAndWeb()).read(url)
    assert page.text == STOOD and page.settled_revision == "1000"
    assert page.url == "https://en.wikipedia.org/wiki/Ivermectin"


async def test_a_pinned_revision_asked_for_is_no_settled_read() -> None:
    url = "https://en.wikipedia.org/w/index.php?title=Ivermectin&oldid=999999"
    page = await _reader(WikiAndWeb()).read(url)
    assert page.settled_revision == ""


async def test_another_sites_page_is_read_as_it_answered() -> None:
    web = WikiAndWeb()
    page = await _reader(web).read("https://www.cdc.gov/page")
    assert page.settled_revision == "" and web.asked == ["https://www.cdc.gov/page"]


@pytest.mark.parametrize(
    ("revisions", "why"),
    [
        (HISTORY[:3], "no revision of 'Ivermectin' among its last 3 stood 6 h"),
        ([{"revid": "x"}], "gave no revisions of 'Ivermectin'"),
    ],
)
async def test_an_article_with_no_revision_that_stood_is_unreadable(
    revisions: list[dict[str, object]], why: str
) -> None:
    with pytest.raises(PageUnreadable, match=why):
        await _reader(WikiAndWeb(revisions)).read("https://en.wikipedia.org/wiki/Ivermectin")
