"""`evonote vote EPISODE up|down`: a moderator's verdict on an episode's note."""

from __future__ import annotations

import argparse
import getpass
import sys

from bot.commands.arguments import Subparsers, record_id
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import Settings

VOTES = {"up": 1, "down": -1}


def add_parser(sub: Subparsers) -> None:
    vote = sub.add_parser("vote", help="a moderator's verdict on an episode's note")
    vote.add_argument("episode", type=record_id)
    vote.add_argument("verdict", choices=list(VOTES))
    vote.add_argument("--reason")
    vote.add_argument("--user", default=getpass.getuser())


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.app import make_desk
    from bot.database import open_store
    from pipeline.desk.moderation import Voter
    from pipeline.moderation import vote_message

    vote = VOTES[args.verdict]
    async with open_store(settings) as store:
        operator = Voter("cli", args.user, is_moderator=True)  # whoever runs the CLI operates it
        answer = await make_desk(settings, store).vote(operator, args.episode, vote, args.reason)
    if answer.outcome is None:
        print(f"evonote: there is no episode {args.episode}", file=sys.stderr)
        return EXIT_INPUT
    print(f"episode {args.episode}: {vote_message(answer.outcome, vote)}")
    return EXIT_OK
