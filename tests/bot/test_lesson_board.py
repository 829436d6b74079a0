"""The moderators' lesson board says what X's raters found of the notes each lesson was
learned from, and where the moderators' votes say otherwise (#45): on Slack's App Home and in
Discord's lessons embed, as `memory show` does. And who vouches for a lesson's requesters is
asked of Slack without holding up the request (#43)."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime

import pytest

from bot.discord.views import lessons_embed
from bot.slack.blocks import lesson_blocks
from memory.curation import LessonDesk
from memory.models import LessonKind, LessonStatus, MemoryItem
from pipeline.ports import MemoryPhase

SAID = "not helpful to raters across perspectives — the moderators' votes say otherwise"


class Items:
    def __init__(self, items: list[MemoryItem]) -> None:
        self.items = items

    async def all_items(self) -> list[MemoryItem]:
        return self.items


class Raters:
    """X's raters have spoken on episode 4 only."""

    async def crowd_said(self, episode_id: int) -> str | None:
        return SAID if episode_id == 4 else None


def lesson(id_: int, episodes: list[int]) -> MemoryItem:
    return MemoryItem(
        id=id_,
        phase=MemoryPhase.NOTE_WRITING,
        kind=LessonKind.IMPROVE,
        trigger=f"posts of kind {id_}",
        strategy="name the agency and the size of the study",
        source_episodes=episodes,
        status=LessonStatus.PROVISIONAL,
        created_at=datetime.now(UTC),
    )


async def test_the_board_shows_the_crowds_verdict_beside_the_lessons_it_concerns() -> None:
    desk = LessonDesk(Items([lesson(1, [3, 4]), lesson(2, [5])]), Raters())  # type: ignore[arg-type]
    board = await desk.board(datetime.now(UTC))
    assert board.crowd == {1: [f"episode 4: {SAID}"]}
    slack = json.dumps(lesson_blocks(board, moderator=True), ensure_ascii=False)
    assert f"raters on X: episode 4: {SAID}" in slack
    discord = json.dumps(lessons_embed(board).to_dict(), ensure_ascii=False)
    assert "raters on X: episode 4" in discord
    # without the crowd's verdicts (no store to ask), nothing is said
    plain = await LessonDesk(Items([lesson(1, [4])])).board(datetime.now(UTC))  # type: ignore[arg-type]
    assert plain.crowd == {} and "raters on X" not in json.dumps(lesson_blocks(plain, True))


class Moderators:
    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s

    async def is_moderator(self, user: str, fresh: bool = False) -> bool:
        await asyncio.sleep(self.delay_s)
        return user == "UMOD"


async def test_a_slow_slack_delays_no_request_and_vouches_for_no_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether a requester is vouched for is asked of Slack's user groups for at most
    VOUCH_WAIT_S: a hung Slack costs no request its storage, only the vouch."""
    from bot.slack import moderators

    monkeypatch.setattr(moderators, "VOUCH_WAIT_S", 0.05)
    vouched = moderators.SlackModerators.vouched
    assert await vouched(Moderators(0.0), "UMOD")  # type: ignore[arg-type]
    assert not await vouched(Moderators(0.0), "U1")  # type: ignore[arg-type]
    started = time.monotonic()
    assert not await vouched(Moderators(30.0), "UMOD")  # type: ignore[arg-type]
    assert time.monotonic() - started < 5
