"""`evonote x submit|sync|quota`: the Community Notes API loop."""

from __future__ import annotations

import argparse
import sys

import httpx

from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import NotesApiError
from adapters.x.oauth import OAuth1Credentials
from bot.app import make_chat_model, make_submitter
from bot.database import open_database
from bot.settings import ConfigurationError, Settings
from bot.submit import SubmissionRefused

EXIT_OK, EXIT_INPUT, EXIT_FAILED = 0, 3, 4


def credentials(settings: Settings) -> OAuth1Credentials:
    parts = settings.x.credentials()
    if parts is None:
        raise ConfigurationError(
            "the Community Notes API needs EVONOTE_X__CONSUMER_KEY, __CONSUMER_SECRET, "
            "__ACCESS_TOKEN and __ACCESS_TOKEN_SECRET"
        )
    return OAuth1Credentials(*parts)


async def x_command(settings: Settings, args: argparse.Namespace) -> int:
    async with httpx.AsyncClient() as http, open_database(settings) as engine:
        submissions = SubmissionStore(engine)
        if args.x_command == "quota":
            used = await submissions.submitted_since(24 * 3600)
            print(
                f"submissions in the last 24 h: {used}/250; requests: at most 90 per 15 "
                "minutes (this process counts its own)"
            )
            return EXIT_OK
        credentials(settings)  # names the missing variables
        model, client = make_chat_model(settings)
        submitter = make_submitter(settings, engine, http, model)
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
