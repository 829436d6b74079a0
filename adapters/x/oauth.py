"""OAuth 1.0a user-context signing (HMAC-SHA1) for httpx requests, by oauthlib."""

from __future__ import annotations

from dataclasses import dataclass

import httpx
from oauthlib.oauth1 import Client


@dataclass(frozen=True)
class OAuth1Credentials:
    consumer_key: str
    consumer_secret: str
    access_token: str
    access_token_secret: str


def sign(
    request: httpx.Request,
    credentials: OAuth1Credentials,
    *,
    nonce: str | None = None,
    timestamp: str | None = None,
) -> httpx.Request:
    """Add the Authorization header. Form bodies are part of the signature; JSON bodies, by
    the OAuth 1.0a rules, are not."""
    client = Client(
        credentials.consumer_key,
        client_secret=credentials.consumer_secret,
        resource_owner_key=credentials.access_token,
        resource_owner_secret=credentials.access_token_secret,
        nonce=nonce,
        timestamp=timestamp,
    )
    form = request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded")
    _, headers, _ = client.sign(
        str(request.url),
        http_method=request.method,
        body=request.content.decode() if form else None,
        headers={"Content-Type": request.headers["content-type"]} if form else None,
    )
    request.headers["Authorization"] = headers["Authorization"]
    return request
