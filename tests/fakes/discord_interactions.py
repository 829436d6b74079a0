"""What the Discord handlers use of discord.Interaction, recording every answer."""

from __future__ import annotations

from itertools import count
from types import SimpleNamespace
from typing import Any

import discord

ids = count(1000)


class Response:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.calls)

    async def defer(self, **kwargs: Any) -> None:
        self.calls.append(("defer", kwargs))

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.calls.append(("send_message", {"content": content, **kwargs}))

    async def send_modal(self, modal: discord.ui.Modal) -> None:
        self.calls.append(("send_modal", {"modal": modal}))

    async def edit_message(self, **kwargs: Any) -> None:
        self.calls.append(("edit_message", kwargs))


class Interaction:
    """What the handlers use of discord.Interaction, recording every answer."""

    def __init__(
        self,
        client: Any,
        user: int = 1,
        roles: tuple[int, ...] = (),
        guild: int = 10,
        channel: int = 20,
    ) -> None:
        self.id = next(ids)
        self.client = client
        self.user = SimpleNamespace(id=user, roles=[SimpleNamespace(id=r) for r in roles])
        self.guild_id, self.channel_id = guild, channel
        self.response = Response()
        self.edits: list[dict[str, Any]] = []
        self.followups: list[dict[str, Any]] = []
        self.message_edits: list[dict[str, Any]] = []
        self.message = SimpleNamespace(edit=self._edit_message)
        self.followup = SimpleNamespace(send=self._follow_up)

    async def _edit_message(self, **kwargs: Any) -> None:
        self.message_edits.append(kwargs)

    async def _follow_up(self, content: str, **kwargs: Any) -> None:
        self.followups.append({"content": content, **kwargs})

    async def edit_original_response(self, **kwargs: Any) -> Any:
        self.edits.append(kwargs)
        return SimpleNamespace()
