"""`evonote x submit|sync|status|quota|report|scan`: the Community Notes API loop, and the
watchlists' scan."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections import Counter
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers, record_id
from bot.commands.exits import EXIT_FAILED, EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings

if TYPE_CHECKING:
    from pipeline.desk.ports import EpisodeRepository


def add_parser(sub: Subparsers) -> None:
    x = sub.add_parser(
        "x",
        help="notes destinations (X's Community Notes API, Open Community Notes on Bluesky): "
        "submit approved notes, sync status",
    )
    xsub = x.add_subparsers(dest="x_command", required=True)
    submit = xsub.add_parser("submit", help="submit an approved episode's note")
    submit.add_argument("episode", type=record_id)
    submit.add_argument("--by", default=getpass.getuser(), help="who submits")
    submit.add_argument(
        "--live", action="store_true", help="not test mode (the account must be admitted)"
    )
    submit.add_argument(
        "--anyway",
        action="store_true",
        help="send a note held under X's evaluator's bar or the forecast's (a moderator's "
        "override)",
    )
    xsub.add_parser(
        "sync",
        help="fetch the status and ratings of the notes written; withdraw live notes whose "
        "early ratings predict Not Helpful (X's own writer's rules)",
    )
    xsub.add_parser(
        "status", help="admission against X's bars, the writing limit, the hit rate so far"
    )
    xsub.add_parser("quota", help="remaining requests and submissions")
    scan = xsub.add_parser(
        "scan",
        help="scan the watchlists once: which posts it takes and why (watch, author, link, "
        "age, velocity, note requests); queued for serve to draft",
    )
    scan.add_argument(
        "--dry-run",
        action="store_true",
        help="only show what the scan would take: nothing queued, drafted or marked seen",
    )
    xsub.add_parser(
        "report",
        help="what became of the live notes (share rated, helpful, net helpful) by the "
        "forecast's band, by what chose them (explore share or forecast), by the brief's word "
        "on the need for a note and by the post's age",
    )


def need_credentials(settings: Settings) -> None:
    if settings.x.credentials() is None and settings.bluesky.credentials() is None:
        raise ConfigurationError(
            "submitting needs a notes destination: X's Community Notes API "
            "(EVONOTE_X__CONSUMER_KEY, __CONSUMER_SECRET, __ACCESS_TOKEN and "
            "__ACCESS_TOKEN_SECRET) or Open Community Notes on Bluesky (EVONOTE_BLUESKY__HANDLE "
            "and __APP_PASSWORD)"
        )


async def scan(settings: Settings, dry_run: bool) -> int:
    from bot.app import build, make_scanner

    async with build(settings) as app:
        scanner = make_scanner(app)
        if scanner is None:
            raise ConfigurationError(
                "no watchlist is configured: set EVONOTE_X__WATCH_ACCOUNTS or "
                "EVONOTE_X__WATCH_QUERIES (with EVONOTE_X__BEARER_TOKEN), or "
                "EVONOTE_X__WATCH_ELIGIBLE (with the OAuth credentials)"
            )
        try:
            queued = await scanner.run_once(dry_run=dry_run)
        finally:
            await scanner.close()
    report = scanner.last.report
    assert report is not None
    print(f"watchlist scan: {report.summary()}")
    for line in report.lines:
        print(f"  {'✓' if line.taken else '·'} {line.text}")
    if not dry_run:
        print(f"queued {len(queued)} episodes: evonote serve drafts them")
    if report.lines and all(line.failed for line in report.lines):
        return EXIT_FAILED  # nothing could be read: the lines say why
    return EXIT_OK


async def declined_posts(episodes: EpisodeRepository) -> dict[str, int]:
    """Posts of the last 30 days the brief said need no note, per reason (`x report`)."""
    from datetime import UTC, datetime, timedelta

    from pipeline.brief import NoteNeed
    from pipeline.trajectory import EpisodeStatus

    declined: Counter[str] = Counter()
    for e in await episodes.since(datetime.now(UTC) - timedelta(days=30)):
        if e.status == EpisodeStatus.ABSTAINED and e.brief and e.brief.note_need != NoteNeed.NEEDED:
            declined[e.brief.note_need.value] += 1
    return dict(declined)


async def run(settings: Settings, args: argparse.Namespace) -> int:
    import httpx

    if args.x_command == "scan":
        return await scan(settings, args.dry_run)

    from bot.app import X_SUBMISSIONS_PER_DAY, make_chat_model, make_submitter
    from bot.database import open_stores
    from pipeline.desk.outcomes import outcome_report, tokens_per_note
    from pipeline.desk.send_rules import DAY_S, writer_standing
    from pipeline.desk.submit_outcome import OutcomeKind, SubmissionRefused
    from pipeline.errors import EvoNoteError

    async with httpx.AsyncClient() as http, open_stores(settings) as stores:
        submissions = stores.submissions
        if args.x_command == "quota":
            used = await submissions.submitted_since(DAY_S)
            print(
                f"submissions in the last 24 h: {used}/{X_SUBMISSIONS_PER_DAY} (every process); "
                "requests: at most 90 per 15 minutes (this process counts its own)"
            )
            return EXIT_OK
        if args.x_command == "report":
            # from what `sync` stored, like status: no API call
            written = await submissions.all()
            sent = [e for s in written if (e := await stores.episodes.get(s.episode_id))]
            needs = {e.id: e.brief.note_need.value for e in sent if e.brief is not None}
            revisions = await submissions.late_revisions()
            declined = await declined_posts(stores.episodes)
            lines = outcome_report(written, needs, declined, revisions)
            tokens_of = {e.id: (e.prompt_tokens or 0) + (e.completion_tokens or 0) for e in sent}
            if (tokens := tokens_per_note(written, tokens_of)) is not None:
                lines.insert(1, tokens)
            print("\n".join(lines))
            return EXIT_OK
        if args.x_command == "status":
            # from the statuses `sync` stored: no API call, so it works without credentials
            written = await submissions.all()
            if settings.x.credentials() is None and not written:
                # with nothing written, "Admission: not yet" read like a failed admission
                print(
                    "Nothing submitted yet, and no X credentials are set (EVONOTE_X__CONSUMER_KEY"
                    ", __CONSUMER_SECRET, __ACCESS_TOKEN, __ACCESS_TOKEN_SECRET): X's bars "
                    "below are what admission will take"
                )
            print("\n".join((await writer_standing(submissions)).summary()))
            return EXIT_OK
        need_credentials(settings)  # names the missing variables
        model, client = make_chat_model(settings)
        submitter = make_submitter(settings, stores.engine, http, model)
        assert submitter is not None
        try:
            if args.x_command == "sync":
                changed = await submitter.sync()
                print(f"{changed} submissions changed status")
                for line in await submitter.withdraw_failing():
                    print(line)
                return EXIT_OK
            outcome = await submitter.submit(
                args.episode,
                args.by,
                test_mode=False if args.live else None,
                anyway=args.anyway,
            )
        except SubmissionRefused as e:
            print(f"evonote: {e}", file=sys.stderr)
            return EXIT_INPUT
        except EvoNoteError as e:  # the API refused or failed: it says why
            print(f"evonote: {e}", file=sys.stderr)
            return EXIT_FAILED
        finally:
            await client.close()
    row = outcome.submission
    if row is None:  # revised, held or queued: nothing went to X
        print(f"episode {args.episode}: {outcome.message}")
        return EXIT_OK if outcome.kind == OutcomeKind.QUEUED else EXIT_INPUT
    print(
        f"submitted episode {row.episode_id} as X note {row.note_id} "
        f"({'test mode' if row.test_mode else 'live'}); {row.classification} "
        f"{row.misleading_tags}; claim-opinion score {row.claim_opinion_score}"
    )
    return EXIT_OK
