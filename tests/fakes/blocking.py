"""The blocking-call detector the pipeline's and the front ends' tests run under: a blocking
call on the event loop made by the shipped code (file or socket I/O, `time.sleep`, a lock
wait) fails the test that made it — FAISS, SQLite and CPU work must go through
`asyncio.to_thread`. (It found one: wordfreq reads its word list the first time a language is
looked up, now done in a thread.)

Allowed: importing a module (it reads its file; the CLI imports lazily, once); Alembic's
upgrade, which runs its own event loop in a worker thread (`adapters.sqlstore.engine.
_upgrade_once`, and the migrations' `_run` in SQLAlchemy's greenlet), off the application's
loop; Bolt reading its caller's source as its app is made; asyncpg looking for its password
file as it connects. Not scanned: tests over a
database fixture (its set-up is the test's) and hypothesis tests (hypothesis reads its own
sources). Over the front ends' tests it found blocking calls in shipped code: the process's
start time read from /proc as the app was built and whether an episode's owner is gone as
the database opened, BLAS's libraries looked for as the embedder loaded, the data folder
checked by `doctor`, the bench's ledger written, and the lesson filter's word lists read by
`memory import`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from blockbuster import BlockBuster, blockbuster_ctx

SCANNED = ["pipeline", "memory", "adapters", "bot"]


def detecting_blocking_calls(request: pytest.FixtureRequest) -> Iterator[BlockBuster | None]:
    if "engine" in request.fixturenames or hasattr(request.function, "hypothesis"):
        yield None
        return
    with blockbuster_ctx(SCANNED) as detector:
        for function in detector.functions.values():
            function.can_block_in("importlib._bootstrap>", "_find_and_load")
            function.can_block_in("adapters/sqlstore/engine.py", "_upgrade_once")
            # the migrations run in SQLAlchemy's greenlet, whose frames end at its start
            function.can_block_in("adapters/sqlstore/migrations/env.py", "_run")
            # Bolt's app reads its caller's source file as it is made (once, at start)
            function.can_block_in("slack_bolt/app/async_app.py", "__init__")
            # asyncpg looks for a password file and a client certificate as it connects
            function.can_block_in("asyncpg/connect_utils.py", "_parse_connect_dsn_and_args")
        yield detector
