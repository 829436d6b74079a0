"""`evonote doctor`: one line per configured dependency, exit 0 only when all work."""

from __future__ import annotations

from pathlib import Path

import pytest
import respx

from bot.cli import main
from bot.doctor import run_checks
from bot.settings import Settings
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.processes import free_port
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
    assert "serves scripted-model; structured output works; " in text
    assert "tokens/s in, " in text and " out: " in text
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


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("good", "✓ Discord: bot EvoNote (id 42)"),
        ("bad", "✗ Discord: the token was refused — check EVONOTE_DISCORD__BOT_TOKEN"),
    ],
)
async def test_doctor_checks_the_discord_token(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch, token: str, says: str
) -> None:
    import respx
    from httpx import Response

    monkeypatch.setenv("EVONOTE_DISCORD__BOT_TOKEN", token)
    with respx.mock(assert_all_called=False) as mock:
        mock.route(host="127.0.0.1").pass_through()
        mock.get("https://discord.com/api/v10/users/@me").mock(
            side_effect=lambda request: (
                Response(200, json={"id": "42", "username": "EvoNote"})
                if request.headers["Authorization"] == "Bot good"
                else Response(401, json={"message": "401: Unauthorized"})
            )
        )
        checks = await run_checks(Settings())
    assert says in [c.line() for c in checks]


async def test_doctor_names_an_unreachable_discord(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch, network_guard: NetworkGuard
) -> None:
    closed = free_port()  # nothing listens there: the connection is refused
    network_guard.allow(closed)
    monkeypatch.setenv("EVONOTE_DISCORD__BOT_TOKEN", "t")
    monkeypatch.setenv("EVONOTE_DISCORD__API_URL", f"http://127.0.0.1:{closed}/api/v10")
    lines = [c.line() for c in await run_checks(Settings())]
    assert any(line.startswith("✗ Discord: cannot reach http://127.0.0.1:") for line in lines)


async def test_doctor_names_an_unreachable_slack_not_its_token(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch, network_guard: NetworkGuard
) -> None:
    closed = free_port()  # it blamed EVONOTE_SLACK__BOT_TOKEN when Slack could not be reached
    network_guard.allow(closed)
    monkeypatch.setenv("EVONOTE_SLACK__BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("EVONOTE_SLACK__API_URL", f"http://127.0.0.1:{closed}/api/")
    lines = [c.line() for c in await run_checks(Settings())]
    slack = next(line for line in lines if "Slack" in line)
    assert slack.startswith("✗ Slack: cannot reach http://127.0.0.1:")
    assert "BOT_TOKEN" not in slack


async def test_doctor_blames_the_data_folder_it_cannot_use(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(blocked / "data"))
    lines = [c.line() for c in await run_checks(Settings())]
    assert any(line.startswith("✗ data folder: EVONOTE_DATA_DIR: ") for line in lines), lines
    assert "✗ database: SQLite lives in EVONOTE_DATA_DIR: fix that folder first" in lines
    assert not any("EVONOTE_DB__URL" in line for line in lines)


def test_doctor_says_which_timeouts_fit_the_servers_speed() -> None:
    from bot.doctor import ServerSpeed, speed_advice

    settings = Settings()
    fast = speed_advice(ServerSpeed(7_500, 40.0), settings)
    assert fast == "7500 tokens/s in, 40.0 out: fits the call timeout"
    # the llama.cpp server on this machine's CPU: ~50 tokens/s in, 8.5-20 out
    slow = speed_advice(ServerSpeed(50, 8.5), settings)
    assert "take ~144 s, over the 60 s call timeout" in slow
    assert "EVONOTE_LLM__CALL_TIMEOUT_S=217 EVONOTE_BUDGET__DEADLINE_S=868" in slow
    assert "EVONOTE_BUDGET__PRESET=slow-server" in slow
    # a server slow only to read (a long prompt) is slow all the same
    assert "over the 60 s call timeout" in speed_advice(ServerSpeed(30, 60.0), settings)


def test_doctor_says_how_many_episodes_run_at_once_and_why() -> None:
    from bot.doctor import ServerSpeed, admission_advice

    settings = Settings()
    fast = admission_advice(ServerSpeed(7_500, 40.0), settings)
    assert fast == (
        f"admission: up to {settings.ops.workers} episodes at once per process "
        "(EVONOTE_OPS__WORKERS), halved while answers take over 30 s"
    )
    slow = admission_advice(ServerSpeed(50, 8.5), settings)
    assert "a typical turn here takes ~74 s, so the limit will stay at 1" in slow


@respx.mock
async def test_doctor_tries_each_notes_destination(monkeypatch: pytest.MonkeyPatch) -> None:
    """X's credentials and enrolment, and the Bluesky account, each with one call."""
    from bot.doctor import check_destinations

    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "secret-" + name.lower())
    monkeypatch.setenv("EVONOTE_BLUESKY__HANDLE", "evonote.bsky.social")
    monkeypatch.setenv("EVONOTE_BLUESKY__APP_PASSWORD", "app-pass")
    respx.get("https://api.x.com/2/notes/search/notes_written").respond(
        403, json={"title": "Forbidden", "detail": "client-not-enrolled: not enrolled"}
    )
    respx.post("https://bsky.social/xrpc/com.atproto.server.createSession").respond(
        200, json={"accessJwt": "j", "did": "did:plc:evonote", "handle": "evonote.bsky.social"}
    )
    lines = [c.line() for c in await check_destinations(Settings())]
    assert lines[0].startswith("✗ X: this X account is not enrolled as an AI Note Writer")
    assert lines[1] == (
        "✓ Open Community Notes: signed in as evonote.bsky.social (did:plc:evonote); test mode"
    )
