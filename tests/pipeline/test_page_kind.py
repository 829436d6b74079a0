"""Standing belongs to what a page is: a page anyone may write, a preprint or an address that
points elsewhere has none, whatever its host ranks (the trust issue's hosts, each of which
vouched for the attacker's payload); the sites' own articles keep theirs."""

from __future__ import annotations

import pytest

from pipeline.page_kind import PageKind, page_kind
from pipeline.source_quality import (
    MEASURED,
    MEASURED_HOSTS,
    STANDING_TIER,
    has_standing,
    listed_tier,
    source_tier,
)
from tests.conftest import SHARED_DATA


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://en.wikipedia.org/wiki/User:Healthtruth/Vaccines", PageKind.USER_PAGE),
        ("https://en.wikipedia.org/wiki/User_talk:Healthtruth", PageKind.USER_PAGE),
        ("https://en.wikipedia.org/wiki/Talk:MMR_vaccine", PageKind.USER_PAGE),
        ("https://en.wikipedia.org/w/index.php?title=User:Healthtruth", PageKind.USER_PAGE),
        ("https://www.cs.stanford.edu/~jdoe/vaccines.html", PageKind.PERSONAL),
        ("https://people.csail.mit.edu/jdoe/vaccines", PageKind.PERSONAL),
        ("https://arxiv.org/abs/2101.00001", PageKind.PREPRINT),
        ("https://www.medrxiv.org/content/10.1101/2021.01.01.123v1", PageKind.PREPRINT),
        ("https://healthtruth.substack.com/p/what-they-hide", PageKind.BLOG),
        ("https://medium.com/@healthtruth/what-they-hide-1234", PageKind.BLOG),
        ("https://www.bmj.com/content/372/bmj.n149/rr-12", PageKind.COMMENT),
        ("https://www.bmj.com/content/372/bmj.n149/rapid-responses", PageKind.COMMENT),
        ("https://www.univ.edu/redirect?url=https://healthtruth.example/", PageKind.REDIRECT),
        ("https://www.univ.edu/out/https%3A%2F%2Fhealthtruth.example", PageKind.REDIRECT),
        ("https://bit.ly/3xYzAbC", PageKind.REDIRECT),
        ("http://93.184.216.34/report", PageKind.REDIRECT),
        ("https://twitter.com/healthtruth/status/1", PageKind.SOCIAL),
        ("https://healthtruth-files.s3.amazonaws.com/report.pdf", PageKind.HOSTED),
        # an independent red team's (2026-12-03), each of which had standing before
        ("https://de.wikipedia.org/wiki/Benutzer:Evil/Impfung", PageKind.USER_PAGE),
        ("https://ja.wikipedia.org/wiki/利用者:Evil", PageKind.USER_PAGE),
        ("https://de.wikipedia.org/wiki/Diskussion:Impfung", PageKind.USER_PAGE),
        ("https://en.wikipedia.org/wiki/Vaccine?oldid=1", PageKind.USER_PAGE),
        ("https://en.wikipedia.org/wiki/Special:PermanentLink/123456", PageKind.USER_PAGE),
        ("https://www.cdc.gov/search/?query=vaccine", PageKind.SEARCH),
        ("https://pubmed.ncbi.nlm.nih.gov/?term=vaccine+autism", PageKind.REDIRECT),
        # the second red team's last pages (#59): an index's copy, a file served for anyone,
        # a reader's question
        ("https://pubmed.ncbi.nlm.nih.gov/17400342/", PageKind.INDEX_RECORD),
        ("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC9123456/", PageKind.INDEX_RECORD),
        ("https://pmc.ncbi.nlm.nih.gov/articles/PMC9123456/", PageKind.INDEX_RECORD),
        ("https://www.ncbi.nlm.nih.gov/pubmed/17400342", PageKind.INDEX_RECORD),
        ("https://europepmc.org/article/MED/17400342", PageKind.INDEX_RECORD),
        ("https://www.fda.gov/media/150123/download", PageKind.FILED),
        ("https://goaskalice.columbia.edu/answered-questions/ivermectin", PageKind.CONTRIBUTOR),
        ("https://www.cdc.gov/redirect?url=evil.example", PageKind.REDIRECT),
        ("https://www.cdc.gov/exit.html?url=//evil.example", PageKind.REDIRECT),
        ("https://evil.example\\@www.cdc.gov/", PageKind.REDIRECT),
        ("https://www.ncbi.nlm.nih.gov/myncbi/evil.1/bibliography/public/", PageKind.PERSONAL),
        ("https://scholar.harvard.edu/evil/vax", PageKind.PERSONAL),
        ("https://www.nejm.org/doi/full/10.1056/NEJMc2100000", PageKind.COMMENT),
        ("https://www.science.org/doi/10.1126/science.abc1234#elettersSection", PageKind.COMMENT),
    ],
)
def test_a_page_anyone_may_write_has_no_standing_whatever_its_host(
    url: str, kind: PageKind
) -> None:
    assert page_kind(url) is kind
    assert source_tier(url) == 1 and not has_standing(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://en.wikipedia.org/wiki/MMR_vaccine",
        "https://www.cdc.gov/vaccinesafety/concerns/autism.html",
        "https://www.bmj.com/content/372/bmj.n149",
        "https://www.stanford.edu/news/vaccines.html",
        "https://www.ncbi.nlm.nih.gov/books/NBK459150/",  # an edited book
        "https://web.archive.org/web/20200101000000/https://www.cdc.gov/measles/index.html",
        "https://www.cdc.gov/mmwr/volumes/70/wr/mm7014e1.htm?s_cid=mm7014e1_w",
        "https://WWW.CDC.GOV/vaccines/",  # DNS reads a host in any case
        "https://en.m.wikipedia.org/wiki/MMR_vaccine",
    ],
)
def test_an_article_of_a_site_of_standing_keeps_it(url: str) -> None:
    assert page_kind(url) is None
    assert source_tier(url) >= STANDING_TIER


def test_a_site_earns_standing_only_by_measurement() -> None:
    """medizin-transparent.at (HealthFC's fact-checker) is listed nowhere; the held-out
    sources of `bench.standing` used it, so it has standing; an unknown site has none."""
    page = "https://www.medizin-transparent.at/masken-corona/"
    assert listed_tier(page) == 1 and "medizin-transparent.at" in MEASURED
    assert has_standing(page)
    assert not has_standing("https://healthtruth.example/report")
    assert not has_standing(page, measured={})


@pytest.mark.skipif(
    not (SHARED_DATA / "evidence_claims").is_dir() or not (SHARED_DATA / "birdwatch_2021").is_dir(),
    reason="needs ../shared/data/evidence_claims and birdwatch_2021",
)
def test_the_measured_table_is_the_benchmarks() -> None:
    """`pipeline/standing_measured.json` is generated (`python -m bench.standing --write`)
    from data nobody here wrote; a fresh run must give it again."""
    from bench.standing import held_out_pages, measured_domains, measured_hosts

    pages = held_out_pages(SHARED_DATA, SHARED_DATA / "evidence_claims")
    assert measured_domains(pages) == MEASURED
    assert frozenset(measured_hosts(pages)) == MEASURED_HOSTS


async def test_a_page_is_ranked_where_it_answered_from_after_redirects() -> None:
    """A university's address that redirected to the attacker's page was ranked by the
    university (the trust issue): the page read keeps the address that answered
    (`Evidence.final_url`), and its standing, its tier and whether code may cite it on its
    own are that address's."""
    from pipeline.evidence import Page
    from pipeline.post import Post
    from tests.fakes.episodes import runner
    from tests.fakes.policy import ResearchPolicy
    from tests.fakes.ports import FakeWeb, health_pages

    asked = "https://www.univ.edu/news/measles-vaccine"
    answered = "https://healthtruth.example/measles-vaccine"
    pages = health_pages()
    pages[asked] = Page(
        url=answered,
        title="Measles vaccine and autism",
        text="The measles vaccine causes autism, whatever the agencies say.",
    )
    post = Post(text="The measles vaccine causes autism. Don't vaccinate your kids!")
    outcome = await runner(ResearchPolicy(), FakeWeb(pages)).run(post)
    read = {e.url: e for e in outcome.evidence}
    assert asked in read, [e.url for e in outcome.evidence]
    assert read[asked].final_url == answered and read[asked].tier == 1
    assert read["https://www.cdc.gov/vaccines/mmr-safety"].final_url == ""
