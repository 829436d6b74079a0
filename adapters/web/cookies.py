"""A cookie jar that keeps nothing: no response can set state for the next request."""

from __future__ import annotations

import urllib.request
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy


class _RefuseAllCookies(DefaultCookiePolicy):
    def set_ok(self, cookie: Cookie, request: urllib.request.Request) -> bool:
        return False

    def return_ok(self, cookie: Cookie, request: urllib.request.Request) -> bool:
        return False


def no_cookies() -> CookieJar:
    """A cookie jar that accepts nothing, so no response can set state for the next.

    Pass it to `httpx.AsyncClient(cookies=...)` as a jar: httpx keeps a jar it is given but
    copies an `httpx.Cookies`, losing its policy.
    """
    return CookieJar(policy=_RefuseAllCookies())
