"""One page, however its URL is written: canonical URLs for search results, and the key that
matches a cited URL to the page that was read."""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

_TRACKING = ("utm_", "fbclid", "gclid", "mc_cid", "mc_eid", "ref_src")


def canonical_url(url: str) -> str:
    """Lower-case scheme and host, no fragment, no tracking parameters, no default port."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.port and not (
        (parts.scheme == "http" and parts.port == 80)
        or (parts.scheme == "https" and parts.port == 443)
    ):
        host = f"{host}:{parts.port}"
    query = urlencode(
        [
            (k, v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
            if not k.lower().startswith(_TRACKING)
        ]
    )
    path = parts.path if parts.path not in ("", "/") else "/"
    return urlunsplit((parts.scheme.lower(), host, path, query, ""))


def page_key(url: str) -> str:
    """What two spellings of one page share: no scheme, no `www.`, no trailing slash, the
    path percent-decoded, besides what `canonical_url` drops. A model that cites
    `https://www.cdc.gov/x/` for the page read as `http://cdc.gov/x` means that page."""
    try:
        parts = urlsplit(canonical_url(url))
    except ValueError:
        return url
    host = parts.netloc.removeprefix("www.")
    path = unquote(parts.path).rstrip("/")
    return f"{host}{path}" + (f"?{parts.query}" if parts.query else "")
