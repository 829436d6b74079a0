"""A local stand-in for X's API v2 that tweepy's AsyncClient talks to over real HTTP.

tweepy builds every URL on https://api.twitter.com; `LoopbackSession` (given to the client as
its aiohttp session) sends those requests to this server instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

X_API = "https://api.twitter.com"


@dataclass
class MockXApi:
    answers: dict[str, tuple[int, Any, dict[str, str]]] = field(default_factory=dict)
    requests: list[web.Request] = field(default_factory=list)
    port: int = 0
    runner: web.AppRunner | None = None

    def answer(
        self, path: str, payload: Any, status: int = 200, headers: dict[str, str] | None = None
    ) -> None:
        self.answers[path] = (status, payload, headers or {})

    async def handle(self, request: web.Request) -> web.Response:
        self.requests.append(request)
        status, payload, headers = self.answers.get(
            request.path, (404, {"title": "Not Found", "status": 404}, {})
        )
        return web.json_response(payload, status=status, headers=headers)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


class LoopbackSession:
    """Forwards tweepy's requests for api.twitter.com to the mock, over plain HTTP."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.session = aiohttp.ClientSession()

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:
        return self.session.request(method, str(url).replace(X_API, self.base), **kwargs)

    async def close(self) -> None:
        await self.session.close()
