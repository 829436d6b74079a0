"""The App Home tab: this week's lessons, curated by moderators (Approve / Retire / Restore),
and where the writer stands with X (admission, writing limit) when submitting is set."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.blocks import _escaped, lesson_blocks, standing_blocks
from bot.slack.events import MalformedSlackInput, dig, episode_id
from bot.slack.moderators import SlackModerators
from bot.watch import ScanReport
from memory.curation import LessonAction, LessonDesk
from pipeline.desk.standing import WriterStanding

log = logging.getLogger(__name__)


def scan_blocks(report: ScanReport) -> list[dict[str, Any]]:
    """The last watchlist scan: what it took and skipped, and why (watch, author, link, age,
    velocity, note requests), the taken first."""
    lines = sorted(report.lines, key=lambda line: not line.taken)[:SCAN_LINES]
    shown = "\n".join(f"{'✓' if line.taken else '·'} {_escaped(line.text)}" for line in lines)
    more = len(report.lines) - len(lines)
    if more > 0:
        shown += f"\n… and {more} more (the serve log has every one)"
    return [
        {
            "type": "section",
            "text": {
                "type": "mrkdwn",
                "text": f"*Last watchlist scan*: {report.summary()}\n{shown}"[:2900],
            },
        }
    ]


MEMORY_OFF = [
    {
        "type": "section",
        "text": {"type": "mrkdwn", "text": "The experience memory is off (EVONOTE_MEMORY__MODE)."},
    }
]
Standing = Callable[[], Awaitable[WriterStanding | None]]
LastScanOf = Callable[[], ScanReport | None]
# lines of the last scan shown: the Home holds 100 blocks, the lessons need most of them
SCAN_LINES = 10


class LessonsHome:
    def __init__(
        self,
        client: AsyncWebClient,
        moderators: SlackModerators,
        lessons: LessonDesk | None,
        standing: Standing | None = None,
        *,
        last_scan: LastScanOf | None = None,
    ) -> None:
        self.client = client
        self.moderators = moderators
        self.lessons = lessons  # None when the memory is off: the tab says so
        self.standing = standing
        self.last_scan = last_scan

    def register(self, app: AsyncApp) -> None:
        app.event("app_home_opened")(self.on_home_opened)
        app.action(re.compile("^evonote_lesson_(approve|retire|restore)$"))(self.on_lesson_button)

    async def publish(self, user: str) -> None:
        """This week's lessons, with buttons when the person moderates; the standing with X."""
        blocks: list[dict[str, Any]] = MEMORY_OFF
        if self.lessons is not None:
            board = await self.lessons.board(datetime.now(UTC))
            blocks = lesson_blocks(board, await self.moderators.is_moderator(user))
        standing = await self.standing() if self.standing is not None else None
        if standing is not None:
            blocks = [*standing_blocks(standing), *blocks]
        report = self.last_scan() if self.last_scan is not None else None
        if report is not None:
            blocks = [*scan_blocks(report), *blocks]
        view = {"type": "home", "blocks": blocks[:100]}
        try:
            await self.client.views_publish(user_id=user, view=view)
        except SlackApiError as e:
            log.warning("views.publish failed: %s", e.response.get("error"))

    async def on_home_opened(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        await ack()
        user, tab = dig(body, "event", "user"), dig(body, "event", "tab") or "home"
        if isinstance(user, str) and user and tab == "home":
            await self.publish(user)

    async def on_lesson_button(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        """Approve / Retire / Restore: the lesson desk decides, for moderators only."""
        await ack()
        user, action = dig(body, "user", "id"), dig(body, "actions")
        try:
            if not isinstance(user, str) or not isinstance(action, list) or not action:
                raise MalformedSlackInput("no user or action")
            lesson_id = episode_id(action[0].get("value"))
            verb = LessonAction(str(action[0].get("action_id", "")).rsplit("_", 1)[-1])
        except (MalformedSlackInput, ValueError, AttributeError):
            log.warning("ignored a malformed lesson button")
            return
        if self.lessons is not None:
            answer = await self.lessons.act(await self.moderators.voter(user), lesson_id, verb)
            if answer.message:
                log.info("lesson %s not changed for %s: %s", lesson_id, user, answer.message)
        await self.publish(user)
