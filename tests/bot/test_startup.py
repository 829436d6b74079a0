"""`evonote --help`, `check --help` and `episodes list` load none of the heavy libraries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = (
    "sklearn",
    "scipy",
    "faiss",
    "matplotlib",
    "discord",
    "slack_bolt",
    "tweepy",
    "trafilatura",
    "pypdf",
    "bm25s",
)


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["episodes", "list"]])
def test_light_commands_import_no_heavy_library(argv: list[str], tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.update({"PYTHONPATH": str(ROOT), "EVONOTE_DATA_DIR": str(tmp_path)})
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot.cli", *argv],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.decode().splitlines()
        if line.startswith("import time:")
    }
    assert imported, "no import timing was printed"
    # help never needs the database layer (SQLAlchemy alone took ~400 ms); listing does
    heavy = HEAVY if argv == ["episodes", "list"] else (*HEAVY, "sqlalchemy", "sqlmodel")
    loaded = sorted(m for m in imported if m.split(".")[0] in heavy)
    assert loaded == [], loaded
