from __future__ import annotations

import pytest

from pipeline.source_quality import quality_score, registrable_domain, source_tier


@pytest.mark.parametrize(
    ("url", "tier"),
    [
        ("https://www.cdc.gov/vaccines/index.html", 4),
        ("https://pubmed.ncbi.nlm.nih.gov/123/", 1),  # an index's record (page_kind)
        ("https://www.who.int/news-room/fact-sheets", 4),
        ("https://www.england.nhs.uk/a", 4),
        ("https://www.health.state.mn.us/x", 1),
        ("https://www.gov.uk/guidance/x", 4),
        ("https://www.ecdc.europa.eu/x", 4),  # a subdomain listed
        # a subdomain neither listed nor used by a held-out source is whoever runs it
        # (epale.ec.europa.eu and futurium.ec.europa.eu take anyone's posts)
        ("https://data.europa.eu/x", 1),
        ("https://csn.cancer.org/profile/x", 1),
        ("https://www.nejm.org/doi/full/10.1056/x", 3),
        ("https://med.stanford.edu/news", 3),
        ("https://www.ox.ac.uk/news", 3),
        ("https://www.reuters.com/fact-check/x", 2),
        ("https://en.wikipedia.org/wiki/MMR_vaccine", 2),
        ("https://abcnews.go.com/Health", 2),
        ("https://www.medrxiv.org/content/x", 1),  # a preprint: no standing (page_kind)
        ("https://naturalnews.com/x", 1),
        ("http://127.0.0.1/admin", 1),
        # a Wayback Machine snapshot is its page's source, not archive.org's
        ("https://web.archive.org/web/20200709101045/https://www.cdc.gov/x", 4),
        ("https://web.archive.org/web/2021id_/http://naturalnews.com/x", 1),
        ("https://archive.org/details/x", 1),
    ],
)
def test_tiers_follow_the_table(url: str, tier: int) -> None:
    assert source_tier(url) == tier


def test_registrable_domain_uses_the_public_suffix_list() -> None:
    assert registrable_domain("https://www.bbc.co.uk/news") == "bbc.co.uk"
    assert registrable_domain("https://a.b.cdc.gov/") == "cdc.gov"


def test_quality_score_spans_0_to_100() -> None:
    assert quality_score("https://x.example.com") == 0
    assert quality_score("https://www.cdc.gov") == 100
    assert quality_score("https://www.bmj.com") == pytest.approx(100 * 0.7925, abs=0.01)
