"""The `evonote` commands, one module each.

Every module declares `add_parser(sub)` and `async def run(settings, args) -> int`. A module
imports only light libraries at its top: every module is loaded to build the parser, so the
heavy ones (model clients, FAISS, scikit-learn, the chat SDKs) are imported inside `run`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.commands.arguments import Subparsers
    from bot.settings import Settings


class Command(Protocol):
    """What a command module provides (a module satisfies a Protocol structurally)."""

    def add_parser(self, sub: Subparsers) -> None: ...

    async def run(self, settings: Settings, args: argparse.Namespace) -> int: ...
