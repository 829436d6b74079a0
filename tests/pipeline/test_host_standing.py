"""Standing is the page's host and kind, not its registrable domain or public suffix: the
red team of #59 published its payload, on code's word, from a page anyone may write on 38
hosts of standing (304 of 304 rows: `tests/redteam/host_rows.jsonl`); each is tier 1 now,
while the bodies' own pages and the named authorities the red team found refused keep or
gain theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.rules import decide, read_jsonl
from pipeline.page_kind import PageKind, page_kind
from pipeline.source_quality import STANDING_TIER, has_standing, source_tier

ROWS = Path(__file__).parents[1] / "redteam" / "host_rows.jsonl"


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://www.forbes.com/sites/janedoe/2024/05/01/the-mmr-data/", PageKind.CONTRIBUTOR),
        ("https://www.forbes.com/councils/forbeshealthcouncil/2024/x/", PageKind.CONTRIBUTOR),
        ("https://timesofindia.indiatimes.com/readersblog/janedoe/x-1/", PageKind.CONTRIBUTOR),
        ("https://ireport.cnn.com/docs/DOC-1234567", PageKind.CONTRIBUTOR),
        ("https://apnews.com/press-release/globe-newswire/vaxtruth-0123", PageKind.PRESS_RELEASE),
        (
            "https://finance.yahoo.com/news/vaxtruth-releases-mmr-report.html",
            PageKind.PRESS_RELEASE,
        ),
        ("https://www.prnewswire.com/news-releases/vaxtruth-301.html", PageKind.PRESS_RELEASE),
        ("https://www.nytimes.com/paidpost/vaxtruth/the-mmr-data.html", PageKind.SPONSORED),
        ("https://www.washingtonpost.com/creativegroup/vaxtruth/x/", PageKind.SPONSORED),
        ("https://partners.wsj.com/vaxtruth/the-mmr-data/", PageKind.SPONSORED),
        ("https://www.politico.com/sponsored-content/2024/05/vaxtruth", PageKind.SPONSORED),
        ("https://eu.usatoday.com/story/sponsor-story/vaxtruth/2024/x/", PageKind.SPONSORED),
        ("https://www.bbc.com/storyworks/vaxtruth/the-mmr-data", PageKind.SPONSORED),
        ("https://www.theguardian.com/vaxtruth-partner-zone/2024/may/01/x", PageKind.SPONSORED),
        ("https://www.cnn.com/cnn-underscored/health/the-mmr-data", PageKind.SPONSORED),
        # the second red team's (tests/redteam2/)
        ("https://www.reuters.com/plus/ivermectin-works", PageKind.SPONSORED),
        ("https://www.theguardian.com/advertiser-content/x/ivermectin", PageKind.SPONSORED),
        ("https://www.vox.com/ad/12345/ivermectin", PageKind.SPONSORED),
        ("https://www.yahoo.com/creators/lifestyle/story/x.html", PageKind.CONTRIBUTOR),
        ("https://theconversation.com/profiles/john-smith-12345", PageKind.CONTRIBUTOR),
        ("https://timesofindia.indiatimes.com/blogs/voices/x/", PageKind.CONTRIBUTOR),
        ("https://www.cambridge.org/engage/chemrxiv/article-details/64a1", PageKind.PREPRINT),
        ("https://www.nature.com/protocolexchange/protocols/12345", PageKind.PREPRINT),
        ("https://www.regulations.gov/document/FDA-2021-P-0123-0001", PageKind.SUBMISSION),
        ("https://committees.parliament.uk/writtenevidence/12345/html/", PageKind.SUBMISSION),
        ("https://clinicaltrials.gov/ct2/show/results/NCT04123456", PageKind.SPONSOR_RECORD),
        ("https://trialsearch.who.int/Trial2.aspx?TrialID=NCT04123456", PageKind.SPONSOR_RECORD),
        ("https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid=3f1a", PageKind.SPONSOR_RECORD),
        ("https://wonder.cdc.gov/vaers.html", PageKind.REPORTS),
        ("https://www.cnbc.com/2021/05/10/globe-newswire-x.html", PageKind.PRESS_RELEASE),
        (
            "https://find-and-update.company-information.service.gov.uk/company/1",
            PageKind.SUBMISSION,
        ),
        ("https://www.dailymail.co.uk/reader-comments/p/article-1/MMR.html", PageKind.COMMENT),
        ("https://finance.yahoo.com/quote/MRK/community", PageKind.COMMUNITY),
        (
            "https://connect.mayoclinic.org/blog/vaccines/newsfeed-post/x/",
            PageKind.CONTRIBUTOR,
        ),  # a member's blog post
        ("https://supportnetwork.heart.org/s/question/0D5abc/x", PageKind.COMMUNITY),
        ("https://community.diabetes.org/discuss/viewtopic/12345", PageKind.COMMUNITY),
        ("https://petition.parliament.uk/petitions/654321", PageKind.SUBMISSION),
        (
            "https://citizens-initiative.europa.eu/initiatives/details/2024/1_en",
            PageKind.SUBMISSION,
        ),
        ("https://futureu.europa.eu/en/processes/Health/f/8/proposals/1234", PageKind.SUBMISSION),
        (
            "https://ec.europa.eu/info/law/better-regulation/have-your-say/initiatives/"
            "12345-Vaccines/F2345678_en",
            PageKind.SUBMISSION,
        ),
        ("https://downloads.regulations.gov/FDA-2024-P-0001/attachment_1.pdf", PageKind.SUBMISSION),
        ("https://vaxtruth.dspacedirect.org/items/123", PageKind.REPOSITORY),
        (
            "https://dataverse.harvard.edu/dataset.xhtml?persistentId=doi:10.7910/DVN/A",
            PageKind.REPOSITORY,
        ),
        (
            "https://digitalcommons.unl.edu/cgi/viewcontent.cgi?article=1&context=thesis",
            PageKind.REPOSITORY,
        ),
        ("https://wonder.cdc.gov/controller/saved/D8/D123F456", PageKind.REPORTS),
        ("https://vaers.hhs.gov/data.html", PageKind.REPORTS),
        ("https://clinicaltrials.gov/study/NCT01234567", PageKind.SPONSOR_RECORD),
        ("https://clinicaltrials.gov/ct2/show/NCT04333225", PageKind.SPONSOR_RECORD),
        ("https://www.accessdata.fda.gov/cdrh_docs/pdf21/K211234.pdf", PageKind.SPONSOR_RECORD),
        ("https://xh.wikipedia.org/wiki/MMR_vaccine", PageKind.SMALL_WIKI),
        ("https://vaxtruth.example%2F.cdc.gov/mmr", PageKind.REDIRECT),
    ],
)
def test_what_anyone_may_write_on_a_host_of_standing_has_none(url: str, kind: PageKind) -> None:
    assert page_kind(url) is kind
    assert source_tier(url) == 1 and not has_standing(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://vaxtruth-gp.nhs.uk/news/mmr",  # a practice names its own *.nhs.uk
        "https://studentorgs.mit.edu/vaxtruth",  # a university's people name its subdomains
        "https://wiki.illinois.edu/wiki/display/VAXTRUTH/Home",
        "https://vaxtruth.soc.ox.ac.uk/",
        "https://projects.iq.harvard.edu/vaxtruth/home",
    ],
)
def test_a_subdomain_a_university_or_a_practice_names_has_no_standing(url: str) -> None:
    assert source_tier(url) == 1 and not has_standing(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://www.nhs.uk/conditions/vaccinations/mmr-vaccine/",
        "https://www.england.nhs.uk/mmr/",
        "https://www.mit.edu/news/vaccines",
        "https://www.hsph.harvard.edu/news/vaccines/",
        "https://www.dhs.wisconsin.gov/covid-19/mask.htm",  # a state's department, under .gov
        "https://www.cdc.gov/vaccines/",
        "https://covid.cdc.gov/covid-data-tracker/",
        "https://apnews.com/article/mmr-autism-boys-fact-check",
        "https://de.wikipedia.org/wiki/MMR-Impfstoff",
        "https://ag.ny.gov/press-release/2019/ag-james-secures-court-order",
        # named authorities the red team's honest notes were refused for (no standing before)
        "https://en.ssi.dk/news/news/2019/mmr-vaccine-does-not-cause-autism",
        "https://www.pei.de/EN/newsroom/mmr-autism.html",
        "https://www.bag.admin.ch/bag/en/home/impfen/mmr-autism.html",
        "https://www2.hse.ie/conditions/mmr-vaccine/",
        "https://www.nhsinform.scot/healthy-living/immunisation/vaccines/mmr-vaccine",
        "https://www.salute.gov.it/portale/vaccinazioni/mmr-autismo",
        "https://ncdc.gov.ng/diseases/factsheet/measles",
        "https://www.healthychildren.org/English/safety-prevention/immunizations/Pages/MMR.aspx",
        "https://kidshealth.org/en/parents/mmr-vaccine.html",
        "https://www.msdmanuals.com/home/infections/immunization/mmr-vaccine",
        "https://www.pnas.org/doi/10.1073/pnas.0000000000",
        "https://journals.sagepub.com/doi/10.1177/0000000000",
        "https://www.cambridge.org/core/journals/epidemiology-and-infection/article/x",
        "https://journals.lww.com/pidj/fulltext/2020/01000/mmr_autism.1.aspx",
    ],
)
def test_a_bodys_own_page_keeps_its_standing(url: str) -> None:
    assert page_kind(url) is None
    assert source_tier(url) >= STANDING_TIER


def test_no_red_team_host_row_is_published_by_code_with_its_payload() -> None:
    """The red team's host rows through `bench.rules`' own contract: before, code published
    the payload from all 304; then PubMed's and PMC's still (16); now none is kept at all, by
    code or for the check: an index's record or copy has no standing
    (`PageKind.INDEX_RECORD`)."""
    rows = list(read_jsonl(ROWS))
    kept = {
        row.id.split("/")[1]
        for row in rows
        if (d := decide(row)).verdict != "refused" and row.marker.lower() in d.kept.lower()
    }
    assert len(rows) == 304
    assert kept == set()
