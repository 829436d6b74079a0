"""`evonote db upgrade`: apply migrations."""

from __future__ import annotations

import argparse

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_OK
from bot.settings import Settings
from pipeline.redact import redact


def add_parser(sub: Subparsers) -> None:
    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=["upgrade"], help="apply migrations")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.database import open_database

    async with open_database(settings):
        print(f"database at the newest schema: {redact(settings.database_url)}")
    return EXIT_OK
