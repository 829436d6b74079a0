"""A hostile page costs a child process, never the server: extraction is bounded in memory
and time, and a page that breaks its bounds is "could not be read"."""

from __future__ import annotations

import resource
from collections.abc import AsyncIterator

import pytest

from adapters.web.extraction import ExtractionLimits, IsolatedExtractor
from pipeline.errors import PageUnreadable

ARTICLE = (
    "<html><head><title>Measles</title></head><body><article><h1>Measles</h1>"
    + "<p>Measles is a highly contagious disease caused by a virus. Two doses of the MMR "
    "vaccine are about 97% effective at preventing it.</p>" * 3 + "</article></body></html>"
).encode()


def one_paragraph_of(tag: str, n: int) -> bytes:
    inner = "".join(f"<{tag} href='/x'>w{i}</{tag}> " for i in range(n))
    return f"<html><body><article><p>{inner}</p></article></body></html>".encode()


@pytest.fixture
async def extractors() -> AsyncIterator[list[IsolatedExtractor]]:
    made: list[IsolatedExtractor] = []
    yield made
    for extractor in made:
        await extractor.aclose()


def extractor(made: list[IsolatedExtractor], **limits: float) -> IsolatedExtractor:
    made.append(IsolatedExtractor(ExtractionLimits(**limits)))  # type: ignore[arg-type]
    return made[-1]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def test_a_page_of_inline_tags_is_read_and_costs_this_process_nothing(
    extractors: list[IsolatedExtractor],
) -> None:
    """2 MB of 250,000 <b> in one paragraph: trafilatura's markdown output needed 21 GB."""
    bomb = one_paragraph_of("b", 250_000)
    assert len(bomb) > 2_000_000
    before = peak_rss_mb()
    page = await extractor(extractors).extract(bomb, "https://example.org/", "text/html", None)
    assert page.text.startswith("w0 w1 w2")
    assert peak_rss_mb() - before < 50  # in-process the same extraction peaks at +185 MB


async def test_a_page_too_slow_to_parse_is_cut_off_and_the_next_one_is_read(
    extractors: list[IsolatedExtractor],
) -> None:
    """20,000 links in one paragraph take trafilatura over a minute."""
    bounded = extractor(extractors, timeout_s=2)
    with pytest.raises(PageUnreadable, match="within 2 s of processing"):
        await bounded.extract(one_paragraph_of("a", 20_000), "https://e.org/", "text/html", None)
    page = await bounded.extract(ARTICLE, "https://example.org/measles", "text/html", None)
    assert "contagious" in page.text


async def test_a_page_that_needs_more_memory_than_allowed_fails_alone(
    extractors: list[IsolatedExtractor],
) -> None:
    tight = extractor(extractors, memory_bytes=150 << 20)
    with pytest.raises(PageUnreadable, match="could not be"):
        await tight.extract(one_paragraph_of("b", 250_000), "https://e.org/", "text/html", None)
    page = await tight.extract(ARTICLE, "https://example.org/measles", "text/html", None)
    assert page.title == "Measles"


async def test_a_parser_failure_is_a_message_not_a_traceback(
    extractors: list[IsolatedExtractor],
) -> None:
    with pytest.raises(PageUnreadable, match="PDF could not be parsed"):
        await extractor(extractors).extract(
            b"%PDF-1.7 junk", "https://e.org/a.pdf", "application/pdf", None
        )
