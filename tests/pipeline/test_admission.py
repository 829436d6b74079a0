"""Admission: a burst becomes a queue, requests go before scans, the limit follows the server."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from pipeline.desk.admission import AdmissionGate, GateClosed, Priority
from pipeline.request import NoteRequest
from pipeline.trajectory import Progress
from tests.fakes.service import fake_note_service


async def test_at_most_the_limit_run_and_the_rest_wait_in_order() -> None:
    gate = AdmissionGate(2, slow_call_s=30)
    running: list[int] = []
    peak = 0
    order: list[int] = []
    told: dict[int, int] = {}
    release = asyncio.Event()

    async def job(n: int, priority: Priority) -> None:
        nonlocal peak

        async def waiting(ahead: int) -> None:
            told[n] = ahead

        async with gate.slot(priority, waiting):
            order.append(n)
            running.append(n)
            peak = max(peak, len(running))
            await release.wait()
            running.remove(n)

    tasks = [asyncio.create_task(job(n, Priority.BACKGROUND)) for n in range(4)]
    await asyncio.sleep(0.01)
    tasks.append(asyncio.create_task(job(9, Priority.INTERACTIVE)))  # a person asks last
    await asyncio.sleep(0.01)
    assert order == [0, 1] and gate.waiting == 3
    assert told == {2: 0, 3: 1, 9: 0}  # it was told nobody is ahead of it
    release.set()
    await asyncio.gather(*tasks)
    assert peak == 2
    assert order == [0, 1, 9, 2, 3]  # the person's request jumped the scans


async def test_a_slow_server_halves_the_limit_and_fast_answers_grow_it_back() -> None:
    now = [0.0]
    gate = AdmissionGate(8, slow_call_s=10, cooldown_s=5, clock=lambda: now[0])
    assert gate.why == "the ceiling (8 episodes at once)"
    gate.observe(25)
    assert gate.limit == 4
    assert gate.why == "halved to 4: a model answer took 25 s (slow above 10 s)"
    gate.observe(25)  # within the cooldown: one halving per cooldown
    assert gate.limit == 4
    now[0] = 6
    gate.observe(25)
    gate.observe(1)
    assert gate.limit == 2
    for _ in range(100):
        gate.observe(1)
    assert gate.limit == 8  # grown back, and never past the ceiling
    assert gate.why == "grown to 8: answers came in under 10 s"
    for _ in range(20):
        now[0] += 10
        gate.observe(60)
    assert gate.limit == 1  # never below one


async def test_closing_sends_waiters_away_and_lets_runners_finish() -> None:
    gate = AdmissionGate(1, slow_call_s=30)
    inside = asyncio.Event()
    finish = asyncio.Event()

    async def runner() -> str:
        async with gate.slot():
            inside.set()
            await finish.wait()
        return "finished"

    async def waiter() -> str:
        async with gate.slot():
            return "ran"

    first = asyncio.create_task(runner())
    await inside.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0.01)
    gate.close()
    with pytest.raises(GateClosed):
        await second
    with pytest.raises(GateClosed):
        async with gate.slot():
            pass
    finish.set()
    assert await first == "finished"
    await asyncio.wait_for(gate.idle(), 1)
    assert gate.active == 0


async def test_a_cancelled_waiter_leaks_no_place() -> None:
    gate = AdmissionGate(1, slow_call_s=30)
    hold = asyncio.Event()

    async def holder() -> None:
        async with gate.slot():
            await hold.wait()

    first = asyncio.create_task(holder())
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(holder())
    await asyncio.sleep(0.01)
    cancelled.cancel()
    hold.set()
    await first
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    async with asyncio.timeout(1), gate.slot():
        assert gate.active == 1
    assert gate.active == 0


async def test_a_burst_through_the_note_service_runs_a_few_at_a_time(
    engine: AsyncEngine,
) -> None:
    notes = fake_note_service(engine)
    notes.gate = AdmissionGate(3, slow_call_s=30)
    peak = 0
    original = notes.runner.run

    all_queued = asyncio.Event()

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal peak
        peak = max(peak, notes.gate.active)
        # the first three hold their places until the other nine wait: on a loaded machine
        # one could finish before the last request reached the gate
        await all_queued.wait()
        return await original(*args, **kwargs)

    notes.runner.run = counted  # type: ignore[method-assign]
    queued_cards: list[str] = []

    async def progress(event: Progress) -> None:
        if event.phase == "queued":
            queued_cards.append(event.detail)
            if len(queued_cards) == 9:
                all_queued.set()

    rows = [await notes.enqueue(NoteRequest(post_ref=f"MMR causes autism {i}")) for i in range(12)]
    async with asyncio.timeout(30):
        done = await asyncio.gather(*(notes.run(r.id or 0, progress) for r in rows))
    assert [r.status for r in done] == ["noted"] * 12
    assert peak <= 3
    assert len(queued_cards) == 9 and "8 ahead" in queued_cards
