"""`evonote episodes list|show`: stored episodes and their trajectories."""

from __future__ import annotations

import argparse
import json
import sys

from bot.commands.arguments import Subparsers, positive, record_id
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import Settings
from pipeline.trajectory import EpisodeStatus


def add_parser(sub: Subparsers) -> None:
    episodes = sub.add_parser("episodes", help="stored episodes and their trajectories")
    esub = episodes.add_subparsers(dest="episodes_command", required=True)
    listing = esub.add_parser("list", help="the most recent episodes")
    listing.add_argument("--limit", type=positive, default=20)
    listing.add_argument("--status", choices=[s.value for s in EpisodeStatus])
    show = esub.add_parser("show", help="one episode with every step")
    show.add_argument("id", type=record_id)
    show.add_argument("--json", action="store_true", help="print one JSON object")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot.database import open_store
    from bot.render import episode_json, episode_list_text, episode_text, steps_text

    async with open_store(settings) as store:
        if args.episodes_command == "list":
            print(episode_list_text(await store.recent(args.limit, args.status)))
            return EXIT_OK
        row = await store.get(args.id)
        if row is None:
            print(f"evonote: there is no episode {args.id}", file=sys.stderr)
            return EXIT_INPUT
        steps, votes = await store.steps(args.id), await store.votes(args.id)
        if args.json:
            print(json.dumps(episode_json(row, steps, votes), ensure_ascii=False, indent=1))
        else:
            print(episode_text(row, votes) + "\n\nSteps:\n" + steps_text(steps))
        return EXIT_OK
