"""`evonote config`: the effective settings, secrets masked."""

from __future__ import annotations

import argparse

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_OK
from bot.settings import Settings, setting_rows
from pipeline.redact import redact


def add_parser(sub: Subparsers) -> None:
    config = sub.add_parser("config", help="print the effective settings (secrets masked)")
    config.add_argument(
        "--table",
        action="store_true",
        help="every setting as a Markdown table: variable, default, meaning (docs/settings.md)",
    )


async def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.table:
        print("| variable | default | meaning |\n| --- | --- | --- |")
        for variable, default, meaning in setting_rows():
            print(f"| `{variable}` | `{default}` | {meaning} |".replace("`none`", "none"))
        return EXIT_OK
    print(redact(settings.model_dump_json(indent=2)))
    return EXIT_OK
