"""`evonote digest --now`: the daily digest, printed and posted where configured."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_OK
from bot.settings import Settings


def add_parser(sub: Subparsers) -> None:
    digest = sub.add_parser("digest", help="the daily digest: drafted notes, votes, lessons")
    digest.add_argument(
        "--now",
        action="store_true",
        required=True,
        help="build it now, print it, post it where configured",
    )
    digest.add_argument("--out", type=Path, help="where to write the chart (PNG)")


async def run(settings: Settings, args: argparse.Namespace) -> int:
    from bot import digest
    from bot.app import make_slack_client
    from bot.database import open_stores
    from pipeline.desk.outcomes import live_outcome
    from pipeline.desk.send_rules import writer_standing

    async with open_stores(settings) as stores:
        # the standing with X, once anything was submitted (or submitting is set)
        submitted = await stores.submissions.all()
        standing = (
            await writer_standing(stores.submissions)
            if submitted or settings.x.credentials()
            else None
        )
        built = await digest.build_digest(
            stores.episodes, stores.lessons, standing=standing, on_x=live_outcome(submitted)
        )
    out = args.out or settings.data_dir / "digest.png"
    await asyncio.to_thread(out.write_bytes, built.chart_png)
    print(built.text() + f"\nchart: {out}")
    client = make_slack_client(settings)
    if client is not None and settings.slack.digest_channel:
        await digest.post_to_slack(client, settings.slack.digest_channel, built)
        print(f"posted to Slack channel {settings.slack.digest_channel}")
    return EXIT_OK
