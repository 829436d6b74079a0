"""`evonote serve` when the chat platforms cannot be reached: it serves anyway, says so once per
attempt (no traceback), retries with backoff, and Ctrl-C or SIGTERM stops it with exit 0."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.conftest import NetworkGuard
from tests.fakes.processes import free_port
from tests.fakes.slack_api import MockSlackApi

ROOT = Path(__file__).resolve().parents[2]


class Serve:
    """`python -m bot.cli serve` in a subprocess, its stderr read line by line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    @classmethod
    async def start(cls, tmp_path: Path, corpus_file: Path, extra: dict[str, str]) -> Serve:
        env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
        env.update(
            {
                "PYTHONPATH": str(ROOT),
                "EVONOTE_DATA_DIR": str(tmp_path),
                "EVONOTE_SEARCH__CORPUS": str(corpus_file),
                "EVONOTE_LLM__BASE_URL": f"http://127.0.0.1:{free_port()}/v1",
                "EVONOTE_OPS__LOG_LEVEL": "WARNING",
                **extra,
            }
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "serve",
            env=env,
            cwd=ROOT,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def until(self, wanted: str, timeout_s: float = 60) -> str:
        assert self.process.stderr is not None
        async with asyncio.timeout(timeout_s):
            while line := (await self.process.stderr.readline()).decode():
                self.lines.append(line.rstrip("\n"))
                if wanted in line:
                    return self.lines[-1]
        raise AssertionError(f"never printed {wanted!r}: {self.lines}")

    async def stop(self, how: signal.Signals) -> int:
        self.process.send_signal(how)
        assert self.process.stderr is not None
        async with asyncio.timeout(60):
            rest = await self.process.stderr.read()
            self.lines += rest.decode().splitlines()
            return await self.process.wait()


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_unreachable_chat_platforms_are_one_line_per_attempt(
    tmp_path: Path, corpus_file: Path, how: signal.Signals
) -> None:
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens: each connection is refused
    serve = await Serve.start(
        tmp_path,
        corpus_file,
        {
            "EVONOTE_SLACK__BOT_TOKEN": "xoxb-fake",
            "EVONOTE_SLACK__APP_TOKEN": "xapp-fake",
            "EVONOTE_SLACK__API_URL": f"{closed}/api/",
            "EVONOTE_DISCORD__BOT_TOKEN": "fake",
            "EVONOTE_DISCORD__API_URL": f"{closed}/api/v10",
        },
    )
    serving = await serve.until("serving:")
    # the scheduler serves while the chat platforms are tried
    assert "scheduler (" in serving and "Slack (socket mode, connecting)" in serving
    assert "Discord (connecting)" in serving
    await serve.until("Slack unreachable")
    if not any("Discord unreachable" in line for line in serve.lines):
        await serve.until("Discord unreachable")
    assert await serve.stop(how) == 0, serve.lines
    slack = next(line for line in serve.lines if "Slack unreachable" in line)
    assert slack.startswith("evonote: Slack unreachable (") and slack.endswith(
        "; attempt 1, next in 5 s"
    )
    assert serve.lines[-1] == "evonote: stopped"
    # every line is one of serve's own: no traceback, no unclosed session, no library noise
    assert all(line.startswith("evonote: ") for line in serve.lines), serve.lines


async def test_a_refused_slack_token_is_one_line_and_no_retry(
    tmp_path: Path, corpus_file: Path, network_guard: NetworkGuard
) -> None:
    slack_api = MockSlackApi(refused_tokens={"xoxb-refused"})
    await slack_api.start()
    try:
        serve = await Serve.start(
            tmp_path,
            corpus_file,
            {
                "EVONOTE_SLACK__BOT_TOKEN": "xoxb-refused",
                "EVONOTE_SLACK__APP_TOKEN": "xapp-fake",
                "EVONOTE_SLACK__API_URL": f"http://127.0.0.1:{slack_api.port}/api/",
            },
        )
        refused = await serve.until("Slack not started")
        assert refused == (
            "evonote: Slack not started: Slack refused the token (invalid_auth): "
            "check EVONOTE_SLACK__BOT_TOKEN"
        )
        assert await serve.stop(signal.SIGTERM) == 0
    finally:
        await slack_api.stop()
    assert not [line for line in serve.lines if "unreachable" in line or "Traceback" in line]
    assert [name for name, _ in slack_api.calls] == ["auth.test"]  # no retry
