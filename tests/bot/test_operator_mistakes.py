"""A new operator's ordinary mistakes: one clear line and a documented exit code, no traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.cli import main
from bot.settings import DatabaseSettings, Settings, setting_rows
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.processes import free_port

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("EVONOTE_BUDGET__MAX_STEPS", "-1", "EVONOTE_BUDGET__MAX_STEPS: Input should be greater"),
        ("EVONOTE_BUDGET__MAX_STEPS", "abc", "EVONOTE_BUDGET__MAX_STEPS: Input should be a valid"),
        ("EVONOTE_SEARCH__BACKEND", "google", "'local', 'searxng', 'serper', 'brave', 'tavily'"),
        ("EVONOTE_DB__URL", "mysql://u@h/db", "EVONOTE_DB__URL: Value error, 'mysql' databases"),
        ("EVONOTE_DB__URL", "postgresql+psycopg2://h/db", "is not async"),
        # a JSON field that is no JSON named it nowhere, in a 59-line traceback
        (
            "EVONOTE_LLM__MAX_TOKENS_BY_CALL",
            "notjson",
            "EVONOTE_LLM__MAX_TOKENS_BY_CALL: not valid",
        ),
        # accepted, then every episode failed with exit 4
        ("EVONOTE_BUDGET__DEADLINE_S", "10", "must be shorter than the deadline (10 s"),
        ("EVONOTE_OPS__LOG_LEVEL", "loud", "EVONOTE_OPS__LOG_LEVEL: Input should be 'DEBUG'"),
    ],
)
@pytest.mark.parametrize("command", [["config"], ["doctor"], ["check", "MMR causes autism"]])
def test_a_bad_setting_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
    says: str,
    command: list[str],
) -> None:
    monkeypatch.setenv(variable, value)
    code, out, err = run(capsys, *command)
    assert code == 2
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


@pytest.mark.parametrize("level", ["debug", "Warning", "INFO"])
def test_a_log_level_in_any_case_is_taken(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    # "debug" killed `serve` with a traceback, a restart every 5 s under systemd
    monkeypatch.setenv("EVONOTE_OPS__LOG_LEVEL", level)
    assert Settings().ops.log_level == level.upper()


@pytest.mark.parametrize(
    ("written", "becomes"),
    [
        ("sqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://u:p@h/db", "postgresql+asyncpg://u:p@h/db"),
        ("postgres://u@h:5433/db", "postgresql+asyncpg://u@h:5433/db"),
        ("postgresql+asyncpg://h/db", "postgresql+asyncpg://h/db"),
        ("sqlite+aiosqlite:////abs.db", "sqlite+aiosqlite:////abs.db"),
    ],
)
def test_database_urls_as_people_write_them(written: str, becomes: str) -> None:
    assert DatabaseSettings(url=written).url == becomes


def test_a_plain_sqlite_url_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("EVONOTE_DB__URL", f"sqlite:///{tmp_path / 'plain.db'}")
    assert run(capsys, "episodes", "list")[0] == 0
    assert (tmp_path / "plain.db").exists()


def test_an_unreachable_database_names_its_host(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], network_guard: NetworkGuard
) -> None:
    port = free_port()  # nothing listens there
    network_guard.allow(port)
    monkeypatch.setenv("EVONOTE_DB__URL", f"postgresql://evo:pw@127.0.0.1:{port}/x")
    code, _, err = run(capsys, "episodes", "list")
    assert code == 2
    assert "cannot use the database at 127.0.0.1 (EVONOTE_DB__URL)" in err
    assert "Traceback" not in err and "pw" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["episodes", "show", "9" * 30], "is not an id"),
        (["vote", "9" * 30, "up"], "is not an id"),
        (["memory", "show", "0"], "is not an id"),
        (["x", "submit", "-5"], "is not an id"),
        (["episodes", "list", "--limit", "0"], "must be a whole number from 1 to 1,000,000"),
        (["episodes", "list", "--limit", "9" * 23], "must be a whole number from 1 to"),
        (["personas", "build", "--ratings", "r.tsv", "--k", "0", "--out", "p.json"], "from 1 to"),
    ],
)
def test_bad_numbers_on_the_command_line_are_exit_3(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 3
    assert says in capsys.readouterr().err


@pytest.mark.parametrize(
    ("post", "says"),
    [
        ("🦠💉😱", "has no words or numbers"),
        ("\u200b\u200b\u2060", "has no words or numbers"),
        ("\x01\x02 ‼️", "has no words or numbers"),
        ("MMR causes autism \udcff\udcfe", "not valid UTF-8"),
    ],
)
def test_posts_without_words_or_with_broken_text_are_refused_and_stored(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str], post: str, says: str
) -> None:
    code, _, err = run(capsys, "check", post)
    assert code == 3
    assert says in err
    assert app_env.requests == []  # no model call was spent on it
    code, out, _ = run(capsys, "episodes", "list", "--status", "failed")
    assert code == 0 and "failed" in out


def test_a_post_time_without_a_zone_is_utc(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    post = tmp_path / "post.json"
    post.write_text(
        json.dumps({"text": "MMR causes autism", "created_at": "2025-02-10T09:30:00"}),
        encoding="utf-8",
    )
    code, out, err = run(capsys, "check", f"@{post}", "--json")
    assert code == 0, err
    assert json.loads(out)["status"] == "noted"


def test_an_unwritable_output_path_is_one_line(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, _, err = run(capsys, "memory", "export", "--out", str(blocker / "sub" / "out.jsonl"))
    assert code == 3
    assert "Not a directory" in err and "Traceback" not in err


def test_output_into_a_closed_pipe_is_not_an_error(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update({"PYTHONPATH": str(ROOT), "EVONOTE_DATA_DIR": str(tmp_path)})
    shell = f"{sys.executable} -m bot.cli config | head -c 1"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert b"BrokenPipeError" not in done.stderr and b"Traceback" not in done.stderr


def unresolvable_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every name but loopback fails to resolve, as on a machine with no internet access."""
    resolve = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("127.0.0.1", "localhost", "::1"):
            return resolve(host, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_an_unreachable_x_is_one_line_and_a_stored_episode(
    app_env: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("EVONOTE_X__BEARER_TOKEN", "fake")
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(tmp_path))
    unresolvable_hosts(monkeypatch)
    code, out, err = run(capsys, "check", "https://x.com/u/status/1234567890")
    assert code == 3, err
    problem = [line for line in err.splitlines() if line.startswith("evonote:")]
    assert len(problem) == 1 and "X" in problem[0] and "could not be reached" in problem[0]
    assert "Traceback" not in err and problem[0][9:] != "Name or service not known"
    code, out, _ = run(capsys, "episodes", "list")
    assert code == 0 and "failed" in out  # the request is stored, with its reason


@pytest.mark.parametrize("where", ["under-a-file", "read-only"])
def test_an_unusable_data_dir_is_named_as_the_data_dir(
    app_env: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    where: str,
) -> None:
    if where == "under-a-file":
        (tmp_path / "file").write_text("")
        folder = tmp_path / "file" / "evonote"
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes anywhere")
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(folder))
    code, _, err = run(capsys, "check", "MMR causes autism")
    assert code == 2
    problem = err.splitlines()[-1]
    assert problem.startswith(f"evonote: EVONOTE_DATA_DIR: {folder} cannot be used (")
    assert "CORPUS" not in err


def test_a_database_a_newer_evonote_migrated_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import sqlite3

    db = tmp_path / "evonote.db"
    monkeypatch.setenv("EVONOTE_DATA_DIR", str(tmp_path))
    assert main(["db", "upgrade"]) == 0
    capsys.readouterr()
    with sqlite3.connect(db) as connection:  # as a later release would leave it
        connection.execute("UPDATE alembic_version SET version_num = '0099'")
    code, _, err = run(capsys, "episodes", "list")
    assert code == 2 and "Traceback" not in err
    assert err.strip().endswith(
        "is at schema 0099, newer than this EvoNote knows: run the EvoNote that upgraded it, "
        "or point EVONOTE_DB__URL at another database"
    )


def test_a_research_preset_sets_its_switches_and_an_explicit_one_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EVONOTE_BUDGET__PRESET", "slow-server")
    budget = Settings().budget
    assert (budget.condense_pages, budget.max_urls_per_visit, budget.max_rewrites) == (False, 2, 2)
    monkeypatch.setenv("EVONOTE_BUDGET__MAX_URLS_PER_VISIT", "3")
    assert Settings().budget.max_urls_per_visit == 3
    monkeypatch.setenv("EVONOTE_BUDGET__PRESET", "fast")
    with pytest.raises(ValidationError, match="'paper', 'slow-server'"):
        Settings()


def test_the_settings_page_lists_every_setting(capsys: pytest.CaptureFixture[str]) -> None:
    # it said it listed every setting and left out the Slack, Discord, X, Bluesky and log ones
    assert main(["config", "--table"]) == 0
    table = capsys.readouterr().out
    page = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert table.strip() in page, "run `evonote config --table` into docs/settings.md"
    assert table.count("| `EVONOTE_") == len(setting_rows()) > 100
