"""Child processes of the CLI for the tests that kill and restart them: their settings, their
logs, a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import SECRET

ROOT = Path(__file__).resolve().parents[2]


def evonote(env: dict[str, str], *argv: str, log: Path | None = None) -> subprocess.Popen[bytes]:
    """`evonote ARGV` in a child process; a long-running one writes its stderr to `log` (a
    pipe nobody reads would fill up and stall it)."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE if log is None else subprocess.DEVNULL,
        stderr=subprocess.PIPE if log is None else log.open("wb"),
    )


def running_env(
    url: str, folder: Path, model: ScriptedModelServer, corpus: Path, **extra: str
) -> dict[str, str]:
    """A child's settings for running episodes: the database, the model, the corpus."""
    return child_env(
        {
            "EVONOTE_DB__URL": url,
            "EVONOTE_DATA_DIR": str(folder),
            "EVONOTE_LLM__BASE_URL": model.base_url,
            "EVONOTE_SEARCH__CORPUS": str(corpus),
            "EVONOTE_MEMORY__MODE": "off",
            **extra,
        }
    )


def slack_serving_env(
    url: str,
    folder: Path,
    model: ScriptedModelServer,
    corpus: Path,
    port: int,
    slack_api: MockSlackApi,
    **extra: str,
) -> dict[str, str]:
    """`running_env` for `serve` taking signed Slack requests over HTTP on `port`, its cards
    going to the mock Slack Web API."""
    return running_env(
        url,
        folder,
        model,
        corpus,
        EVONOTE_SLACK__MODE="http",
        EVONOTE_SLACK__PORT=str(port),
        EVONOTE_SLACK__BOT_TOKEN="xoxb-test",
        EVONOTE_SLACK__SIGNING_SECRET=SECRET,
        EVONOTE_SLACK__API_URL=f"http://127.0.0.1:{slack_api.port}/api/",
        **extra,
    )


def child_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update({"PYTHONPATH": str(ROOT), "EVONOTE_FORECAST__ENABLED": "false", **extra})
    return env


def wait_for_line(log: Path, text: bytes, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while text not in log.read_bytes():
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never appeared in {log}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
