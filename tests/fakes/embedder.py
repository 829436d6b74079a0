"""The tests' embedder is the package's deterministic one."""

from bot.bench.vectors import HashingEmbedder

__all__ = ["HashingEmbedder"]
