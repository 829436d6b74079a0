"""Whether a page is a study: a journal's article or a review library's (Cochrane). An
index's record or copy of one (PubMed, PMC, Europe PMC) has no standing (`page_kind`): one
address shape holds a journal's article and a preprint copy. A note's "studies show",
"research shows" or "scientists say" is borne out only by such a page: a health agency's
page or a fact-check that speaks of studies is not one (the trust issue: an attribution to
someone no cited page is, passed by the model's own check)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pipeline.page_kind import page_kind
from pipeline.source_quality import registrable_domain

# Publishers of peer-reviewed journals and bibliographic databases, by registrable domain.
_JOURNALS = frozenset(
    """nejm.org thelancet.com bmj.com jamanetwork.com nature.com science.org cell.com
    cochranelibrary.com cochrane.org plos.org springer.com wiley.com sciencedirect.com oup.com
    tandfonline.com frontiersin.org annals.org acpjournals.org ahajournals.org
    pediatrics.org sagepub.com karger.com thieme-connect.com biomedcentral.com jci.org pnas.org
    clinicaltrials.gov aappublications.org lww.com""".split()
)
# Hosts of a larger site whose pages are studies: the AAP's journals.
_STUDY_HOSTS = ("publications.aap.org",)


def is_a_study(url: str) -> bool:
    """Whether the page at `url` is a study, and nothing that strips a page of standing (a
    preprint, a rapid response, an index's copy: `page_kind`)."""
    if page_kind(url) is not None:
        return False
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    return host in _STUDY_HOSTS or registrable_domain(url) in _JOURNALS
