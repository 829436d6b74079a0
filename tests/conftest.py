"""Test-wide switches: no real network or model calls, a private data directory per test."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.engine import make_engine, upgrade
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.policy import ResearchPolicy
from tests.fakes.postgres import drop_database, fresh_database, start_postgres

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
REAL_MODEL = os.environ.get("EVONOTE_TEST_REAL_MODEL") == "1"
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}

# Property tests search the same examples on every run: a green CI run is repeatable, and an
# example that breaks a rule is kept as a test (set HYPOTHESIS_PROFILE=explore to search anew).
# No deadline: a property holds or not whatever the machine's load (timings are benchmarks'),
# and a 2-core CI shared with other work fails a 200 ms deadline at random.
hypothesis_settings.register_profile("repeatable", derandomize=True, deadline=None)
hypothesis_settings.register_profile("explore", derandomize=False, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


class RealNetworkCall(RuntimeError):
    """A test tried to reach something other than a fake it started itself."""


class NetworkGuard:
    """Allows loopback connections only to ports that fixtures registered."""

    def __init__(self) -> None:
        self.ports: set[int] = set()
        self.violations: list[str] = []

    def allow(self, port: int) -> None:
        self.ports.add(port)

    def check(self, address: Any) -> None:
        if not isinstance(address, tuple):
            return  # AF_UNIX
        host, port = address[0], address[1]
        if host in _LOOPBACK and port in self.ports:
            return
        message = (
            f"real network call to {host}:{port} — tests must use the fakes in "
            "tests/fakes (set EVONOTE_TEST_REAL_MODEL=1 for the opt-in real-model test)"
        )
        self.violations.append(message)
        raise RealNetworkCall(message)


@pytest.fixture(autouse=True)
def network_guard(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[NetworkGuard]:
    guard = NetworkGuard()
    if REAL_MODEL and request.node.get_closest_marker("real_model"):
        yield guard
        return
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex
    getaddrinfo = socket.getaddrinfo

    def guarded_connect(sock: socket.socket, address: Any) -> Any:
        guard.check(address)
        return connect(sock, address)

    def guarded_connect_ex(sock: socket.socket, address: Any) -> Any:
        guard.check(address)
        return connect_ex(sock, address)

    def guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in (None, *_LOOPBACK):
            message = f"real DNS lookup of {host!r} — tests must not resolve outside names"
            guard.violations.append(message)
            raise RealNetworkCall(message)
        return getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    yield guard
    if guard.violations:
        pytest.fail("; ".join(dict.fromkeys(guard.violations)))


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data directory and none of the developer's EVONOTE_ settings."""
    for name in list(os.environ):
        if name.startswith("EVONOTE_") and not name.startswith("EVONOTE_TEST_"):
            monkeypatch.delenv(name)
    data = tmp_path / "data"
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(data))
    return data


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[int | None]:
    """A real PostgreSQL server for the session, when the machine has PostgreSQL."""
    server = start_postgres()
    yield server.port if server else None
    if server is not None:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
async def engine(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgres_server: int | None,
    network_guard: NetworkGuard,
) -> AsyncIterator[AsyncEngine]:
    """A migrated database of the test's own: SQLite, and PostgreSQL where it is installed."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'db' / 'evonote.db'}"
    else:
        if postgres_server is None:
            pytest.skip("PostgreSQL is not installed on this machine")
        network_guard.allow(postgres_server)
        url = await fresh_database(postgres_server)
    await upgrade(url)
    engine = make_engine(url)
    yield engine
    await engine.dispose()
    if request.param == "postgresql" and postgres_server is not None:
        await drop_database(postgres_server, url)


@pytest.fixture
def policy() -> ResearchPolicy:
    return ResearchPolicy()


@pytest.fixture
def model_server(
    policy: ResearchPolicy, network_guard: NetworkGuard
) -> Iterator[ScriptedModelServer]:
    server = ScriptedModelServer(policy).start()
    network_guard.allow(server.port)
    yield server
    server.stop()


CORPUS_DOCS = [
    {
        "url": "https://www.cdc.gov/vaccines/mmr-safety",
        "title": "MMR vaccine safety",
        "text": "Many studies have found no link between the MMR vaccine and autism. Two doses of "
        "MMR vaccine are about 97% effective at preventing measles.",
    },
    {
        "url": "https://medlineplus.gov/measles.html",
        "title": "Measles",
        "text": "Measles is a highly contagious disease caused by a virus. The measles vaccine "
        "(MMR) is safe and protects against measles, mumps and rubella.",
    },
    {
        "url": "https://www.nhlbi.nih.gov/health/high-blood-pressure",
        "title": "High Blood Pressure",
        "text": "High blood pressure raises the risk of heart disease and stroke.",
    },
]


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(json.dumps(d) for d in CORPUS_DOCS) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def medquad() -> Path:
    path = SHARED_DATA / "medquad" / "medquad_docs.jsonl"
    if not path.is_file():
        pytest.skip(f"shared data not present ({path})")
    return path


@pytest.fixture
def app_env(
    model_server: ScriptedModelServer, corpus_file: Path, monkeypatch: pytest.MonkeyPatch
) -> ScriptedModelServer:
    """Environment for `evonote` pointing at the scripted server and the test corpus."""
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    return model_server
