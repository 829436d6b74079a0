"""The pipeline's tests run under a blocking-call detector: a blocking call on the event loop
made by the shipped code (file or socket I/O, `time.sleep`, a lock wait) fails the test that
made it — FAISS, SQLite and CPU work must go through `asyncio.to_thread`. (It found one:
wordfreq reads its word list the first time a language is looked up, now done in a thread.)

Not scanned: tests over a database fixture (its set-up is the test's, and asyncpg looks for
its password file as it connects) and hypothesis tests (hypothesis reads its own sources)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from blockbuster import BlockBuster, blockbuster_ctx


@pytest.fixture(autouse=True)
def blockbuster(request: pytest.FixtureRequest) -> Iterator[BlockBuster | None]:
    if "engine" in request.fixturenames or hasattr(request.function, "hypothesis"):
        yield None
        return
    with blockbuster_ctx(["pipeline", "memory", "adapters", "bot"]) as detector:
        for function in detector.functions.values():
            # importing a module reads its file (the CLI imports lazily, once)
            function.can_block_in("importlib._bootstrap>", "_find_and_load")
        yield detector
