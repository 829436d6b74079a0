"""`evonote approve EPISODE`: a moderator approves a drafted note."""

from __future__ import annotations

import argparse
import getpass
import sys

from bot.commands.arguments import Subparsers, record_id
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import Settings


def add_parser(sub: Subparsers) -> None:
    approve = sub.add_parser("approve", help="approve a drafted note (then `x submit` may send it)")
    approve.add_argument("episode", type=record_id)
    approve.add_argument("--by", default=getpass.getuser(), help="who approves")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import make_desk
    from bot.database import open_store
    from pipeline.desk.moderation import Voter

    async with open_store(settings) as store:
        operator = Voter("cli", args.by, is_moderator=True)  # whoever runs the CLI operates it
        answer = await make_desk(settings, store).approve(operator, args.episode)
    if answer.message:
        print(f"evonote: episode {args.episode}: {answer.message}", file=sys.stderr)
        return EXIT_INPUT
    if answer.destination is None:  # pasted text, or no destination configured for the post
        print(
            f"episode {args.episode}: note approved by {args.by}; no notes destination takes "
            "its post (a post given as text has none), so it stays here"
        )
    else:
        print(
            f"episode {args.episode}: note approved by {args.by}; "
            f"`evonote x submit {args.episode}` sends it to {answer.destination}"
        )
    return EXIT_OK
