"""`evonote` — the command line.

Exit codes: 0 a note or a reasoned abstention; 1 unexpected error; 2 the model server or a
setting is unusable; 3 the input cannot be processed (empty, too long, unsupported site, bad
file); 4 the episode failed for another reason (e.g. the model's output stayed invalid).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from adapters.local_corpus import CorpusDocument, LocalCorpus, read_folder, read_jsonl
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.memory_store import SqlMemoryStore
from bot import bench_cli, digest, doctor, memory_cli, personas_cli, serve, x_cli
from bot.app import build, open_database, open_store
from bot.arguments import Parser, positive, record_id
from bot.render import episode_json, episode_list_text, episode_text, steps_text
from bot.service import EpisodeFailed
from bot.settings import ConfigurationError, Settings, load_settings
from pipeline.errors import InvalidPostInput, ModelUnavailable, PostUnavailable
from pipeline.redact import redact
from pipeline.request import NoteRequest
from pipeline.trajectory import Progress

EXIT_OK, EXIT_ERROR, EXIT_CONFIG, EXIT_INPUT, EXIT_FAILED = 0, 1, 2, 3, 4

MODEL_HINT = (
    "start an OpenAI-compatible server (deploy/vllm/serve.sh starts vLLM) or point "
    "EVONOTE_LLM__BASE_URL at a running one"
)


def _parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = Parser(
        prog="evonote",
        description="Draft evidence-grounded Community Notes for health posts.",
        epilog=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="draft a note for one post (or abstain, saying why)")
    check.add_argument("post", help="a post URL, the post's text, or @file.json")
    check.add_argument("--json", action="store_true", help="print one JSON object")

    sub.add_parser("config", help="print the effective settings (secrets masked)")
    sub.add_parser("doctor", help="check every configured dependency (exit 0: all work)")
    digest_parser = sub.add_parser("digest", help="the daily digest: drafted notes, votes, lessons")
    digest_parser.add_argument(
        "--now",
        action="store_true",
        required=True,
        help="build it now, print it, post it where configured",
    )
    digest_parser.add_argument("--out", type=Path, help="where to write the chart (PNG)")

    episodes = sub.add_parser("episodes", help="stored episodes and their trajectories")
    esub = episodes.add_subparsers(dest="episodes_command", required=True)
    listing = esub.add_parser("list", help="the most recent episodes")
    listing.add_argument("--limit", type=positive, default=20)
    listing.add_argument("--status", choices=["queued", "running", "noted", "abstained", "failed"])
    show = esub.add_parser("show", help="one episode with every step")
    show.add_argument("id", type=record_id)
    show.add_argument("--json", action="store_true", help="print one JSON object")

    corpus = sub.add_parser("corpus", help="the local evidence corpus")
    csub = corpus.add_subparsers(dest="corpus_command", required=True)
    index = csub.add_parser(
        "index",
        help="build an on-disk index from JSONL files or folders "
        "of HTML, Markdown, text and PDF files",
    )
    index.add_argument("paths", nargs="+", type=Path)
    index.add_argument("--out", type=Path, help="index folder (default: DATA_DIR/corpus)")
    index.add_argument(
        "--base-url", help="public URL prefix for files in folders that name no URL of their own"
    )

    memory_cli.add_parsers(sub)
    personas_cli.add_parsers(sub)
    bench_cli.add_parsers(sub)
    serve.add_parser(sub)
    x_cli.add_parsers(sub)

    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=["upgrade"], help="apply migrations")
    return parser


async def _progress(event: Progress) -> None:
    detail = f": {event.detail}" if event.detail else ""
    print(
        f"· {event.phase} (searches {event.searches}/{event.max_searches}, "
        f"sources read {event.sources_read}){detail}",
        file=sys.stderr,
        flush=True,
    )


def cli_request(post: str) -> NoteRequest:
    """`@path` names a JSON file of the post: the one place a request may name a file."""
    ref = post.strip()
    if ref.startswith("@") and len(ref) > 1 and not any(c.isspace() for c in ref):
        return NoteRequest(post_ref=ref, post_file=ref[1:])
    return NoteRequest(post_ref=post)


async def _check(settings: Settings, args: argparse.Namespace) -> int:
    async with build(settings) as app:
        try:
            row = await app.notes.check(
                cli_request(args.post), progress=None if args.json else _progress
            )
        except EpisodeFailed as failed:
            row = failed.episode
            code = _exit_code(failed.cause)
            message = str(failed)
            if isinstance(failed.cause, ModelUnavailable):
                message += f" — {MODEL_HINT}"
            if args.json:
                print(
                    json.dumps(
                        episode_json(row, await app.store.steps(row.id or 0)), ensure_ascii=False
                    )
                )
            print(f"evonote: episode {row.id} failed: {redact(message)}", file=sys.stderr)
            return code
        assert row.id is not None
        steps = await app.store.steps(row.id)
        if args.json:
            print(json.dumps(episode_json(row, steps), ensure_ascii=False))
        else:
            print(episode_text(row))
        return EXIT_OK


def _exit_code(cause: BaseException) -> int:
    if isinstance(cause, InvalidPostInput | PostUnavailable):
        return EXIT_INPUT
    if isinstance(cause, ModelUnavailable | ConfigurationError):
        return EXIT_CONFIG
    return EXIT_FAILED


async def _episodes(settings: Settings, args: argparse.Namespace) -> int:
    async with open_store(settings) as store:
        if args.episodes_command == "list":
            print(episode_list_text(await store.recent(args.limit, args.status)))
            return EXIT_OK
        row = await store.get(args.id)
        if row is None:
            print(f"evonote: there is no episode {args.id}", file=sys.stderr)
            return EXIT_INPUT
        steps = await store.steps(args.id)
        if args.json:
            print(json.dumps(episode_json(row, steps), ensure_ascii=False, indent=1))
        else:
            print(episode_text(row) + "\n\nSteps:\n" + steps_text(steps))
        return EXIT_OK


def _index_corpus(settings: Settings, args: argparse.Namespace) -> int:
    started = time.perf_counter()
    documents: list[CorpusDocument] = []
    for path in args.paths:
        if not path.exists():
            print(f"evonote: {path} does not exist", file=sys.stderr)
            return EXIT_INPUT
        if path.is_file() and path.suffix.lower() in (".jsonl", ".json"):
            documents += read_jsonl(path)
            continue
        report = read_folder(path, args.base_url)  # a folder, or one HTML/Markdown/PDF file
        documents += report.documents
        for reason in report.skipped:
            print(f"skipped {reason}", file=sys.stderr)
    if not documents:
        print("evonote: nothing to index", file=sys.stderr)
        return EXIT_INPUT
    out = args.out or settings.data_dir / "corpus"
    corpus = LocalCorpus.build(documents)
    corpus.save(out)
    print(
        f"indexed {len(corpus.documents):,} documents into {out} in "
        f"{time.perf_counter() - started:.1f} s; use EVONOTE_SEARCH__CORPUS={out}"
    )
    return EXIT_OK


async def _digest(settings: Settings, args: argparse.Namespace) -> int:
    async with open_database(settings) as engine:
        store = EpisodeStore(engine)
        built = await digest.build_digest(store, SqlMemoryStore(engine))
    out = args.out or settings.data_dir / "digest.png"
    await asyncio.to_thread(out.write_bytes, built.chart_png)
    print(built.text() + f"\nchart: {out}")
    slack = settings.slack
    if slack.bot_token is not None and slack.digest_channel:
        client = AsyncWebClient(token=slack.bot_token.get_secret_value(), base_url=slack.api_url)
        await digest.post_to_slack(client, slack.digest_channel, built)
        print(f"posted to Slack channel {slack.digest_channel}")
    return EXIT_OK


async def _db(settings: Settings) -> int:
    async with open_store(settings):
        print(f"database at the newest schema: {redact(settings.database_url)}")
    return EXIT_OK


async def _main(args: argparse.Namespace) -> int:
    settings = load_settings()
    if args.command == "config":
        print(redact(settings.model_dump_json(indent=2)))
        return EXIT_OK
    if args.command == "check":
        return await _check(settings, args)
    if args.command == "digest":
        return await _digest(settings, args)
    if args.command == "doctor":
        return await doctor.doctor(settings)
    if args.command == "episodes":
        return await _episodes(settings, args)
    if args.command == "personas" and args.personas_command == "build":
        return await asyncio.to_thread(personas_cli.build_command, args)
    if args.command == "personas":
        return await personas_cli.calibrate_command(settings, args)
    if args.command == "bench" and args.bench_command == "run":
        return await bench_cli.run_command(settings, args)
    if args.command == "bench":
        return await bench_cli.simulate_command(args)
    if args.command == "memory":
        return await memory_cli.memory_command(settings, args)
    if args.command == "evolve":
        return await memory_cli.evolve_command(settings)
    if args.command == "vote":
        return await memory_cli.vote_command(settings, args)
    if args.command == "x":
        return await x_cli.x_command(settings, args)
    if args.command == "serve":
        return await serve.serve(settings, role=args.role)
    if args.command == "corpus":
        return await asyncio.to_thread(_index_corpus, settings, args)
    return await _db(settings)


EXIT_TERMINATED = 143


async def _stoppable(work: Coroutine[Any, Any, int]) -> int:
    """SIGTERM stops a command the way Ctrl-C does: its episode is failed with the reason
    (no other process will pick up a CLI request), nothing is left `running`."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    # Signal handlers belong to the main thread (tests call main() from others).
    handled = threading.current_thread() is threading.main_thread()
    if handled:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await work
    except asyncio.CancelledError:
        if task.cancelling() and handled:
            print("evonote: stopped (SIGTERM)", file=sys.stderr)
            return EXIT_TERMINATED
        raise
    finally:
        if handled:
            loop.remove_signal_handler(signal.SIGTERM)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_stoppable(_main(args)))
    except ConfigurationError as e:
        print(f"evonote: {redact(str(e))}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:
        print("evonote: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `evonote … | head`: the reader left. Point stdout at nothing so the interpreter's
        # final flush cannot raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except OSError as e:  # a path that cannot be written or read (--out, an index folder)
        where = f": {e.filename}" if e.filename else ""
        print(f"evonote: {e.strerror or e}{where}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
