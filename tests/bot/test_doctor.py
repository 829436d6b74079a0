"""`evonote doctor`: one line per configured dependency, exit 0 only when all work."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.doctor import run_checks
from bot.settings import Settings
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.slack_api import MockSlackApi


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


async def test_everything_configured_works(
    app_env: ScriptedModelServer,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVONOTE_SLACK__BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("EVONOTE_SLACK__APP_TOKEN", "xapp-test")
    monkeypatch.setenv("EVONOTE_SLACK__API_URL", f"http://127.0.0.1:{slack_api.port}/api/")
    settings = Settings()
    assert (
        not settings.database_url.endswith("x") and not (settings.data_dir / "evonote.db").exists()
    )
    checks = await run_checks(settings)  # a fresh install: doctor migrates like every command
    text = "\n".join(c.line() for c in checks)
    assert all(c.ok for c in checks), text
    assert "serves scripted-model; structured output works" in text
    assert "✓ search (local): 3 documents" in text
    assert "✓ embedder: local: 384 dimensions" in text
    assert "✓ Slack: bot evonote in team T1 (socket mode)" in text


def test_failures_name_their_fix(
    model_server: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    model_server.stop()
    code, out = run(capsys, "doctor")
    assert code == 1
    assert "✗ model server: cannot reach the model server" in out
    assert "deploy/vllm/serve.sh" in out
    assert "✗ search (local): no evidence corpus is configured" in out
