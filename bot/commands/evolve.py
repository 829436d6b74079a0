"""`evonote evolve --once`: one run of the scheduled evolve job, now."""

from __future__ import annotations

import argparse
import sys

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_FAILED, EXIT_OK
from bot.settings import Settings


def add_parser(sub: Subparsers) -> None:
    evolve = sub.add_parser("evolve", help="judge finished episodes and distil lessons")
    evolve.add_argument(
        "--once",
        action="store_true",
        required=True,
        help="one run of the scheduled evolve job, now: every finished episode is judged, "
        "without waiting EVONOTE_MEMORY__JUDGE_AFTER_S for votes",
    )


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import make_evolver, make_llm_client, open_memory
    from bot.commands.memory import need_memory
    from bot.database import open_database

    client = make_llm_client(settings)
    try:
        async with open_database(settings) as engine:
            memory = await need_memory(await open_memory(settings, engine))
            report = await make_evolver(
                settings, engine, memory, client, judge_after_s=0
            ).run_once()
            await memory.persist()
    finally:
        await client.close()
    print(report.summary())
    for line in report.refused:
        print(f"  refused {line}")
    for line in report.failed:
        print(f"  failed {line}", file=sys.stderr)
    return EXIT_OK if not report.failed else EXIT_FAILED
