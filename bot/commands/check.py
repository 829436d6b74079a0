"""`evonote check POST`: draft a note for one post, or abstain saying why."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_CONFIG, EXIT_FAILED, EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings
from pipeline.errors import InvalidPostInput, ModelUnavailable, PostUnavailable
from pipeline.redact import redact
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus

if TYPE_CHECKING:
    from pipeline.trajectory import Progress

MODEL_HINT = (
    "start an OpenAI-compatible server (deploy/vllm/serve.sh starts vLLM) or point "
    "EVONOTE_LLM__BASE_URL at a running one"
)


def add_parser(sub: Subparsers) -> None:
    check = sub.add_parser("check", help="draft a note for one post (or abstain, saying why)")
    check.add_argument("post", help="a post URL, the post's text, or @file.json")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--no-forecast",
        action="store_true",
        help="skip the simulated raters' forecast (it runs after the note, one call per persona)",
    )


def cli_request(post: str) -> NoteRequest:
    """`@path` names a JSON file of the post: the one place a request may name a file."""
    ref = post.strip()
    if ref.startswith("@") and len(ref) > 1 and not any(c.isspace() for c in ref):
        return NoteRequest(post_ref=ref, post_file=ref[1:], vouched=True)
    return NoteRequest(post_ref=post, vouched=True)  # whoever runs the CLI operates it


def progress_lines(personas: int) -> Callable[[Progress], Awaitable[None]]:
    """Progress on stderr; with `personas` > 0, a line says what the wait after `done` is."""

    async def show(event: Progress) -> None:
        detail = f": {event.detail}" if event.detail else ""
        print(
            f"· {event.phase} (searches {event.searches}/{event.max_searches}, "
            f"sources read {event.sources_read}){detail}",
            file=sys.stderr,
            flush=True,
        )
        if event.phase == "done" and event.detail == EpisodeStatus.NOTED and personas:
            print(
                f"· forecasting: {personas} simulated raters rate the note (--no-forecast "
                "skips this)",
                file=sys.stderr,
                flush=True,
            )

    return show


def exit_code(cause: BaseException) -> int:
    if isinstance(cause, InvalidPostInput | PostUnavailable):
        return EXIT_INPUT
    if isinstance(cause, ModelUnavailable | ConfigurationError):
        return EXIT_CONFIG
    return EXIT_FAILED


async def run(settings: Settings, args: argparse.Namespace) -> int:
    if not args.json:  # before the slow part: loading the model client, corpus and memory
        print("· starting (loading the model client, evidence and memory)", file=sys.stderr)
    from bot.app import build
    from bot.render import episode_json, episode_text
    from pipeline.desk.notes import EpisodeFailed

    if args.no_forecast:
        settings.forecast.enabled = False
    async with build(settings) as app:
        panel = app.notes.panel
        progress = None if args.json else progress_lines(len(panel.personas) if panel else 0)
        try:
            row = await app.cards.check(cli_request(args.post), progress)
        except EpisodeFailed as failed:
            row = failed.episode
            message = str(failed)
            if isinstance(failed.cause, ModelUnavailable):
                message += f" — {MODEL_HINT}"
            if args.json:
                steps = await app.store.steps(row.id or 0)
                print(json.dumps(episode_json(row, steps), ensure_ascii=False))
            print(f"evonote: episode {row.id} failed: {redact(message)}", file=sys.stderr)
            return exit_code(failed.cause)
        steps = await app.store.steps(row.id)
        if args.json:
            print(json.dumps(episode_json(row, steps), ensure_ascii=False))
        else:
            print(episode_text(row))
        return EXIT_OK
