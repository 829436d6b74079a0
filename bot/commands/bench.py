"""`evonote bench run` (the paper's evaluation on a dataset) and `evonote bench simulate`
(a latency-simulating OpenAI-compatible server to run it against without a GPU)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers, port, positive
from bot.commands.exits import EXIT_ERROR, EXIT_INPUT, EXIT_OK
from bot.settings import ConfigurationError, Settings
from bot.simulator.profile import PROFILES
from pipeline.errors import EvoNoteError

if TYPE_CHECKING:
    from bot.evaluation.run import Stream
    from memory.models import MemoryItem
    from pipeline.evaluation.dataset import BenchPost


def add_parser(sub: Subparsers) -> None:
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
    run.add_argument(
        "--split",
        metavar="TRAIN:TEST",
        help="by post time: memory variants learn from the earlier part (evolving), then "
        "the later part is run and reported (e.g. 70:30)",
    )
    run.add_argument(
        "--memory-from",
        type=Path,
        metavar="PATH",
        help="start every memory from lessons learned on an earlier stream: an earlier run's "
        "variant folder (OUT/full) or an `evonote memory export` file",
    )
    run.add_argument(
        "--similar-at",
        type=float,
        help="cosine between post embeddings from which an earlier post counts as similar "
        "(the report's breakdown by prior experience; default 0.6)",
    )
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


async def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.bench_command == "run":
        return await run_command(settings, args)
    return await simulate_command(args)


def load(args: argparse.Namespace) -> list[BenchPost]:
    from adapters.community_notes_tsv import load_community_notes
    from pipeline.evaluation.dataset import load_jsonl

    if args.cn_notes or args.cn_status:
        if not (args.cn_notes and args.cn_status):
            raise EvoNoteError("--cn-notes and --cn-status go together")
        posts = load_community_notes(args.cn_notes, args.cn_status, args.dataset)
    else:
        posts = load_jsonl(args.dataset)
    return posts[: args.limit] if args.limit else posts


async def run_command(settings: Settings, args: argparse.Namespace) -> int:
    from bot.evaluation.run import parse_variants, run_variant
    from bot.progress import ProgressBar
    from pipeline.evaluation.report import summarise

    try:
        if args.concurrency < 1:
            raise ValueError("--concurrency must be at least 1")
        variants = parse_variants(args.variants)
        posts = await asyncio.to_thread(load, args)
    except (ValueError, EvoNoteError) as e:
        print(f"evonote: {e}", file=sys.stderr)
        return EXIT_INPUT
    if not posts:
        print(f"evonote: {args.dataset} holds no posts", file=sys.stderr)
        return EXIT_INPUT
    try:
        stream = await make_stream(settings, args, posts)
    except (ValueError, OSError) as e:
        print(f"evonote: {e}", file=sys.stderr)
        return EXIT_INPUT
    total = sum(len(stream.posts_for(v)) for v in variants)
    done = 0
    ledgers = {}
    with ProgressBar("posts (all variants)", unit="posts") as bar:

        def tick(variant: str, ran: bool) -> None:
            nonlocal done
            done += 1
            bar(done, total)

        try:
            for variant in variants:
                ledgers[variant] = await run_variant(
                    settings, variant, stream, args.out, concurrency=args.concurrency, on_post=tick
                )
        except (ConfigurationError, EvoNoteError) as e:
            print(f"evonote: {e} (finished posts are kept; run again to continue)", file=sys.stderr)
            return EXIT_ERROR
    results = {v: summarise(rows) for v, rows in ledgers.items()}
    await asyncio.to_thread(write_outputs, results, ledgers, args.out, args.dataset.name)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"report: {args.out / 'report.md'}")
    return EXIT_OK


async def make_stream(
    settings: Settings, args: argparse.Namespace, posts: list[BenchPost]
) -> Stream:
    """The posts split as --split says, the lessons of --memory-from, and each post's prior."""
    from bot.database import read_lessons
    from bot.evaluation.run import Stream, place_posts
    from memory.transfer import read_jsonl
    from pipeline.evaluation.study import SIMILAR_AT, parse_split, split_by_time

    train: list[BenchPost] = []
    test = posts
    if args.split:
        if len(posts) < 2:
            raise ValueError("--split needs at least two posts")
        train, test = split_by_time(posts, parse_split(args.split))
    lessons: list[MemoryItem] = []
    if (source := args.memory_from) is not None:
        if await asyncio.to_thread(source.is_dir):
            lessons = await read_lessons(source)
        else:
            lessons = read_jsonl(await asyncio.to_thread(source.read_text, "utf-8"))
    priors = await place_posts(settings, posts, args.similar_at or SIMILAR_AT)
    return Stream(test=test, train=train, lessons=lessons, priors=priors)


def write_outputs(
    results: dict[str, dict[str, object]],
    ledgers: dict[str, list[dict[str, object]]],
    out: Path,
    dataset: str,
) -> None:
    from bot.evaluation.charts import write_charts
    from pipeline.evaluation.report import render_markdown

    (out / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    (out / "report.md").write_text(render_markdown(results, dataset), encoding="utf-8")
    write_charts(results, ledgers, out)


async def simulate_command(args: argparse.Namespace) -> int:
    from bot.simulator.model import ResearchPolicy
    from bot.simulator.server import SimulatedModelServer

    profile = PROFILES.get(args.profile or "")
    server = SimulatedModelServer(
        ResearchPolicy(),
        delay_s=args.delay,
        per_token_s=args.per_token,
        bind_port=args.port,
        profile=profile,
    ).start()
    behaves = f"profile {profile.name}" if profile else f"{args.delay} s per call"
    print(
        f"simulated model server at {server.base_url} (model {server.model}, {behaves}); "
        "Ctrl-C stops it"
    )
    try:
        await asyncio.Event().wait()
    finally:
        server.stop()
    return EXIT_OK
