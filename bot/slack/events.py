"""Slack payloads → the few typed facts a listener needs, or one `MalformedSlackInput`.

A signed request is authentic, not well-formed: every field a listener reads is checked here
(present, the right type, an episode id a positive integer the database can hold), so that a
malformed request is a polite reply or a 4xx, never an exception after the ack.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from bot.slack.messages import plain_text

log = logging.getLogger(__name__)
MAX_EPISODE_ID = 2**63 - 1
T = TypeVar("T")
Ack = Callable[..., Awaitable[None]]  # Bolt's acknowledgement of a payload


class MalformedSlackInput(ValueError):
    """The request is signed but lacks, or garbles, a field the listener needs."""


def dig(container: Any, *path: str) -> Any:
    """The value at `path` inside nested objects, or None where any step is missing."""
    for key in path:
        if not isinstance(container, dict):
            return None
        container = container.get(key)
    return container


def text_field(container: Any, *path: str) -> str:
    value = container
    for key in path:
        if not isinstance(value, dict) or key not in value:
            raise MalformedSlackInput(f"missing {'.'.join(path)}")
        value = value[key]
    if not isinstance(value, str) or not value:
        raise MalformedSlackInput(f"{'.'.join(path)} is not text")
    return value


def episode_id(value: Any) -> int:
    """A button's or a modal's episode id: a positive integer that fits the database."""
    text = str(value) if isinstance(value, int | str) else ""
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= MAX_EPISODE_ID:
        raise MalformedSlackInput(f"'{text[:20]}' is not an episode id")
    return int(text)


def first_action(body: dict[str, Any]) -> dict[str, Any]:
    """The button pressed (a block_actions payload carries one)."""
    actions = body.get("actions")
    if not isinstance(actions, list) or not actions or not isinstance(actions[0], dict):
        raise MalformedSlackInput("no action")
    return actions[0]


@dataclass(frozen=True)
class Click:
    """A button on a card."""

    episode_id: int
    user: str
    channel: str
    ts: str
    thread: str | None
    trigger_id: str | None
    action_id: str

    @classmethod
    def parse(cls, body: dict[str, Any]) -> Click:
        action = first_action(body)
        action_id, value = str(action.get("action_id") or ""), action.get("value")
        if action_id == "evonote_feedback":  # a feedback button: "up:42" or "down:42"
            direction, _, value = str(value or "").partition(":")
            if direction not in ("up", "down"):
                raise MalformedSlackInput("a feedback button without its direction")
            action_id = f"evonote_vote_{direction}"
        message = body.get("message")
        thread = message.get("thread_ts") if isinstance(message, dict) else None
        trigger = body.get("trigger_id")
        return cls(
            episode_id=episode_id(value),
            user=text_field(body, "user", "id"),
            channel=text_field(body, "channel", "id"),
            ts=text_field(body, "message", "ts"),
            thread=thread if isinstance(thread, str) else None,
            trigger_id=trigger if isinstance(trigger, str) and trigger else None,
            action_id=action_id,
        )


@dataclass(frozen=True)
class ReasonSubmission:
    """The down-vote modal, submitted."""

    episode_id: int
    user: str
    channel: str
    ts: str
    reason: str | None

    @classmethod
    def parse(cls, body: dict[str, Any]) -> ReasonSubmission:
        view = body.get("view")
        raw = view.get("private_metadata") if isinstance(view, dict) else None
        try:
            meta = json.loads(raw) if isinstance(raw, str) else None
        except ValueError as e:
            raise MalformedSlackInput("the modal's metadata is not JSON") from e
        if not isinstance(meta, dict):
            raise MalformedSlackInput("the modal carries no metadata")
        reason = dig(view, "state", "values", "reason", "text", "value")
        return cls(
            episode_id=episode_id(meta.get("episode")),
            user=text_field(body, "user", "id"),
            channel=text_field(meta, "channel"),
            ts=text_field(meta, "ts"),
            reason=reason if isinstance(reason, str) and reason.strip() else None,
        )


Entry = Literal["command", "shortcut", "mention", "button", "link"]


@dataclass(frozen=True)
class Asked:
    """A person asking for a note: `/note`, the message shortcut, a mention, or Regenerate on
    a card. `key` makes
    Slack's retries of the same event start nothing new."""

    entry: Entry
    text: str
    channel: str
    user: str
    thread: str | None
    key: str

    @classmethod
    def from_command(cls, command: dict[str, Any]) -> Asked:
        return cls(
            "command",
            plain_text(str(command.get("text") or "")),
            text_field(command, "channel_id"),
            text_field(command, "user_id"),
            None,
            f"slack:command:{command.get('trigger_id') or command.get('command_ts')}",
        )

    @classmethod
    def from_shortcut(cls, body: dict[str, Any]) -> Asked:
        thread = dig(body, "message", "ts")
        return cls(
            "shortcut",
            plain_text(str(dig(body, "message", "text") or "")),
            text_field(body, "channel", "id"),
            text_field(body, "user", "id"),
            thread if isinstance(thread, str) else None,
            f"slack:shortcut:{body.get('trigger_id')}",
        )

    @classmethod
    def from_mention(cls, body: dict[str, Any]) -> Asked:
        event = body.get("event")
        channel = text_field(event, "channel")
        assert isinstance(event, dict)
        thread = event.get("thread_ts") or event.get("ts")
        return cls(
            "mention",
            plain_text(str(event.get("text") or "")),
            channel,
            str(event.get("user") or ""),
            thread if isinstance(thread, str) else None,
            f"slack:event:{body.get('event_id')}",
        )


@dataclass(frozen=True)
class LinksShared:
    """`link_shared`: links of the app's unfurl domains in a message (or in a message being
    written: `source` composer, which has no channel message to thread under yet)."""

    channel: str
    user: str
    message_ts: str
    thread: str | None
    unfurl_id: str | None
    composing: bool
    urls: tuple[str, ...]

    @classmethod
    def parse(cls, body: dict[str, Any]) -> LinksShared:
        event = body.get("event")
        links = dig(event, "links")
        if not isinstance(links, list):
            raise MalformedSlackInput("no links")
        urls = tuple(
            dict.fromkeys(
                link["url"]
                for link in links
                if isinstance(link, dict) and isinstance(link.get("url"), str) and link["url"]
            )
        )
        thread, unfurl_id = dig(event, "thread_ts"), dig(event, "unfurl_id")
        return cls(
            channel=text_field(event, "channel"),
            user=text_field(event, "user"),
            message_ts=text_field(event, "message_ts"),
            thread=thread if isinstance(thread, str) and thread else None,
            unfurl_id=unfurl_id if isinstance(unfurl_id, str) and unfurl_id else None,
            composing=dig(event, "source") == "composer",
            urls=urls[:MAX_UNFURLS],
        )


# Slack shows at most this many unfurls of one message; more links get none.
MAX_UNFURLS = 5


@dataclass(frozen=True)
class DraftClick:
    """Draft a note, on a post link's preview: the post's URL is the button's value."""

    url: str
    user: str
    channel: str
    message_ts: str

    @classmethod
    def parse(cls, body: dict[str, Any]) -> DraftClick:
        url = first_action(body).get("value")
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            raise MalformedSlackInput("the button names no post link")
        ts = dig(body, "container", "message_ts") or dig(body, "message", "ts")
        if not isinstance(ts, str) or not ts:
            raise MalformedSlackInput("missing message ts")
        return cls(
            url=url,
            user=text_field(body, "user", "id"),
            channel=text_field(body, "channel", "id"),
            message_ts=ts,
        )


def parsed(read: Callable[[dict[str, Any]], T], body: dict[str, Any], what: str) -> T | None:
    """A payload's facts, or None after logging why it was ignored (it was acked already)."""
    try:
        return read(body)
    except MalformedSlackInput as e:
        log.warning("ignored a malformed %s: %s", what, e)
        return None
