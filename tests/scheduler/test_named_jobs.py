"""The scheduled jobs are named functions over what they are given (`scheduler/`): each does
its one thing with it, in order."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import pytest

from pipeline.desk.standing import standing_of
from scheduler.digest import post_digest
from scheduler.memory_upkeep import evolve, upkeep_memory
from scheduler.notes_sent import submit_queued, sync_note_status
from scheduler.recovery import ORPHANED_AFTER_S, recover_episodes
from scheduler.watchlist import scan_watchlists
from tests.fakes.scheduled import (
    Calls,
    FoundPosts,
    NoCards,
    QueueOfNotes,
    RecordingEvolver,
    RecordingMemory,
    RecoveringNotes,
    Sent,
    StandingDesk,
)


async def test_the_memory_is_saved_after_it_evolves_and_after_its_upkeep() -> None:
    calls = Calls()
    memory = RecordingMemory(calls)
    await evolve(RecordingEvolver(calls), memory)
    await upkeep_memory(memory)
    assert calls.made == ["evolve", "persist", "retire by upkeep", "persist"]


async def test_queued_notes_sent_are_logged_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls = Calls()
    notes = QueueOfNotes(calls, [Sent("Submitted to X as note 1"), Sent("Queued for X")])
    await sync_note_status(notes)
    with caplog.at_level(logging.INFO, logger="scheduler.notes_sent"):
        await submit_queued(notes)
    assert calls.made == ["sync", "withdraw failing", "send queued"]
    assert [r.getMessage() for r in caplog.records] == [
        "queued submission: Submitted to X as note 1",
        "queued submission: Queued for X",
    ]


async def test_the_digest_is_built_once_from_the_desk_and_posted_to_each_channel() -> None:
    standing = standing_of([])
    built: list[tuple[object, str | None]] = []
    posted: list[tuple[str, str]] = []

    async def build(standing: object, on_x: str | None) -> str:
        built.append((standing, on_x))
        return "the digest"

    def poster(channel: str) -> Callable[[str], Awaitable[None]]:
        async def post(digest: str) -> None:
            posted.append((channel, digest))

        return post

    desk = StandingDesk(standing, "2 of 3 live notes rated helpful")
    await post_digest(desk, build, [poster("slack"), poster("discord")])
    assert built == [(standing, "2 of 3 live notes rated helpful")]
    assert posted == [("slack", "the digest"), ("discord", "the digest")]


async def test_each_watchlist_find_is_followed_in_order_or_left_queued() -> None:
    followed: list[int] = []
    scanner = FoundPosts([7, 3, 9])
    await scan_watchlists(scanner, followed.append)
    assert followed == [7, 3, 9]
    await scan_watchlists(scanner, None)  # a scheduler-only process: the worker runs them
    assert scanner.scans == 2 and followed == [7, 3, 9]


async def test_recovery_runs_orphans_behind_their_cards() -> None:
    notes, cards = RecoveringNotes(), NoCards()
    await recover_episodes(notes, cards, max_attempts=3)
    assert notes.asked == [(3, ORPHANED_AFTER_S, cards.progress_for, cards.finished)]
