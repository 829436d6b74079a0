"""`evonote doctor`: try every configured dependency."""

from __future__ import annotations

import argparse

from bot.commands.arguments import Subparsers
from bot.settings import Settings


def add_parser(sub: Subparsers) -> None:
    sub.add_parser("doctor", help="check every configured dependency (exit 0: all work)")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot import doctor

    return await doctor.doctor(settings)
