"""Secrets never leave: passwords and tokens in URLs are masked wherever text goes out."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.metrics import configure_logging
from pipeline.redact import redact
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.policy import ResearchPolicy
from tests.fakes.postgres import fresh_database
from tests.fakes.processes import free_port

PASSWORD = "hunter2-very-secret"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (f"postgresql+asyncpg://evo:{PASSWORD}@db:5432/evonote", "postgresql+asyncpg://evo:***@db"),
        (f"http://admin:{PASSWORD}@searx:8080/search", "http://admin:***@searx:8080"),
        (f"https://{PASSWORD}@host/v1", "https://***@host/v1"),
        (f"http://localhost:8000/v1?api_key={PASSWORD}&x=1", "api_key=***&x=1"),
        (f"Authorization: Bearer {PASSWORD}", "Bearer ***"),
        (f"token xoxb-1-2-{PASSWORD}", "token ***"),
    ],
)
def test_secrets_in_text_are_masked(text: str, kept: str) -> None:
    assert PASSWORD not in redact(text)
    assert kept in redact(text)


def test_text_without_secrets_is_unchanged() -> None:
    for text in ["sqlite+aiosqlite:////var/lib/evonote.db", "mail me at a@b.org", "x == y"]:
        assert redact(text) == text


def test_config_masks_passwords_inside_urls(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EVONOTE_DB__URL", f"postgresql+asyncpg://evo:{PASSWORD}@db/evonote")
    monkeypatch.setenv("EVONOTE_SEARCH__SEARXNG_URL", f"http://admin:{PASSWORD}@searx:8080")
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", f"http://user:{PASSWORD}@gpu:8000/v1")
    monkeypatch.setenv("EVONOTE_LLM__API_KEY", PASSWORD)
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert PASSWORD not in out
    assert "evo:***@db/evonote" in out and "admin:***@searx" in out


def test_a_model_url_password_reaches_no_message_and_no_stored_reason(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    corpus_file: Path,
    network_guard: NetworkGuard,
) -> None:
    port = free_port()  # nothing listens there: the model server is "down"
    network_guard.allow(port)
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", f"http://user:{PASSWORD}@127.0.0.1:{port}/v1")
    monkeypatch.setenv("EVONOTE_LLM__WRITER_MODEL", "m")
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    code = main(["check", "The measles vaccine causes autism.", "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert PASSWORD not in out + err
    assert f"cannot reach the model server at http://127.0.0.1:{port}/v1" in err
    assert main(["episodes", "show", "1", "--json"]) == 0
    shown = capsys.readouterr().out
    assert PASSWORD not in shown and json.loads(shown)["status"] == "failed"


@pytest.mark.parametrize(
    ("password", "hidden", "shown"),
    [
        (PASSWORD, [PASSWORD], "postgres:***@"),
        # any character in a password: `@`, `/` and `:` too, masked whole
        ("t:pa/ss@word", ["pa/ss", "word"], "postgres:***@127.0.0.1"),
    ],
)
async def test_db_upgrade_masks_the_password(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    postgres_server: int | None,
    network_guard: NetworkGuard,
    password: str,
    hidden: list[str],
    shown: str,
) -> None:
    if postgres_server is None:
        pytest.skip("PostgreSQL is not installed on this machine")
    network_guard.allow(postgres_server)
    url = await fresh_database(postgres_server, "redact")  # trust auth: any password works
    monkeypatch.setenv("EVONOTE_DB__URL", url.replace("postgres@", f"postgres:{password}@"))
    assert await asyncio.to_thread(main, ["db", "upgrade"]) == 0
    out = capsys.readouterr().out
    assert "newest schema" in out and shown in out
    assert not [h for h in hidden if h in out]


def test_logs_mask_secrets(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:]
    try:
        for fmt in ("json", "text"):
            configure_logging(fmt)
            logging.getLogger("evonote.test").warning(
                "cannot reach %s", f"postgresql://evo:{PASSWORD}@db/x"
            )
            try:
                raise ConnectionError(f"http://u:{PASSWORD}@h/")
            except ConnectionError:
                logging.getLogger("evonote.test").exception("failed")
        err = capsys.readouterr().err
        assert "cannot reach postgresql://evo:***@db/x" in err
        assert PASSWORD not in err
    finally:
        root.handlers[:] = saved


def test_an_echoed_basic_auth_header_and_configured_query_values_are_masked(
    app_env: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.fakes.model_server import Raw

    user_url = app_env.base_url.replace("http://", f"http://user:{PASSWORD}@")
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", user_url)
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    monkeypatch.setenv(
        "EVONOTE_SEARCH__SEARXNG_URL", "http://searx:8080/?subscription-key=SUBKEY9abcd"
    )
    basic = base64.b64encode(f"user:{PASSWORD}".encode()).decode()
    # a server that answers 500 and echoes what it was sent
    echo = f"upstream failed; request headers: {{Authorization: Basic {basic}}}; also {basic}"
    app_env.queue.extend([Raw(status=500, body={"error": {"message": echo}})] * 4)
    code = main(["check", "The measles vaccine causes autism."])
    out, err = capsys.readouterr()
    assert code != 0
    assert basic not in out + err and PASSWORD not in out + err
    assert main(["episodes", "show", "1", "--json"]) == 0
    shown = capsys.readouterr().out
    assert basic not in shown and PASSWORD not in shown
    assert "SUBKEY9abcd" not in redact(
        "the searx answer for ?subscription-key=SUBKEY9abcd was empty"
    )
    assert redact("Proxy-Authorization: Digest c2VjcmV0LXZhbHVl") == (
        "Proxy-Authorization: Digest ***"
    )


@pytest.mark.parametrize(
    "url", [f"postgresql://evo:p@ss{PASSWORD}@db/evonote", f"postgresql://evo:{PASSWORD}@x@db/e"]
)
def test_a_password_holding_an_at_sign_is_masked_whole(url: str) -> None:
    masked = redact(url)
    assert PASSWORD not in masked and "ss" + PASSWORD[:4] not in masked
    assert masked.startswith("postgresql://evo:***@db/")


class EchoesTheKey(ResearchPolicy):
    """A model that writes the API key it was configured with into its brief's evidence needs
    (stored with the episode, shown as its analysis) and its search queries (stored steps)."""

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        answer = super().__call__(schema, messages)
        echo = f"key {PASSWORD} sk-{PASSWORD}-abcdefgh"
        if schema == "VerificationBrief":
            return {**answer, "evidence_needs": [f"pages on vaccines, {echo}"]}
        if answer.get("action", {}).get("kind") == "search":
            return {**answer, "action": {"kind": "search", "query": f"measles vaccine {echo}"}}
        return answer


def test_a_key_the_model_echoes_reaches_no_output_and_no_stored_step(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    corpus_file: Path,
    network_guard: NetworkGuard,
) -> None:
    """The trust issue: an API key the model echoed inside its answer reached the card, the
    database and the CLI. Every answer is masked as it arrives (`redacted_answer`)."""
    server = ScriptedModelServer(EchoesTheKey()).start()
    network_guard.allow(server.port)
    try:
        monkeypatch.setenv("EVONOTE_LLM__BASE_URL", server.base_url)
        monkeypatch.setenv("EVONOTE_LLM__API_KEY", PASSWORD)
        monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
        assert main(["check", "The MMR vaccine causes autism.", "--json"]) == 0
        out = capsys.readouterr().out
        assert main(["episodes", "show", "1", "--json"]) == 0
        shown = capsys.readouterr().out
    finally:
        server.stop()
    assert PASSWORD not in out + shown
    assert "key *** sk-***" in shown  # what the model wrote is kept, the key masked
