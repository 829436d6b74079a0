"""How long an operator waits: start-up of light commands, and the first progress line of
`evonote check`. Prints numbers; asserts nothing.

    python -m bench.startup [--runs 5]

Each command runs in a fresh process (as an operator types it) against the simulated model
server (no delay) and a small corpus; the times are wall-clock medians on this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.burst import DOCUMENTS
from bot.simulator.model import ResearchPolicy
from bot.simulator.server import SimulatedModelServer

ROOT = Path(__file__).resolve().parents[1]


def timed(argv: list[str], env: dict[str, str], until: bytes | None = None) -> float:
    """Seconds until the process exits, or until a stderr line starts with `until`."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *argv],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    if until is not None:
        for line in process.stderr:
            if line.startswith(until):
                elapsed = time.perf_counter() - started
                process.wait()
                return elapsed
    process.wait()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    server = SimulatedModelServer(ResearchPolicy()).start()
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            corpus = folder / "corpus.jsonl"
            corpus.write_text("\n".join(json.dumps(d) for d in DOCUMENTS) + "\n")
            env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
            env.update(
                {
                    "PYTHONPATH": str(ROOT),
                    "EVONOTE_DATA_DIR": str(folder),
                    "EVONOTE_LLM__BASE_URL": server.base_url,
                    "EVONOTE_SEARCH__CORPUS": str(corpus),
                }
            )
            timed(["check", "MMR causes autism"], env)  # warm: migrations, corpus index
            cases = [
                ("evonote --help", ["--help"], None),
                ("evonote episodes list", ["episodes", "list"], None),
                ("check: first progress line", ["check", "MMR causes autism"], "· ".encode()),
                ("check: analysing begins", ["check", "MMR causes autism"], "· analysing".encode()),
                ("check: the note printed", ["check", "MMR causes autism"], None),
            ]
            for label, argv, until in cases:
                times = [timed(argv, env, until) for _ in range(args.runs)]
                print(
                    f"{label:<30} median {statistics.median(times):5.2f} s  "
                    f"(min {min(times):.2f}, max {max(times):.2f}, {args.runs} runs)"
                )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
