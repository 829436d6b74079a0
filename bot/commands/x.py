"""`evonote x submit|sync|quota`: the Community Notes API loop."""

from __future__ import annotations

import argparse
import getpass
import sys

from bot.commands.arguments import Subparsers, record_id
from bot.commands.exits import EXIT_FAILED, EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings


def add_parser(sub: Subparsers) -> None:
    x = sub.add_parser("x", help="X's Community Notes API: submit approved notes, sync status")
    xsub = x.add_subparsers(dest="x_command", required=True)
    submit = xsub.add_parser("submit", help="submit an approved episode's note")
    submit.add_argument("episode", type=record_id)
    submit.add_argument("--by", default=getpass.getuser(), help="who submits")
    submit.add_argument(
        "--live", action="store_true", help="not test mode (the account must be admitted)"
    )
    xsub.add_parser("sync", help="fetch the status of the notes written")
    xsub.add_parser("quota", help="remaining requests and submissions")


def need_credentials(settings: Settings) -> None:
    if settings.x.credentials() is None:
        raise ConfigurationError(
            "the Community Notes API needs EVONOTE_X__CONSUMER_KEY, __CONSUMER_SECRET, "
            "__ACCESS_TOKEN and __ACCESS_TOKEN_SECRET"
        )


async def run(settings: Settings, args: argparse.Namespace) -> int:
    import httpx

    from adapters.x.community_notes import DAY_S, SUBMISSIONS_PER_DAY, NotesApiError
    from bot.app import make_chat_model, make_submitter
    from bot.database import open_stores
    from bot.submit import SubmissionRefused

    async with httpx.AsyncClient() as http, open_stores(settings) as stores:
        submissions = stores.submissions
        if args.x_command == "quota":
            used = await submissions.submitted_since(DAY_S)
            print(
                f"submissions in the last 24 h: {used}/{SUBMISSIONS_PER_DAY} (every process); "
                "requests: at most 90 per 15 minutes (this process counts its own)"
            )
            return EXIT_OK
        need_credentials(settings)  # names the missing variables
        model, client = make_chat_model(settings)
        submitter = make_submitter(settings, stores.engine, http, model)
        assert submitter is not None
        try:
            if args.x_command == "sync":
                changed = await submitter.sync(test_mode=settings.x.test_mode)
                print(f"{changed} submissions changed status")
                return EXIT_OK
            row = await submitter.submit(
                args.episode, args.by, test_mode=not args.live and settings.x.test_mode
            )
        except SubmissionRefused as e:
            print(f"evonote: {e}", file=sys.stderr)
            return EXIT_INPUT
        except NotesApiError as e:
            print(f"evonote: {e}", file=sys.stderr)
            return EXIT_FAILED
        finally:
            await client.close()
    mode = "test mode" if row.test_mode else "live"
    print(
        f"submitted episode {row.episode_id} as X note {row.note_id} ({mode}); "
        f"{row.classification} {row.misleading_tags}; claim-opinion score "
        f"{row.claim_opinion_score}"
    )
    return EXIT_OK
