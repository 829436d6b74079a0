"""A local mock of the Slack Web API (as bolt-python's own tests use), recording every call."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web


@dataclass
class MockSlackApi:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    group_members: dict[str, list[str]] = field(default_factory=dict)
    uploads: list[bytes] = field(default_factory=list)
    refused_tokens: set[str] = field(default_factory=set)  # answered invalid_auth
    _ts: int = 1700000000
    runner: web.AppRunner | None = None
    port: int = 0

    def called(self, method: str) -> list[dict[str, Any]]:
        return [args for name, args in self.calls if name == method]

    async def handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        raw = await request.text()
        if request.content_type == "application/json":
            args: dict[str, Any] = json.loads(raw or "{}")
        else:
            args = dict(parse_qsl(raw))
        args.update(request.query)
        for key in ("blocks", "view", "unfurls"):
            if isinstance(args.get(key), str):
                args[key] = json.loads(args[key])
        self.calls.append((method, args))
        answer: dict[str, Any] = {"ok": True}
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        if token in self.refused_tokens:
            return web.json_response({"ok": False, "error": "invalid_auth"})
        if method == "auth.test":
            answer.update(user_id="UBOT", bot_id="BBOT", team_id="T1", user="evonote")
        elif method == "chat.postMessage":
            self._ts += 1
            answer.update(channel=args.get("channel"), ts=f"{self._ts}.000100")
        elif method == "files.getUploadURLExternal":
            answer.update(upload_url=f"http://127.0.0.1:{self.port}/upload/F1", file_id="F1")
        elif method == "files.completeUploadExternal":
            answer["files"] = [{"id": "F1", "title": args.get("files", "")}]
        elif method == "usergroups.users.list":
            answer["users"] = self.group_members.get(str(args.get("usergroup")), [])
        return web.json_response(answer)

    async def upload(self, request: web.Request) -> web.Response:
        self.uploads.append(await request.read())
        return web.Response(text="OK")

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self.handle)
        app.router.add_route("*", "/upload/{file}", self.upload)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return f"http://127.0.0.1:{self.port}/api/"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
