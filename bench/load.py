"""Many requests at once through the note service. Prints numbers; asserts nothing.

    python -m bench.load [--requests 500] [--stress N] [--db sqlite+aiosqlite:///path.db | postgresql+asyncpg://...]

An instant in-process model and in-memory pages, so what is measured is the bot: storage,
claims and the episode loop. Reports completions, duplicates, queue wait (queued → running)
p50/p95, and episodes per second. `--stress N` keeps N other processes spinning on the CPU
meanwhile (a loaded machine); the database pool is sized from the admission limit
(`make_engine(url, concurrency)`: limit + 10, as much overflow, waiting rather than failing).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time

from adapters.sqlstore.engine import make_engine, upgrade
from pipeline.desk.moderation import ModeratorDesk
from pipeline.desk.note_desk import NoteDesk
from pipeline.request import NoteRequest
from tests.fakes.service import fake_note_service


async def run(url: str, requests: int) -> None:
    await upgrade(url)
    engine = make_engine(url, concurrency=8)
    notes = fake_note_service(engine, worker_id="bench")
    desk = NoteDesk(notes, ModeratorDesk(notes.store))
    started = time.perf_counter()
    rows = await asyncio.gather(
        *(
            desk.check(NoteRequest(post_ref=f"MMR causes autism, variant {i}", key=f"load:{i}"))
            for i in range(requests)
        )
    )
    elapsed = time.perf_counter() - started
    waits = sorted(
        (r.started_at - r.created_at).total_seconds() for r in rows if r.started_at and r.created_at
    )
    done = sum(r.status in ("noted", "abstained") for r in rows)
    print(
        f"{requests} requests at once on {engine.dialect.name}: {done} completed, "
        f"{requests - len({r.id for r in rows})} duplicates, {elapsed:.1f} s "
        f"({requests / elapsed:.0f} episodes/s); queue wait p50 "
        f"{statistics.median(waits):.2f} s, p95 {waits[int(0.95 * len(waits))]:.2f} s"
    )
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--db", help="SQLAlchemy async URL (default: a fresh SQLite file)")
    parser.add_argument("--stress", type=int, default=0, help="CPU-spinning processes meanwhile")
    args = parser.parse_args()
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.stress)]
    for p in spinners:
        p.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run(args.db or f"sqlite+aiosqlite:///{folder}/load.db", args.requests))
    finally:
        for p in spinners:
            p.terminate()


def spin() -> None:
    deadline = time.monotonic() + 600  # bounded, even if the parent dies
    while time.monotonic() < deadline:
        pass


if __name__ == "__main__":
    main()
