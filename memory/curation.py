"""Moderators curate lessons where they work (Slack's App Home, Discord's /lessons): this week's
board, and Approve / Retire / Restore for moderators only. Written once; the platforms render
the board and translate the buttons.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from memory.models import LessonStatus, MemoryItem
from pipeline.desk.moderation import Answer, Voter
from pipeline.errors import LessonNotFound

BOARD_SIZE = 5  # lessons per section: a board, not an archive (the CLI lists them all)


class LessonAction(StrEnum):
    APPROVE = "approve"
    RETIRE = "retire"
    RESTORE = "restore"


STATUS_AFTER = {
    LessonAction.APPROVE: LessonStatus.ACTIVE,
    LessonAction.RETIRE: LessonStatus.RETIRED,
    LessonAction.RESTORE: LessonStatus.PROVISIONAL,
}


class Lessons(Protocol):
    """The experience memory as curation needs it (`memory.experience` implements it)."""

    async def all_items(self) -> list[MemoryItem]: ...

    async def set_status(
        self, item_id: int, status: LessonStatus, actor: str, why: str | None = None
    ) -> MemoryItem: ...


@dataclass
class LessonBoard:
    """This week's lessons, by what a moderator should look at."""

    since: datetime
    awaiting_approval: list[MemoryItem] = field(default_factory=list)
    new: list[MemoryItem] = field(default_factory=list)
    most_used: list[MemoryItem] = field(default_factory=list)
    retired: list[MemoryItem] = field(default_factory=list)
    # per lesson on the board: what X's raters found of the notes it was learned from, and
    # where the moderators' votes say otherwise (`CrowdVerdicts`)
    crowd: dict[int, list[str]] = field(default_factory=dict)

    def sections(self) -> list[tuple[str, list[MemoryItem]]]:
        return [
            ("Awaiting approval", self.awaiting_approval),
            ("New this week", self.new),
            ("Most used", self.most_used),
            ("Retired this week", self.retired),
        ]


def actions_for(item: MemoryItem) -> list[LessonAction]:
    """The buttons a lesson offers: approve a provisional one, retire a live one, restore a
    retired one."""
    if item.status == LessonStatus.RETIRED:
        return [LessonAction.RESTORE]
    if item.status == LessonStatus.PROVISIONAL:
        return [LessonAction.APPROVE, LessonAction.RETIRE]
    return [LessonAction.RETIRE]


def provenance(item: MemoryItem) -> str:
    episodes = ", ".join(f"#{e}" for e in item.source_episodes[:5]) or "imported"
    return (
        f"{item.phase.value.replace('_', ' ')} · {item.kind.value} · support {item.support} · "
        f"used {item.uses} · 👍 {item.votes_up} 👎 {item.votes_down} · from episodes {episodes}"
    )


# The newest episodes of a lesson whose crowd verdict the board reads: a lesson reinforced by
# many episodes would otherwise cost a read of each every time the board is opened
# (`evonote memory show` reads them all).
BOARD_VERDICTS = 5


class CrowdVerdicts(Protocol):
    async def crowd_said(self, episode_id: int) -> str | None:
        """What X's raters found of the episode's note (and whether the moderators' votes say
        otherwise); None when they have not said."""
        ...


class LessonDesk:
    def __init__(self, lessons: Lessons, verdicts: CrowdVerdicts | None = None) -> None:
        self.lessons = lessons
        self.verdicts = verdicts

    async def board(self, now: datetime, days: float = 7) -> LessonBoard:
        since = now - timedelta(days=days)
        items = await self.lessons.all_items()
        live = [i for i in items if i.status != LessonStatus.RETIRED]
        board = LessonBoard(
            since=since,
            awaiting_approval=[i for i in live if i.status == LessonStatus.PROVISIONAL][
                :BOARD_SIZE
            ],
            new=sorted(
                (i for i in live if _aware(i.created_at) >= since),
                key=lambda i: i.created_at,
                reverse=True,
            )[:BOARD_SIZE],
            most_used=sorted(live, key=lambda i: -i.uses)[:BOARD_SIZE],
            retired=[
                i
                for i in items
                if i.status == LessonStatus.RETIRED and _aware(i.updated_at) >= since
            ][:BOARD_SIZE],
        )
        if self.verdicts is not None:
            shown = {i.id: i for _, items in board.sections() for i in items if i.id is not None}
            for lesson_id, item in shown.items():
                said = [
                    f"episode {e}: {line}"
                    for e in sorted(item.source_episodes)[-BOARD_VERDICTS:]
                    if (line := await self.verdicts.crowd_said(e)) is not None
                ]
                if said:
                    board.crowd[lesson_id] = said
        return board

    async def act(self, voter: Voter, lesson_id: int, action: LessonAction) -> Answer:
        if not voter.is_moderator:
            return Answer(
                message=f"Only moderators can curate lessons ({voter.moderators_setting})."
            )
        why = f"retired by {voter.platform} moderator {voter.user}"
        try:
            await self.lessons.set_status(
                lesson_id,
                STATUS_AFTER[action],
                f"{voter.platform}:{voter.user}",
                why if action is LessonAction.RETIRE else None,
            )
        except LessonNotFound:
            return Answer(message=f"Lesson {lesson_id} no longer exists.")
        return Answer(refresh=True)


def _aware(moment: datetime) -> datetime:
    from datetime import UTC

    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
