"""Periodic jobs on APScheduler 3.x, run only by the process that holds the lease.

Every process may start a `JobScheduler`; each job first takes or renews the lease and does
nothing when another process holds it. Jobs are idempotent, coalesced, one instance at a time,
with a generous misfire grace (a busy loop must not silently skip the evolve job).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from pipeline.errors import StorageUnavailable
from scheduler.lease import LeaseStore

log = logging.getLogger(__name__)
LEASE_NAME = "scheduler"


@dataclass(frozen=True)
class Job:
    name: str
    run: Callable[[], Awaitable[Any]]
    every_s: float
    # Also run as soon as the scheduler starts (work a restart left waiting must not wait a
    # whole interval).
    at_start: bool = False


class JobScheduler:
    def __init__(
        self, lease: LeaseStore, owner: str, jobs: list[Job], lease_ttl_s: float = 120.0
    ) -> None:
        self.lease = lease
        self.owner = owner
        self.jobs = jobs
        self.ttl = timedelta(seconds=lease_ttl_s)
        self.running: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.scheduler: AsyncIOScheduler | None = None

    async def holds_lease(self) -> bool:
        return await self.lease.acquire(LEASE_NAME, self.owner, self.ttl)

    async def run_job(self, job: Job) -> bool:
        """Run one job if this process is the scheduler; True when it ran."""
        task = asyncio.current_task()
        if task is not None:
            self.running.add(task)
        try:
            if not await self.holds_lease():
                log.debug("%s skipped: another process holds the scheduler lease", job.name)
                return False
            await job.run()
        except StorageUnavailable as e:  # an outage: one line a run, the next run retries
            log.warning("job %s skipped: %s", job.name, e)
        except Exception:  # one failed run must not stop the schedule
            log.exception("job %s failed", job.name)
        except asyncio.CancelledError:
            if not self.stopping:
                raise
            log.info("job %s stopped with the scheduler", job.name)  # it runs again next start
        finally:
            if task is not None:
                self.running.discard(task)
        return True

    def start(self) -> None:
        """Must be called inside a running event loop (AsyncIOScheduler's rule)."""
        self.scheduler = AsyncIOScheduler(
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 600},
            # intervals need no local time; without one APScheduler reads the machine's time
            # zone from its files, on the event loop
            timezone=UTC,
        )
        renew = Job("renew_lease", self.holds_lease, self.ttl.total_seconds() / 3)
        for job in [*self.jobs, renew]:
            # APScheduler reads next_run_time=None as "paused", so it is passed only when set.
            first: dict[str, Any] = {"next_run_time": datetime.now(UTC)} if job.at_start else {}
            self.scheduler.add_job(
                self.run_job,
                "interval",
                seconds=job.every_s,
                args=[job],
                id=job.name,
                name=job.name,
                **first,
            )
        self.scheduler.start()

    async def stop(self) -> None:
        """Stop scheduling, and end the runs in progress here rather than leave them to the
        event loop's teardown (which APScheduler would log as failures)."""
        self.stopping = True
        if self.scheduler is not None:
            self.scheduler.shutdown(wait=False)
            self.scheduler = None
        for task in list(self.running):
            task.cancel()
        if self.running:
            await asyncio.gather(*self.running, return_exceptions=True)
        try:
            await self.lease.release(LEASE_NAME, self.owner)
        except StorageUnavailable as e:  # stopping in an outage: the lease runs out by itself
            log.warning("scheduler lease not released (%s): it expires in %s", e, self.ttl)
