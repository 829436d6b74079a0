"""`evonote` — the command line.

Exit codes: 0 a note or a reasoned abstention; 1 unexpected error; 2 the model server or a
setting is unusable; 3 the input cannot be processed (empty, too long, unsupported site, bad
file, a bad command line); 4 the episode failed for another reason (e.g. the model's output
stayed invalid); 143 stopped by SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.arguments import Parser, port, positive, record_id
from bot.settings import ConfigurationError, Settings, load_settings
from bot.simulator.profile import PROFILES
from memory.models import LessonStatus
from pipeline.errors import InvalidPostInput, ModelUnavailable, PostUnavailable
from pipeline.ports import MemoryPhase
from pipeline.redact import redact
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeStatus

if TYPE_CHECKING:
    from pipeline.trajectory import Progress

# The heavy libraries (model clients, FAISS, scikit-learn, matplotlib, the chat SDKs) are
# imported inside the commands that use them: `evonote --help` and `episodes list` start fast.
ROLES = ("all", "gateway", "worker", "scheduler")

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
    listing.add_argument("--status", choices=[s.value for s in EpisodeStatus])
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

    memory_parsers(sub)
    personas_parsers(sub)
    bench_parsers(sub)
    serve_parser(sub)
    x_parsers(sub)

    approve = sub.add_parser("approve", help="approve a drafted note (then `x submit` may send it)")
    approve.add_argument("episode", type=record_id)
    approve.add_argument("--by", default=getpass.getuser(), help="who approves")

    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=["upgrade"], help="apply migrations")
    return parser


def memory_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    memory = sub.add_parser("memory", help="the experience memory: inspect and curate lessons")
    msub = memory.add_subparsers(dest="memory_command", required=True)
    listing = msub.add_parser("list", help="lessons, newest first")
    listing.add_argument("--phase", choices=[p.value for p in MemoryPhase])
    listing.add_argument("--status", choices=[s.value for s in LessonStatus])
    show = msub.add_parser("show", help="one lesson with its audit log")
    show.add_argument("id", type=record_id)
    for name, help_text in (
        ("retire", "stop using a lesson"),
        ("restore", "use it again"),
        ("approve", "make a provisional lesson active"),
    ):
        command = msub.add_parser(name, help=help_text)
        command.add_argument("id", type=record_id)
        command.add_argument("--actor", default=getpass.getuser())
        if name == "retire":
            command.add_argument("--why", required=True, help="why it is retired")
    edit = msub.add_parser("edit", help="change a lesson's wording or phase")
    edit.add_argument("id", type=record_id)
    edit.add_argument("--trigger")
    edit.add_argument("--strategy")
    edit.add_argument("--phase", choices=[p.value for p in MemoryPhase])
    edit.add_argument("--actor", default=getpass.getuser())
    export = msub.add_parser("export", help="every lesson as JSONL")
    export.add_argument("--out", type=Path, help="file (default: standard output)")
    load = msub.add_parser("import", help="add lessons from JSONL (merged with near-duplicates)")
    load.add_argument("file", type=Path)
    load.add_argument("--actor", default=getpass.getuser())
    msub.add_parser("stats", help="lessons by phase and status, the most used")

    evolve = sub.add_parser("evolve", help="judge finished episodes and distil lessons")
    evolve.add_argument(
        "--once",
        action="store_true",
        required=True,
        help="one run of the scheduled evolve job, now: every finished episode is judged, "
        "without waiting EVONOTE_MEMORY__JUDGE_AFTER_S for votes",
    )

    vote = sub.add_parser("vote", help="a moderator's verdict on an episode's note")
    vote.add_argument("episode", type=record_id)
    vote.add_argument("verdict", choices=["up", "down"])
    vote.add_argument("--reason")
    vote.add_argument("--user", default=getpass.getuser())


def personas_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    personas = sub.add_parser("personas", help="simulated rater personas (MultiCom)")
    psub = personas.add_subparsers(dest="personas_command", required=True)
    build = psub.add_parser("build", help="fit the rater space on real ratings and cluster it")
    score = psub.add_parser(
        "score", help="the official first round's fit and note status, in X's file layout"
    )
    for command in (build, score):
        command.add_argument("--ratings", type=Path, required=True, help="ratings TSV (2021/now)")
        command.add_argument(
            "--notes", type=Path, help="notes TSV: rate its misleading notes only (officially)"
        )
        command.add_argument(
            "--all-ratings",
            action="store_true",
            help="skip the official preprocessing (misleading notes, 5+ raters per note, "
            "10+ ratings per rater)",
        )
        command.add_argument("--seed", type=int, default=0)
        command.add_argument("--out", type=Path, required=True)
    build.add_argument("--k", type=positive, default=16, help="personas (clusters)")
    score.add_argument("--raters-out", type=Path, help="raters' intercepts and factors (TSV)")
    calibrate = psub.add_parser("calibrate", help="fit the aggregator on labelled notes")
    calibrate.add_argument(
        "--data",
        type=Path,
        required=True,
        help="JSONL: {post, note, label: helpful|not_helpful|needs_more_ratings}",
    )
    calibrate.add_argument("--out", type=Path, required=True)
    calibrate.add_argument("--folds", type=positive, default=5)


def bench_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = sub.add_parser("bench", help="the paper's evaluation: variants, judges, report")
    bsub = bench.add_subparsers(dest="bench_command", required=True)
    run = bsub.add_parser("run", help="replay a dataset per variant, judge, write the report")
    run.add_argument("dataset", type=Path, help="JSONL: id, text, created_at, [human_note, ...]")
    run.add_argument(
        "--variants",
        default="full",
        help="comma-separated: full, memory-frozen, memory-off, no-analyzer",
    )
    run.add_argument("--out", type=Path, required=True, help="folder for report and ledgers")
    run.add_argument("--concurrency", type=positive, default=1, help="episodes at a time")
    run.add_argument("--limit", type=positive, help="only the first N posts (post-time order)")
    run.add_argument("--json", action="store_true", help="print results.json to stdout")
    run.add_argument(
        "--cn-notes",
        type=Path,
        help="with --cn-status: read a Community Notes notes TSV, "
        "and take post text from DATASET lines {tweet_id, text, created_at}",
    )
    run.add_argument("--cn-status", type=Path, help="the noteStatusHistory TSV")
    simulate = bsub.add_parser("simulate", help="serve a latency-simulating model endpoint")
    simulate.add_argument("--port", type=port, default=8000)
    simulate.add_argument("--delay", type=float, default=0.5, help="seconds per call")
    simulate.add_argument("--per-token", type=float, default=0.0, help="seconds per token")
    simulate.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        help="behave like this model on this accelerator (prefill, decode slowing with the "
        "batch, realistic output lengths); replaces --delay and --per-token",
    )


def serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve_parser = sub.add_parser(
        "serve",
        help="run the scheduler and, when their tokens are set, the Slack app and the Discord "
        "bot, until stopped",
    )
    serve_parser.add_argument(
        "--role",
        choices=ROLES,
        default="all",
        help="all (one process, default); or, for several processes on one PostgreSQL "
        "database: gateway (chat front ends queue requests), worker (runs queued episodes and "
        "edits their cards), scheduler (the periodic jobs)",
    )


def x_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    if not args.json:  # before the slow part: loading the model client, corpus and memory
        print("· starting (loading the model client, evidence and memory)", file=sys.stderr)
    from bot.app import build
    from bot.render import episode_json, episode_text
    from pipeline.desk.notes import EpisodeFailed

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


def _index_corpus(settings: Settings, args: argparse.Namespace) -> int:
    from adapters.local_corpus import CorpusDocument, LocalCorpus, read_folder, read_jsonl
    from bot.progress import ProgressBar

    started = time.perf_counter()
    documents: list[CorpusDocument] = []
    for path in args.paths:
        if not path.exists():
            print(f"evonote: {path} does not exist", file=sys.stderr)
            return EXIT_INPUT
        if path.is_file() and path.suffix.lower() in (".jsonl", ".json"):
            try:
                documents += read_jsonl(path)
            except ValueError as e:
                print(f"evonote: {e}", file=sys.stderr)
                return EXIT_INPUT
            continue
        with ProgressBar(f"reading {path.name}", unit="files") as bar:
            report = read_folder(path, args.base_url, bar)  # a folder, or one file
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
    from slack_sdk.web.async_client import AsyncWebClient

    from adapters.sqlstore.episodes import EpisodeStore
    from adapters.sqlstore.memory_store import SqlMemoryStore
    from bot import digest
    from bot.database import open_database

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
    from bot.database import open_store

    async with open_store(settings):
        print(f"database at the newest schema: {redact(settings.database_url)}")
    return EXIT_OK


async def _config(settings: Settings, args: argparse.Namespace) -> int:
    print(redact(settings.model_dump_json(indent=2)))
    return EXIT_OK


async def _doctor(settings: Settings, args: argparse.Namespace) -> int:
    from bot import doctor

    return await doctor.doctor(settings)


async def _personas(settings: Settings, args: argparse.Namespace) -> int:
    from bot import personas_cli

    if args.personas_command == "build":
        return await asyncio.to_thread(personas_cli.build_command, args)
    if args.personas_command == "score":
        return await asyncio.to_thread(personas_cli.score_command, args)
    return await personas_cli.calibrate_command(settings, args)


async def _bench(settings: Settings, args: argparse.Namespace) -> int:
    from bot import evaluation_cli

    if args.bench_command == "run":
        return await evaluation_cli.run_command(settings, args)
    return await evaluation_cli.simulate_command(args)


async def _memory(settings: Settings, args: argparse.Namespace) -> int:
    from bot import memory_cli

    return await memory_cli.memory_command(settings, args)


async def _evolve(settings: Settings, args: argparse.Namespace) -> int:
    from bot import memory_cli

    return await memory_cli.evolve_command(settings)


async def _vote(settings: Settings, args: argparse.Namespace) -> int:
    from bot import memory_cli

    return await memory_cli.vote_command(settings, args)


async def _x(settings: Settings, args: argparse.Namespace) -> int:
    from bot import x_cli

    return await x_cli.x_command(settings, args)


async def _serve(settings: Settings, args: argparse.Namespace) -> int:
    from bot import serve

    return await serve.serve(settings, role=args.role)


async def _corpus(settings: Settings, args: argparse.Namespace) -> int:
    return await asyncio.to_thread(_index_corpus, settings, args)


async def _approve(settings: Settings, args: argparse.Namespace) -> int:
    from bot.database import open_store
    from pipeline.desk.moderation import ModeratorDesk, Voter

    async with open_store(settings) as store:
        operator = Voter("cli", args.by, is_moderator=True)  # whoever runs the CLI operates it
        answer = await ModeratorDesk(store).approve(operator, args.episode)
    if answer.message:
        print(f"evonote: episode {args.episode}: {answer.message}", file=sys.stderr)
        return EXIT_INPUT
    print(f"episode {args.episode}: note approved by {args.by}; `evonote x submit {args.episode}`")
    return EXIT_OK


async def _database(settings: Settings, args: argparse.Namespace) -> int:
    return await _db(settings)


Command = Callable[[Settings, argparse.Namespace], Awaitable[int]]
COMMANDS: dict[str, Command] = {
    "check": _check,
    "config": _config,
    "doctor": _doctor,
    "digest": _digest,
    "episodes": _episodes,
    "corpus": _corpus,
    "memory": _memory,
    "evolve": _evolve,
    "vote": _vote,
    "personas": _personas,
    "bench": _bench,
    "serve": _serve,
    "x": _x,
    "db": _database,
    "approve": _approve,
}


async def _main(args: argparse.Namespace) -> int:
    return await COMMANDS[args.command](load_settings(), args)


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
