"""Bolt's app with one guard: payloads Bolt itself cannot read are refused with a 400."""

from __future__ import annotations

from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest


class GuardedApp(AsyncApp):
    """Bolt's app, refusing with a 400 the payloads Bolt itself cannot read: a signed
    `view_submission` without `view.type` logged a KeyError traceback and answered 500, a
    `block_actions` without actions an IndexError."""

    async def async_dispatch(self, req: AsyncBoltRequest) -> BoltResponse:
        if (why := unreadable_by_bolt(req.body)) is not None:
            return BoltResponse(status=400, body=why)
        return await super().async_dispatch(req)


def unreadable_by_bolt(body: object) -> str | None:
    """Why Bolt would crash on a payload (its argument injection indexes these unguarded),
    else None."""
    if not isinstance(body, dict):
        return None
    kind = body.get("type")
    if kind in ("view_submission", "view_closed"):
        view = body.get("view")
        if not isinstance(view, dict) or not isinstance(view.get("type"), str):
            return "a view payload needs its view's type"
    if kind == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions or not isinstance(actions[0], dict):
            return "a block action needs its actions"
    return None
