"""A throwaway PostgreSQL server on loopback (trust auth), for tests and benchmarks."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import asyncpg
import pytest


def binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return versions[-1].parent if versions else None


@dataclass
class LocalPostgres:
    port: int
    data: Path
    prefix: list[str]
    bin: Path

    def pause(self) -> None:
        """Stop the server, keeping its data (a restart, an outage)."""
        subprocess.run(
            [*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop"],
            check=False,
            capture_output=True,
        )

    def resume(self) -> None:
        _pg_start(self.prefix, self.bin, self.data, self.port)

    def stop(self) -> None:
        self.pause()
        shutil.rmtree(self.data, ignore_errors=True)


async def fresh_database(port: int, prefix: str = "t") -> str:
    """Create an empty database on the server at `port`; returns its SQLAlchemy URL."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="postgres")
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return f"postgresql+asyncpg://postgres@127.0.0.1:{port}/{name}"


async def drop_database(port: int, url: str) -> None:
    """Drop a database `fresh_database` made (its connections closed first): the server
    stops fast at the end of the session instead of checkpointing hundreds of them."""
    name = url.rsplit("/", 1)[-1]
    admin = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="postgres")
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def start_postgres() -> LocalPostgres | None:
    """None when PostgreSQL is not installed (or, as root, there is no postgres user)."""
    found = binaries()
    if found is None:
        return None
    # Not under pytest's temporary folder: the postgres user cannot enter root's.
    data = Path(tempfile.mkdtemp(prefix="evonote-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # postgres refuses to run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None
        shutil.chown(data, "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run(
        [*prefix, str(found / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    _pg_start(prefix, found, data, port)
    return LocalPostgres(port, data, prefix, found)


def _pg_start(prefix: list[str], found: Path, data: Path, port: int) -> None:
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        [
            *prefix,
            str(found / "pg_ctl"),
            "-D",
            str(data),
            "-o",
            options,
            "-w",
            "-l",
            str(data / "log"),
            "start",
        ],
        check=True,
        capture_output=True,
    )


class PortAllowing(Protocol):
    """The tests' network guard, as a server of the test's own needs it."""

    def allow(self, port: int) -> None: ...


@asynccontextmanager
async def own_postgres(
    network_guard: PortAllowing, monkeypatch: pytest.MonkeyPatch, name: str
) -> AsyncIterator[LocalPostgres]:
    """A PostgreSQL server of the test's own (it may stop it), a fresh database on it in
    EVONOTE_DB__URL; skipped where PostgreSQL is not installed."""
    server = start_postgres()
    if server is None:
        pytest.skip("PostgreSQL is not installed on this machine")
    try:
        network_guard.allow(server.port)
        monkeypatch.setenv("EVONOTE_DB__URL", await fresh_database(server.port, name))
        yield server
    finally:
        server.stop()
