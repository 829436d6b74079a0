"""`evonote bench run` (the paper's evaluation on a dataset) and `evonote bench simulate`
(a latency-simulating OpenAI-compatible server to run it against without a GPU)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from adapters.community_notes_tsv import load_community_notes
from bot.evaluation.charts import write_charts
from bot.evaluation.run import parse_variants, run_variant
from bot.progress import ProgressBar
from bot.settings import ConfigurationError, Settings
from bot.simulator.model import ResearchPolicy
from bot.simulator.profile import PROFILES
from bot.simulator.server import SimulatedModelServer
from pipeline.errors import EvoNoteError
from pipeline.evaluation.dataset import BenchPost, load_jsonl
from pipeline.evaluation.report import render_markdown, summarise

EXIT_OK, EXIT_INPUT, EXIT_FAILED = 0, 3, 1


def load(args: argparse.Namespace) -> list[BenchPost]:
    if args.cn_notes or args.cn_status:
        if not (args.cn_notes and args.cn_status):
            raise EvoNoteError("--cn-notes and --cn-status go together")
        posts = load_community_notes(args.cn_notes, args.cn_status, args.dataset)
    else:
        posts = load_jsonl(args.dataset)
    return posts[: args.limit] if args.limit else posts


async def run_command(settings: Settings, args: argparse.Namespace) -> int:
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
    total = len(posts) * len(variants)
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
                    settings, variant, posts, args.out, concurrency=args.concurrency, on_post=tick
                )
        except (ConfigurationError, EvoNoteError) as e:
            print(f"evonote: {e} (finished posts are kept; run again to continue)", file=sys.stderr)
            return EXIT_FAILED
    results = {v: summarise(rows) for v, rows in ledgers.items()}
    await asyncio.to_thread(write_outputs, results, ledgers, args.out, args.dataset.name)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"report: {args.out / 'report.md'}")
    return EXIT_OK


def write_outputs(
    results: dict[str, dict[str, object]],
    ledgers: dict[str, list[dict[str, object]]],
    out: Path,
    dataset: str,
) -> None:
    (out / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    (out / "report.md").write_text(render_markdown(results, dataset), encoding="utf-8")
    write_charts(results, ledgers, out)


async def simulate_command(args: argparse.Namespace) -> int:
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
