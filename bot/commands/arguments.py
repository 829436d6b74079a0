"""Command-line values checked where they are parsed, so a mistake is one clear line."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TypeAlias

from bot.commands.exits import EXIT_INPUT

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

# Ids are 64-bit integers in the database; a larger number cannot name anything.
MAX_ID = 2**63 - 1


def record_id(text: str) -> int:
    """An episode or lesson id: a whole number from 1 to MAX_ID."""
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= MAX_ID:
        raise argparse.ArgumentTypeError(f"'{text[:30]}' is not an id (a whole number from 1)")
    return int(text)


# Far beyond any count a command can use, far below what a database integer can hold.
LARGEST_COUNT = 1_000_000


def positive(text: str) -> int:
    """A count from 1 to LARGEST_COUNT (--limit, --k, --folds, --concurrency)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= LARGEST_COUNT:
        raise argparse.ArgumentTypeError(
            f"'{text[:30]}' must be a whole number from 1 to {LARGEST_COUNT:,}"
        )
    return value


def port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"'{text[:30]}' is not a port (1-65535)")
    return int(text)


class Parser(argparse.ArgumentParser):
    """argparse, with a bad command line answered as bad input (exit 3), not as exit 2,
    which EvoNote keeps for unusable settings."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: {message}\n")
