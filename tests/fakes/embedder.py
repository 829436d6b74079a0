"""The tests' embedder is the package's deterministic one."""

from bot.simulator.vectors import HashingEmbedder

__all__ = ["HashingEmbedder"]
