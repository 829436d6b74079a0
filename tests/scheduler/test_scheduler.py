"""One scheduler across processes: the lease decides who runs the jobs."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.lease import SqlLeaseStore
from scheduler.jobs import Job, JobScheduler


async def test_only_the_lease_holder_runs_jobs(engine: AsyncEngine) -> None:
    runs: list[str] = []

    def job_for(owner: str) -> Job:
        async def run() -> None:
            runs.append(owner)

        return Job("evolve", run, 60)

    a = JobScheduler(SqlLeaseStore(engine), "host-a", [job_for("a")])
    b = JobScheduler(SqlLeaseStore(engine), "host-b", [job_for("b")])
    results = await asyncio.gather(a.run_job(a.jobs[0]), b.run_job(b.jobs[0]))
    assert sorted(results) == [False, True]
    assert len(runs) == 1
    winner, loser = (a, b) if runs == ["a"] else (b, a)
    assert await winner.run_job(winner.jobs[0])
    assert not await loser.run_job(loser.jobs[0])
    await winner.stop()  # releases the lease
    assert await loser.run_job(loser.jobs[0])


async def test_an_expired_lease_is_taken_over(engine: AsyncEngine) -> None:
    leases = SqlLeaseStore(engine)
    assert await leases.acquire("scheduler", "dead-host", timedelta(seconds=-1))
    assert await leases.acquire("scheduler", "live-host", timedelta(seconds=60))
    assert not await leases.acquire("scheduler", "dead-host", timedelta(seconds=60))


async def test_a_failing_job_does_not_stop_the_schedule(engine: AsyncEngine) -> None:
    """A job that raises every time is run again at every interval, and the others with it."""
    failures = 0
    ticks = 0
    enough = asyncio.Event()

    async def boom() -> None:
        nonlocal failures
        failures += 1
        raise RuntimeError("search backend down")

    async def tick() -> None:
        nonlocal ticks
        ticks += 1
        if ticks >= 3 and failures >= 3:
            enough.set()

    jobs = [Job("evolve", boom, 0.1), Job("tick", tick, 0.1)]
    scheduler = JobScheduler(SqlLeaseStore(engine), "host", jobs)
    scheduler.start()
    try:
        await asyncio.wait_for(enough.wait(), timeout=10)
    finally:
        await scheduler.stop()
    assert failures >= 3 and ticks >= 3


async def test_the_apscheduler_loop_runs_jobs_on_time(engine: AsyncEngine) -> None:
    times: list[float] = []
    twice = asyncio.Event()

    async def tick() -> None:
        times.append(asyncio.get_running_loop().time())
        if len(times) >= 2:
            twice.set()

    scheduler = JobScheduler(SqlLeaseStore(engine), "host", [Job("tick", tick, 0.2)])
    scheduler.start()
    try:
        await asyncio.wait_for(twice.wait(), timeout=5)
    finally:
        await scheduler.stop()
    assert 0.1 <= times[1] - times[0] <= 2.0  # every 0.2 s, give or take a loaded machine


async def test_a_job_marked_at_start_runs_at_once_and_others_wait(engine: AsyncEngine) -> None:
    ran: list[str] = []
    started = asyncio.Event()

    async def recover() -> None:
        ran.append("recover")
        started.set()

    async def digest() -> None:
        ran.append("digest")

    jobs = [Job("recover", recover, 3600, at_start=True), Job("digest", digest, 3600)]
    scheduler = JobScheduler(SqlLeaseStore(engine), "host", jobs)
    scheduler.start()
    try:
        await asyncio.wait_for(started.wait(), timeout=5)
        await asyncio.sleep(0.2)
    finally:
        await scheduler.stop()
    assert ran == ["recover"]
