"""`evonote serve`: the long-running process (scheduler, chat front ends, worker)."""

from __future__ import annotations

import argparse

from bot.commands.arguments import Subparsers
from bot.settings import Settings

ROLES = ("all", "gateway", "worker", "scheduler")


def add_parser(sub: Subparsers) -> None:
    serve = sub.add_parser(
        "serve",
        help="run the scheduler and, when their tokens are set, the Slack app and the Discord "
        "bot, until stopped",
    )
    serve.add_argument(
        "--role",
        choices=ROLES,
        default="all",
        help="all (one process, default); or, for several processes on one PostgreSQL "
        "database: gateway (chat front ends queue requests), worker (runs queued episodes and "
        "edits their cards), scheduler (the periodic jobs)",
    )


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot import serve

    return await serve.serve(settings, role=args.role)
