"""`evonote` — the command line: the command table, and how a command ends.

Exit codes: 0 a note or a reasoned abstention; 1 unexpected error; 2 the model server or a
setting is unusable; 3 the input cannot be processed (empty, too long, unsupported site, bad
file, a bad command line); 4 the episode failed for another reason (e.g. the model's output
stayed invalid); 143 stopped by SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import threading
from collections.abc import Coroutine, Sequence
from typing import Any

from bot.commands import (
    Command,
    approve,
    bench,
    check,
    config,
    corpus,
    db,
    digest,
    doctor,
    episodes,
    evolve,
    memory,
    personas,
    serve,
    vote,
    x,
)
from bot.commands.arguments import Parser
from bot.commands.exits import (
    EXIT_CONFIG,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_STORAGE,
    EXIT_TERMINATED,
)
from bot.settings import ConfigurationError, load_settings
from pipeline.errors import StorageUnavailable
from pipeline.redact import redact

# In `--help` order. Each module: `add_parser(sub)` and `run(settings, args)`.
COMMANDS: dict[str, Command] = {
    "check": check,
    "config": config,
    "doctor": doctor,
    "digest": digest,
    "episodes": episodes,
    "corpus": corpus,
    "memory": memory,
    "evolve": evolve,
    "vote": vote,
    "personas": personas,
    "bench": bench,
    "serve": serve,
    "x": x,
    "approve": approve,
    "db": db,
}


def _parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = Parser(
        prog="evonote",
        description="Draft evidence-grounded Community Notes for health posts.",
        epilog=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS.values():
        command.add_parser(sub)
    return parser


async def _main(args: argparse.Namespace) -> int:
    return await COMMANDS[args.command].run(load_settings(), args)


async def _stoppable(work: Coroutine[Any, Any, int]) -> int:
    """SIGTERM and Ctrl-C stop a command alike: its episode is failed with the reason (no other
    process will pick up a CLI request), nothing is left `running`; the exit code and the
    line say which signal it was. (`serve` handles both itself, as a clean stop.)"""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    received: list[signal.Signals] = []

    def stop(sig: signal.Signals) -> None:
        received.append(sig)
        task.cancel()

    # Signal handlers belong to the main thread (tests call main() from others).
    handled = threading.current_thread() is threading.main_thread()
    signals = (signal.SIGTERM, signal.SIGINT)
    if handled:
        for sig in signals:
            loop.add_signal_handler(sig, stop, sig)
    try:
        return await work
    except asyncio.CancelledError:
        if task.cancelling() and received:
            if received[0] == signal.SIGINT:
                print("evonote: interrupted (Ctrl-C)", file=sys.stderr)
                return EXIT_INTERRUPTED
            print("evonote: stopped (SIGTERM)", file=sys.stderr)
            return EXIT_TERMINATED
        raise
    finally:
        if handled:
            for sig in signals:
                loop.remove_signal_handler(sig)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_stoppable(_main(args)))
    except ConfigurationError as e:
        print(f"evonote: {redact(str(e))}", file=sys.stderr)
        return EXIT_CONFIG
    except StorageUnavailable as e:
        print(f"evonote: {redact(str(e))}", file=sys.stderr)
        return EXIT_STORAGE
    except KeyboardInterrupt:
        print("evonote: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
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
