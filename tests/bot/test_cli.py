"""`evonote` end to end: real openai client → scripted server, real corpus file, real SQLite."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from bot.cli import main
from pipeline.drafting.note import NOTE_CHAR_LIMIT, note_length
from pipeline.forecast.personas import PersonaSet
from tests.conftest import CORPUS_DOCS, NetworkGuard
from tests.fakes.model_server import Raw, ScriptedModelServer
from tests.fakes.policy import DEFAULT_BRIEF, ResearchPolicy

POST = "BREAKING: the measles vaccine causes autism. Protect your kids!"
CORPUS_URLS = {d["url"] for d in CORPUS_DOCS}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_prints_a_note_with_sources_and_timings(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "check", POST)
    assert code == 0, err
    assert "Episode 1 — noted (model scripted-model)" in out
    assert f"/{NOTE_CHAR_LIMIT} characters · AI-drafted — needs human review" in out
    assert "[official] MMR vaccine safety — https://www.cdc.gov/vaccines/mmr-safety" in out
    assert "“Many studies have found no link between the MMR vaccine and autism.”" in out
    assert "Brief: vaccine_risk · correction · language en" in out
    personas = len(PersonaSet.load().personas)
    assert f"Forecast (bridging rule): Helpful — 100% helpful across {personas} personas" in out
    assert "Timings: search" in out and "turns" in out
    assert "· searching" in err and "· done" in err


def test_check_json_has_the_documented_fields(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", POST, "--json")
    assert code == 0
    result = json.loads(out)
    assert {
        "episode_id",
        "status",
        "note",
        "urls",
        "char_count",
        "abstain_reason",
        "timings",
        "steps",
    } <= set(result)
    assert result["status"] == "noted"
    assert result["char_count"] == note_length(result["note"]) <= NOTE_CHAR_LIMIT
    assert result["urls"] and set(result["urls"]) <= CORPUS_URLS
    phases = [s["phase"] for s in result["steps"]]
    assert phases == ["claim_analysis", "search", "visit", "search", "write"]
    assert result["timings"]["turns"] == 2  # the search by code and the first read spare turns
    assert result["timings"]["inference_s"] > 0


def test_episodes_are_listed_and_shown_with_their_trajectory(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "check", POST)
    code, out, _ = run(capsys, "episodes", "list")
    assert code == 0 and "noted" in out and "BREAKING: the measles vaccine" in out
    code, out, _ = run(capsys, "episodes", "show", "1")
    assert code == 0 and "Steps:" in out and "#1 search" in out and "#2 visit" in out
    code, out, _ = run(capsys, "episodes", "show", "1", "--json")
    assert json.loads(out)["episode_id"] == 1
    code, _, err = run(capsys, "episodes", "show", "99")
    assert code == 3 and "there is no episode 99" in err


def test_a_post_with_terminal_escapes_is_printed_not_obeyed(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "The MMR vaccine causes autism \x1b]0;pwned\x07\x1b[2J\u202eevil"
    code, out, _ = run(capsys, "check", hostile)
    assert code == 0
    for shown in (out, run(capsys, "episodes", "list")[1], run(capsys, "episodes", "show", "1")[1]):
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
        assert "\\x1b]0;pwned" in shown or "\\x1b]0;pwned"[:6] in shown


def test_model_server_down_is_one_actionable_line_and_exit_2(
    corpus_file: Path,
    network_guard: NetworkGuard,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    network_guard.allow(port)
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("EVONOTE_LLM__MAX_RETRIES", "0")
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    code, out, err = run(capsys, "check", POST)
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert f"cannot reach the model server at http://127.0.0.1:{port}/v1" in line
    assert "deploy/vllm/serve.sh" in line and "EVONOTE_LLM__BASE_URL" in line
    code, out, _ = run(capsys, "episodes", "list")
    assert "failed" in out and "running" not in out


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("", "the post is empty"),
        ("y" * 102_400, "a post has at most 25,000"),
        ("https://www.tiktok.com/@a/video/1", "unsupported site 'www.tiktok.com'"),
        ("www.who.int/news", "has no http:// or https://"),
    ],
)
def test_bad_input_exits_3_with_the_reason_and_is_recorded(
    app_env: ScriptedModelServer,
    capsys: pytest.CaptureFixture[str],
    argument: str,
    message: str,
) -> None:
    code, _, err = run(capsys, "check", argument)
    assert code == 3
    assert message in err
    assert app_env.requests == [], "bad input must not reach the model"
    _, out, _ = run(capsys, "episodes", "list")
    assert "failed" in out


def test_json_file_missing_text_exits_3(
    app_env: ScriptedModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.json"
    path.write_text('{"author": "someone"}', encoding="utf-8")
    code, _, err = run(capsys, "check", f"@{path}")
    assert code == 3 and "missing the field 'text'" in err


def test_malformed_model_output_fails_the_episode_with_exit_4(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    app_env.queue += [Raw(content="I cannot help with that."), Raw(content='{"x": 1}')]
    code, out, err = run(capsys, "check", POST, "--json")
    assert code == 4
    assert "even after a repair attempt" in err
    assert json.loads(out)["status"] == "failed"


def test_a_post_in_another_language_is_checked_in_that_language(
    model_server: ScriptedModelServer,
    policy: ResearchPolicy,
    corpus_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    policy.brief = {**DEFAULT_BRIEF, "language": "es"}
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    code, out, _ = run(capsys, "check", "La vacuna contra el sarampión causa autismo.")
    assert code == 0 and "language es" in out
    prompt = model_server.requests[0]["messages"][1]["content"]
    assert "La vacuna contra el sarampión causa autismo." in prompt


def test_missing_corpus_setting_is_explained(
    model_server: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    code, _, err = run(capsys, "check", POST)
    assert code == 2 and "set EVONOTE_SEARCH__CORPUS" in err


def test_config_prints_effective_settings_with_secrets_masked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__API_KEY", "sk-very-secret")
    monkeypatch.setenv("EVONOTE_BUDGET__MAX_SEARCHES", "3")
    code, out, _ = run(capsys, "config")
    settings = json.loads(out)
    assert code == 0
    assert "sk-very-secret" not in out
    assert settings["llm"]["base_url"] == "http://localhost:8000/v1"
    assert settings["budget"]["max_searches"] == 3


def test_medquad_end_to_end(
    model_server: ScriptedModelServer,
    medquad: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("EVONOTE_LLM__BASE_URL", model_server.base_url)
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(medquad))
    code, out, err = run(capsys, "check", POST, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["status"] == "noted"
    assert any("measles" in u or "immunization" in u or "vaccines" in u for u in result["urls"])
    visit = next(s for s in result["steps"] if s["phase"] == "visit")
    assert all(u in visit["observation"] for u in result["urls"])


def test_check_says_what_it_waits_for_after_the_note_and_can_skip_it(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    personas = len(PersonaSet.load().personas)
    code, out, err = run(capsys, "check", POST)
    assert code == 0, err
    done = err.splitlines().index(next(line for line in err.splitlines() if "· done" in line))
    assert err.splitlines()[done + 1] == (
        f"· forecasting: {personas} simulated raters rate the note (--no-forecast skips this)"
    )
    code, out, err = run(capsys, "check", "--no-forecast", POST)
    assert code == 0, err
    assert "forecasting" not in err and "Forecast (" not in out


@pytest.mark.shared_data
def test_the_readme_main_job_notes_the_example_post_with_the_stand_in(
    app_env: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README's first command, against the stand-in's canned answers and the MedQuAD corpus:
    it must end in a note (a check that refused the stand-in's citations once made it abstain)."""
    from tests.conftest import SHARED_DATA

    corpus = SHARED_DATA / "medquad" / "medquad_docs.jsonl"
    if not corpus.is_file():
        pytest.skip("shared data not present")
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus))
    example = Path(__file__).resolve().parents[2] / "deploy" / "examples" / "measles-post.json"
    code, out, err = run(capsys, "check", f"@{example}")
    assert code == 0, err
    assert "— noted (model scripted-model)" in out, out


def test_approving_a_pasted_posts_note_says_it_stays_here(
    app_env: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "check", POST)
    assert code == 0, err
    code, out, err = run(capsys, "approve", "1", "--by", "mod")
    assert code == 0, err
    # it suggested `evonote x submit 1`, which cannot send a note on pasted text
    assert "note approved by mod; no notes destination takes its post" in out
    assert "x submit" not in out
