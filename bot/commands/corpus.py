"""`evonote corpus index`: build the local evidence corpus."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bot.commands.arguments import Subparsers
from bot.commands.exits import EXIT_INPUT, EXIT_OK
from bot.settings import Settings

if TYPE_CHECKING:
    from adapters.local_corpus import CorpusDocument


def add_parser(sub: Subparsers) -> None:
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


async def run(settings: Settings, args: argparse.Namespace) -> int:
    return await asyncio.to_thread(_index, settings, args)


def _index(settings: Settings, args: argparse.Namespace) -> int:
    from adapters.local_corpus import LocalCorpus, read_folder, read_jsonl
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
        print(
            "evonote: nothing to index: no JSONL line with url and text (or the COVID-QA "
            "layout), and no .html, .md, .txt or .pdf file with a source URL in "
            + ", ".join(str(p) for p in args.paths),
            file=sys.stderr,
        )
        return EXIT_INPUT
    out = args.out or settings.data_dir / "corpus"
    corpus = LocalCorpus.build(documents)
    corpus.save(out)
    print(
        f"indexed {len(corpus.documents):,} documents into {out} in "
        f"{time.perf_counter() - started:.1f} s; use EVONOTE_SEARCH__CORPUS={out}"
    )
    return EXIT_OK
