"""What a draft is checked against, as one frozen value: the post, the pages read with their
standing, the claims checked and the note's language. An episode makes one for each decision
(`pipeline.episode_state.EpisodeState.context`: pages are read while it runs); a revision and
`bench.rules` make one from what they hold."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pipeline.brief import VerificationBrief
from pipeline.drafting.provenance import Provenance
from pipeline.drafting.stance import JUDGING_STEMS
from pipeline.drafting.words import (
    ANY_WORD,
    TOPIC_TERM_ZIPF,
    key_stems,
    spelt_out_acronyms,
    stem,
    stems,
)
from pipeline.evidence import Evidence
from pipeline.post import Post
from pipeline.source_quality import has_standing, page_of, registrable_domain
from pipeline.urls import page_key


@dataclass(frozen=True)
class DraftContext:
    """The post, the pages read (by URL), the brief once the claims are analysed, and the
    links the post and its requesters named (by default the post's own)."""

    post: Post
    evidence: Mapping[str, Evidence]
    brief: VerificationBrief | None = None
    post_links: tuple[str, ...] = field(default=())

    @classmethod
    def of(
        cls,
        post: Post,
        evidence: Mapping[str, Evidence] | Iterable[Evidence],
        brief: VerificationBrief | None = None,
        post_links: Iterable[str] | None = None,
    ) -> DraftContext:
        pages = dict(evidence) if isinstance(evidence, Mapping) else {e.url: e for e in evidence}
        links = post_links if post_links is not None else post.all_links()
        return cls(post, MappingProxyType(pages), brief, tuple(dict.fromkeys(links)))

    @property
    def read(self) -> Mapping[str, Evidence]:
        """The pages read, by URL (what a draft may cite)."""
        return self.evidence

    @property
    def language(self) -> str:
        return (self.brief.language if self.brief is not None else "en").split("-")[0].lower()

    def claims(self) -> list[str]:
        """The claims being checked: the brief's, or the post itself while it is analysed."""
        if self.brief is not None:
            return self.brief.checkworthy_claims
        return [" ".join(self.post.text.split())[:300]]

    @functools.cached_property
    def provenance(self) -> Provenance:
        """What a note may be made of: the pages that vouch (`vouches`: their URLs, words and
        numbers). Any other page may be read to understand the claim; its words count as read
        for nothing (the attacker's own page gave notes its phone number)."""
        vouching = [self.evidence[u] for u in self.vouching(self.evidence)]
        read = [t for e in vouching for t in (e.title, e.excerpt, *e.quotes)]
        return Provenance(tuple(self.evidence), "\n".join(read), self.language)

    def vouching(self, urls: Iterable[str]) -> list[str]:
        """The URLs among `urls` of pages read that vouch for a note's words (`vouches`)."""
        return [u for u in urls if self.vouches(u)]

    def vouches(self, url: str) -> bool:
        """Whether a page read vouches for a note's words: a source of standing
        (`has_standing`) by the address that answered. Only such a page's words count as read
        for the text policy, bear a sentence out on code's word, are shown to the support check
        and may be a note's source; any other page (found by the search, named by the post or
        a requester, user content, a low tier) may inform the brief and nothing more. The
        trust issue (#59): an unnamed page the search found vouched for its own words, and 19
        of 20 notes carried its payload, published on code's word."""
        return url in self.evidence and has_standing(self.answered(url), settled=self.settled(url))

    def answered(self, url: str) -> str:
        """The address that answered for a page read (`Evidence.final_url`), or `url`: a page
        has the standing of where it is, not of the address that redirected to it."""
        page = self.evidence.get(url)
        return (page.final_url if page is not None else "") or url

    def settled(self, url: str) -> bool:
        """Whether a page read is a wiki revision that had stood (`Page.settled_revision`)."""
        page = self.evidence.get(url)
        return page is not None and bool(page.settled_revision)

    def named(self, url: str) -> bool:
        """Whether a page read is one the post or its requesters named (in any spelling), or
        another page of a site they named, and below a source of standing: the attacker's own
        pages, not the WHO page a post misquotes, which a note may well cite for what it
        really says."""
        links = list(self.post_links)
        answered = self.answered(url)
        if has_standing(answered, settled=self.settled(url)):
            return False
        sites = {registrable_domain(page_of(link)) for link in links}
        return same_page(url, links) in links or registrable_domain(page_of(answered)) in sites

    def of_standing(self, url: str) -> bool:
        """Whether code may cite a page read on its own: a source of standing (`vouches`) that
        neither the post nor its requesters named. An attacker's page read from the results,
        the post's link or a suggested source would otherwise vouch for its own words (the
        trust issue: code added one as a second source)."""
        links = list(self.post_links)
        return self.vouches(url) and same_page(url, links) not in links

    @functools.cached_property
    def claim_stems(self) -> frozenset[str]:
        """The key terms (stems) of the post and the claims checked."""
        return frozenset(key_stems(" ".join([self.post.all_text(), *self.claims()])))

    @functools.cached_property
    def topic(self) -> frozenset[str]:
        """The topic terms (stems) of the post and the claims; when they have none (a claim in
        everyday words), their content words."""
        text = " ".join([self.post.all_text(), *self.claims()])
        return frozenset(key_stems(text, TOPIC_TERM_ZIPF) or stems(text) - JUDGING_STEMS)

    def about_the_claims(self, url: str) -> bool:
        """Whether a read page is about the claims at all: it shares a topic term with the post
        and its claims, in its title, excerpt or quotes. Caught before the model's own support
        check, which passed pages on Sydenham chorea for a claim about autism."""
        return not self.topic.isdisjoint(terms_read(self.evidence[url]))

    def terms_on_the_claims(self, cited: Iterable[str]) -> frozenset[str]:
        """Every term the cited pages on the claims' topic use (`terms_read`); none when no
        cited page is on it."""
        pages = [e for u in cited if (e := self.evidence.get(u)) and self.about_the_claims(u)]
        return frozenset().union(*(terms_read(e) for e in pages))


def as_read(page: Evidence) -> str:
    """What was read of a page: its title, excerpt and quotes."""
    return " ".join([page.title, page.excerpt, *page.quotes])


def terms_read(page: Evidence) -> frozenset[str]:
    """Every term a page read uses, as the rules compare them: the stems of its words, and
    its words and acronyms as written, lower-cased (its address names it too: "FDA" is on
    fda.gov's page), each two words joined ("Corona virus" says "coronavirus"), and the
    acronyms it spells out ("United States" says "US": `spelt_out_acronyms`)."""
    return _terms_of(" ".join([page.url, as_read(page)]))


@functools.lru_cache(maxsize=256)
def _terms_of(text: str) -> frozenset[str]:
    # cached: a draft's checks and repairs ask of the same pages read many times over
    words = [w.lower() for w in ANY_WORD.findall(text)]
    joined = {stem(a + b) for a, b in itertools.pairwise(words)}
    return frozenset(stems(text) | set(words) | joined | spelt_out_acronyms(text))


def same_page(url: str, known: list[str]) -> str:
    """The URL of `known` that names the same page as `url` in another spelling (`page_key`),
    or `url` itself."""
    if url in known:
        return url
    key = page_key(url)
    return next((k for k in known if page_key(k) == key), url)
