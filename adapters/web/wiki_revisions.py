"""`PageReader` that reads a wiki's article as the revision that had stood for hours, never
the live one: anyone may edit an article minutes before it is read, and the second red team
of #59 published its payload, on code's word, from a vandalised English Wikipedia article.
The revision is the newest that stood `settled_hours` before the next replaced it, as the
wiki's own API says (MediaWiki `prop=revisions`); a pinned revision asked for (`?oldid=`) is no
article (`page_kind`), and a redirect that lands on an article is read the same way. The page
carries the revision's id (`Page.settled_revision`): only such a read of an article vouches
(`source_quality.has_standing`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol
from urllib.parse import quote, unquote, urlencode, urlsplit

from pipeline.errors import PageUnreadable
from pipeline.evidence import Page
from pipeline.page_kind import live_article


class DataReader(Protocol):
    """A guarded reader that also returns an API's raw answer (`GuardedPageReader`)."""

    async def read(self, url: str) -> Page: ...

    async def read_data(self, url: str) -> bytes: ...


# The revisions asked for: an article edited more often than every `settled_hours` for this
# many edits in a row is too contested to vouch (it is read as unreadable).
REVISIONS_LOOKED_AT = 50


def _now() -> datetime:
    return datetime.now(UTC)


class SettledWikiReader:
    """Reads through `inner`; a wiki article as the revision current `settled_hours` ago."""

    def __init__(
        self,
        inner: DataReader,
        settled_hours: float,
        now: Callable[[], datetime] = _now,
    ) -> None:
        self.inner = inner
        self.settled_hours = settled_hours
        self.now = now

    async def read(self, url: str) -> Page:
        if live_article(url):
            return await self._settled(url)
        page = await self.inner.read(url)
        # an address elsewhere that answered from an article (a redirect): that article
        return await self._settled(page.url) if live_article(page.url) else page

    async def _settled(self, url: str) -> Page:
        parts = urlsplit(url)
        # the mobile edition (en.m.wikipedia.org) is the same wiki: its API is the main host's
        host = (parts.hostname or "").replace(".m.", ".", 1)
        title = unquote(parts.path.removeprefix("/wiki/"))
        revision = await self._revision(host, title)
        query = urlencode({"title": title, "oldid": revision})
        page = await self.inner.read(f"https://{host}/w/index.php?{query}")
        return page.model_copy(
            update={"url": f"https://{host}/wiki/{quote(title)}", "settled_revision": revision}
        )

    async def _revision(self, host: str, title: str) -> str:
        """The id of the newest revision that stood `settled_hours` before the next replaced
        it (or until now): not the one current hours ago, which a vandal can time (an edit
        made just before then and reverted minutes after)."""
        query = urlencode(
            {
                "action": "query",
                "prop": "revisions",
                "titles": title,
                "rvlimit": str(REVISIONS_LOOKED_AT),
                "rvprop": "ids|timestamp",
                "redirects": "1",
                "format": "json",
                "formatversion": "2",
            }
        )
        data = await self.inner.read_data(f"https://{host}/w/api.php?{query}")
        settled = timedelta(hours=self.settled_hours)
        try:
            revisions = json.loads(data)["query"]["pages"][0]["revisions"]
            replaced = self.now()  # the newest revision stands until now
            for revision in revisions:  # newest first
                made = datetime.fromisoformat(str(revision["timestamp"]).replace("Z", "+00:00"))
                if replaced - made >= settled:
                    return str(int(revision["revid"]))
                replaced = made
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise PageUnreadable(f"{host} gave no revisions of {title!r}") from e
        hours = f"{self.settled_hours:g}"
        raise PageUnreadable(
            f"no revision of {title!r} among its last {len(revisions)} stood {hours} h"
        )
