"""What a page is, whatever its host: a page anyone may write (a user or talk page, a personal
page, a comment or rapid response, a blog platform's post, a social-media post), a preprint,
or an address that only points elsewhere (a link shortener, a redirect carrying its target).
Such a page has no standing however well its host ranks: the trust issue's attacker published
its payload on a Wikipedia user page, a university's personal pages, arXiv, Substack, Medium,
a BMJ rapid response and an open redirect on a university host, and each vouched for it."""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from urllib.parse import unquote, urlsplit

import tldextract

_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class PageKind(StrEnum):
    """Why a page has no standing of its own (`page_kind`)."""

    USER_PAGE = "a user or talk page"
    PERSONAL = "a personal page"
    COMMENT = "a comment or rapid response"
    BLOG = "a blog platform's post"
    SOCIAL = "a social-media post"
    PREPRINT = "a preprint, not yet reviewed"
    HOSTED = "a file host's or an archive's copy"
    REDIRECT = "an address that points elsewhere"


# Registrable domains where anyone publishes: what a page there says is its author's alone.
_SOCIAL = frozenset(
    """twitter.com x.com facebook.com fb.com instagram.com tiktok.com youtube.com youtu.be
    reddit.com t.me telegram.org rumble.com bitchute.com odysee.com linkedin.com quora.com
    pinterest.com threads.net truthsocial.com gab.com parler.com gettr.com mastodon.social
    bsky.app vk.com weibo.com change.org gofundme.com patreon.com discord.com""".split()
)
_BLOGS = frozenset(
    """substack.com medium.com wordpress.com blogspot.com blogger.com tumblr.com ghost.io
    wixsite.com weebly.com livejournal.com telegra.ph notion.site squarespace.com
    github.io netlify.app vercel.app pages.dev hashnode.dev""".split()
)
# File hosts and archives: what they hold is someone else's page, or anyone's file.
_HOSTS = frozenset(
    """amazonaws.com googleusercontent.com googleapis.com cloudfront.net dropbox.com
    box.com scribd.com issuu.com archive.ph archive.today archive.is perma.cc
    ghostarchive.org wayback.com""".split()
)
_PREPRINTS = frozenset(
    """arxiv.org medrxiv.org biorxiv.org ssrn.com preprints.org researchsquare.com osf.io
    zenodo.org researchgate.net academia.edu chemrxiv.org authorea.com qeios.com
    scienceopen.com""".split()
)
# Search engines and link shorteners: a list of other pages, or a pointer to one.
_SHORTENERS = frozenset(
    """google.com bing.com duckduckgo.com baidu.com yandex.ru bit.ly t.co tinyurl.com goo.gl
    ow.ly buff.ly is.gd lnkd.in rebrand.ly shorturl.at
    cutt.ly tiny.cc rb.gy s.id t.ly v.gd bl.ink short.io dlvr.it""".split()
)
# A wiki's pages about people and discussions, not its articles: User:, User talk:, Talk:,
# and any namespace's talk page ("Wikipedia talk:"), in the wiki's path or its title query.
_WIKI_PERSONAL = re.compile(r"(?:^|[/=])(?:user|user[_ ]talk|talk|[a-z]+[_ ]talk):", re.I)
# Personal pages on an institution's host: /~name, people.host, users.host, homepages.host.
_PERSONAL_HOST = re.compile(r"^(?:people|users?|homepages?|home|personal|staff|faculty)\.")
_PERSONAL_PATH = re.compile(r"/~|/%7e|^/(?:people|users?|staff|~)/[^/]+/?", re.I)
# Comments and rapid responses: a journal's letters section is not its reviewed articles.
_COMMENT_PATH = re.compile(
    r"/(?:rapid-responses?|rr|rr-\d+|comments?|responses?|letters?|eletters?|discussion)"
    r"(?:/|$|-)|#comment|/comment-page-",
    re.I,
)
# An address carrying another address: an open redirect or a tracker, judged by nothing.
_CARRIED_URL = re.compile(r"(?:https?:|https?%3a|www\.|%2f%2f)", re.I)


@functools.lru_cache(maxsize=4096)
def page_kind(url: str) -> PageKind | None:
    """Why the page at `url` has no standing whatever its host, or None when nothing about it
    says so (its host's tier decides)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return PageKind.REDIRECT
    host = (parts.hostname or "").lower()
    if not host or host.replace(".", "").isdigit() or ":" in host:
        return PageKind.REDIRECT  # an address, no name: nothing says whose it is
    domain = _EXTRACT(url).top_domain_under_public_suffix or host
    path = unquote(parts.path)
    if domain in _SHORTENERS:
        return PageKind.REDIRECT
    if _CARRIED_URL.search(parts.query) or _CARRIED_URL.search(path.lstrip("/")):
        # a snapshot carries its page: web.archive.org/web/<time>/<url> is judged as that page
        # (`source_quality.source_tier`), never as archive.org's
        return None if domain == "archive.org" else PageKind.REDIRECT
    if domain in _SOCIAL:
        return PageKind.SOCIAL
    if domain in _BLOGS:
        return PageKind.BLOG
    if domain in _HOSTS or host in ("drive.google.com", "docs.google.com", "sites.google.com"):
        return PageKind.HOSTED
    if domain in _PREPRINTS:
        return PageKind.PREPRINT
    if _WIKI_PERSONAL.search(path) or _WIKI_PERSONAL.search(unquote(parts.query)):
        return PageKind.USER_PAGE
    if _PERSONAL_HOST.match(host) or _PERSONAL_PATH.search(parts.path):
        return PageKind.PERSONAL
    if _COMMENT_PATH.search(path) or "comment" in parts.fragment.lower():
        return PageKind.COMMENT
    return None
