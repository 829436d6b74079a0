"""`evonote config`: the effective settings, secrets masked."""

from __future__ import annotations

import argparse

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_OK
from bot.settings import Settings
from pipeline.redact import redact


def add_parser(sub: Subparsers) -> None:
    sub.add_parser("config", help="print the effective settings (secrets masked)")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    print(redact(settings.model_dump_json(indent=2)))
    return EXIT_OK
