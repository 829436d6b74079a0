"""How much a source can be trusted, by its host and what the page is (`page_kind`).

The public-suffix list is the one bundled with `tldextract` (no network at run time); the tier
table is data in `source_tiers.json`.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import tldextract

from pipeline.page_kind import live_article, page_kind

TIER_NAMES = {4: "official", 3: "scholarly", 2: "news/reference", 1: "other"}

_TABLE = json.loads((Path(__file__).with_name("source_tiers.json")).read_text(encoding="utf-8"))
_DOMAINS: dict[str, int] = _TABLE["domain_tiers"]
_SUFFIXES: dict[str, int] = _TABLE["suffix_tiers"]
_HOSTS: dict[str, int] = _TABLE["host_tiers"]
# Domains that earned standing on data nobody here wrote (`python -m bench.standing --write`):
# tier 2 unless listed higher.
MEASURED_FILE = Path(__file__).with_name("standing_measured.json")
_MEASURED_TABLE = json.loads(MEASURED_FILE.read_text(encoding="utf-8"))
MEASURED: dict[str, int] = _MEASURED_TABLE["domains"]
# The hosts below a domain that held-out sources used (`bench.standing`): a subdomain has its
# domain's standing only when listed (`host_tiers`), measured here, or under a government
# suffix (`listed_tier`).
MEASURED_HOSTS: frozenset[str] = frozenset(_MEASURED_TABLE.get("hosts", ()))
MEASURED_TIER = 2
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@functools.lru_cache(maxsize=4096)
def registrable_domain(url: str) -> str:
    """`https://www.cdc.gov/x` → `cdc.gov`; an IP address or bare host comes back as is."""
    parts = _EXTRACT(url)
    return parts.top_domain_under_public_suffix or parts.domain or url


# A Wayback Machine snapshot is its page, as it was: web.archive.org/web/<time>/<the page's URL>.
_SNAPSHOT = re.compile(r"^https?://web\.archive\.org/web/\d+[a-z_]*/(?P<page>https?://.+)$", re.I)


def page_of(url: str) -> str:
    """The page a Wayback Machine snapshot keeps, or `url` itself."""
    snapshot = _SNAPSHOT.match(url)
    return snapshot["page"] if snapshot else url


@functools.lru_cache(maxsize=4096)
def source_tier(url: str) -> int:
    """The tier of the page: its source's, listed or measured (`MEASURED`), and 1 for a page
    anyone may write, a preprint or a redirect whatever its host (`page_kind`). A Wayback
    Machine snapshot has its page's tier (archive.org keeps what others published: its own
    tier would be no one's)."""
    if snapshot := _SNAPSHOT.match(url):
        return source_tier(snapshot["page"])
    return tier_with(url, MEASURED)


def tier_with(url: str, measured: Mapping[str, int]) -> int:
    """`source_tier` with `measured` as the measured domains (`bench.standing` compares)."""
    url = _lower_host(url)
    if snapshot := _SNAPSHOT.match(url):
        return tier_with(snapshot["page"], measured)
    if page_kind(url) is not None:
        return 1
    listed = listed_tier(url)
    return max(listed, MEASURED_TIER) if _measured_host(url, measured) else listed


def _lower_host(url: str) -> str:
    """The URL with its host in lower case and without a trailing dot, as DNS reads it
    (`WWW.CDC.GOV.` is cdc.gov's)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    host = parts.netloc.lower().rstrip(".")
    return urlunsplit(parts._replace(netloc=host)) if host != parts.netloc else url


def listed_tier(url: str) -> int:
    """The tier `source_tiers.json` lists for the page's host (1 when it lists none).

    A domain's tier, listed or by its public suffix, holds for its subdomains, except a
    university's (`_people_name_hosts`): there it holds for the domain itself and its `www.`,
    and `host_tiers` lists the units of standing one by one. A government suffix's registry
    admits only government bodies, and each names its own hosts (dhs.wisconsin.gov is
    Wisconsin's): what anyone may write there is a page kind (`page_kind`: a VAERS report, a
    trial sponsor's record, a public comment's attachment). Measured on the cost corpus's
    honest verdicts (`bench.standing`): holding `.gov` subdomains to the listed ones too would
    leave 9 more verdicts citing no page of standing, for no attacker's page the red team of
    #59 found."""
    if snapshot := _SNAPSHOT.match(url):
        return listed_tier(snapshot["page"])
    parts = _EXTRACT(url)
    domain = parts.top_domain_under_public_suffix
    if not domain:
        return 1
    host = ".".join(p for p in (parts.subdomain, domain) if p).removeprefix("www.")
    if (listed := _HOSTS.get(host)) is not None:
        return listed
    # The most specific listed name wins: abcnews.go.com before go.com.
    labels = host.split(".")
    for i in range(len(labels) - 1):
        name = ".".join(labels[i:])
        tier = _DOMAINS.get(name)
        if tier is not None:
            return tier if name == host or _subdomain_of_standing(url) else 1
    own = host == domain.removeprefix("www.") or not _people_name_hosts(url)
    return _SUFFIXES.get(parts.suffix, 1) if own else 1


def _subdomain_of_standing(url: str) -> bool:
    """Whether a page on a subdomain of a domain of standing shares its standing: the
    subdomain was used by held-out sources (`MEASURED_HOSTS`), or it is under a government
    suffix, whose registry admits only government bodies (a university's is not: there a
    student society or a thesis repository is a subdomain). Any other subdomain is whoever
    runs it: a second red team published its payload on code's word from csn.cancer.org (a
    forum), sharing.mayoclinic.org, healthcommunity.nature.com, s4be.cochrane.org (blogs),
    ca.finance.yahoo.com and eu.usatoday.com (press releases), trialsearch.who.int (trial
    sponsors' records) and epale/futurium.ec.europa.eu (anyone's posts) (#59)."""
    host = (urlsplit(url).hostname or "").removeprefix("www.")
    if host in MEASURED_HOSTS:
        return True
    parts = _EXTRACT(url)
    return parts.suffix in _GOVERNMENT_SUFFIXES or parts.subdomain in _SAME_SITE_LABELS


# A subdomain that is the same site in another language or on another of its servers
# (de.wikipedia.org — a small edition is a page kind —, en.ssi.dk, www2.hse.ie, uk.reuters.com):
# the site's own, not a tenant's.
_SAME_SITE_LABELS = frozenset(
    """en de fr es it pt nl pl ru uk ja zh ko ar he fa tr sv da no nb fi el cs hu ro bg hr sr
    sk sl lt lv et id vi th hi bn ur sw ms ca eu gl cy ga is simple www1 www2 www3 www4
    www5""".split()
)


# The suffixes whose registries admit only government bodies (`suffix_tiers` at tier 4).
_GOVERNMENT_SUFFIXES = frozenset(s for s, t in _SUFFIXES.items() if t >= 4)


def _people_name_hosts(url: str) -> bool:
    """Whether the page's registrable domain lets its people name hosts under it: a
    university's (`.edu`, `.ac.uk`, …), where a student society, a wiki or a thesis repository
    is a subdomain (vaxtruth.soc.ox.ac.uk, studentorgs.mit.edu, dataverse.harvard.edu)."""
    return any(label in ("edu", "ac") for label in _EXTRACT(url).suffix.split("."))


def _own_host(url: str) -> bool:
    """Whether the host is its registrable domain itself or that domain's `www.`."""
    parts = _EXTRACT(url)
    return parts.subdomain in ("", "www")


def _measured_host(url: str, measured: Mapping[str, int]) -> bool:
    """Whether a measured domain covers the page's host: itself, its `www.`, and the
    subdomains `_subdomain_of_standing` admits."""
    if registrable_domain(url) not in measured:
        return False
    return _own_host(url) or _subdomain_of_standing(url)


def quality_score(url: str) -> float:
    """q(d) = 100 · log τ(d) / log 4: 0 for tier 1, 100 for official bodies."""
    return 100 * math.log(source_tier(url)) / math.log(4)


# The least source tier (2 news and reference, 3 scholarly, 4 official) of a page that vouches
# for a note's words: "everything else" (1) is where an attacker's page is. Code cites such a
# page on its own (`DraftChecks.citing_the_pages_that_say_it`) and the card says which do.
# Measured (`bench.rules`): 5 honest AVeriTeC verdicts lose the page code added for them
# (Healthline, a hospital's site, a tweet, two pages of tier 1 sites); at tier 3, 6.
STANDING_TIER = 2


# The domains listed at a tier of standing: the bodies a note may attribute a claim to.
STANDING_DOMAINS = frozenset(d for d, tier in _DOMAINS.items() if tier >= 2)


def has_standing(
    url: str, measured: Mapping[str, int] = MEASURED, *, settled: bool = False
) -> bool:
    """Whether a page is a source of standing: `STANDING_TIER` or above, and, for a wiki's
    article (`live_article`, a snapshot of one included: anyone may have it archived the
    minute it is vandalised), only when `settled`: read as a revision that had stood
    (`Page.settled_revision`)."""
    live = live_article(_lower_host(page_of(url)))
    return tier_with(url, measured) >= STANDING_TIER and (settled or not live)
