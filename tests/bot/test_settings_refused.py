"""Settings that would silently not apply, or contradict each other, are refused at start in
one line naming the variable (issue 58: they were accepted without a word)."""

from __future__ import annotations

import pytest

from bot.cli import main
from bot.setting_names import unknown_keys, unknown_variables
from bot.settings import Settings


@pytest.mark.parametrize(
    ("variables", "says"),
    [
        # killed `serve` with a 40-line OverflowError
        ({"EVONOTE_OPS__METRICS_PORT": "99999"}, "EVONOTE_OPS__METRICS_PORT: Input should be less"),
        ({"EVONOTE_OPS__METRICS_PORT": "-1"}, "EVONOTE_OPS__METRICS_PORT: Input should be greater"),
        ({"EVONOTE_SLACK__PORT": "65536"}, "EVONOTE_SLACK__PORT: Input should be less"),
        # accepted without a word
        (
            {"EVONOTE_LLM__BASEURL": "http://gpu:8000/v1"},
            "EVONOTE_LLM__BASEURL is not a setting (did you mean EVONOTE_LLM__BASE_URL?)",
        ),
        (
            {"EVONOTE_LLM": '{"basurl": "http://gpu:8000/v1"}'},
            "EVONOTE_LLM: 'basurl' is not a setting of this section (did you mean 'base_url'?)",
        ),
        ({"EVONOTE_ZZZ": "1"}, "EVONOTE_ZZZ is not a setting"),
        # every episode then abstained "no note passed the checks after 5 rewrites"
        (
            {"EVONOTE_BUDGET__MIN_VISITS_BEFORE_WRITE": "13", "EVONOTE_BUDGET__MAX_VISITS": "12"},
            "EVONOTE_BUDGET__MIN_VISITS_BEFORE_WRITE (13) is above EVONOTE_BUDGET__MAX_VISITS",
        ),
        # silently never scheduled
        ({"EVONOTE_X__WATCH_ACCOUNTS": "cdc"}, "need EVONOTE_X__BEARER_TOKEN"),
        ({"EVONOTE_X__WATCH_ELIGIBLE": "true"}, "EVONOTE_X__WATCH_ELIGIBLE needs the Community"),
    ],
)
def test_a_setting_that_cannot_apply_stops_the_start_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variables: dict[str, str],
    says: str,
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    code = main(["config"])
    out, err = capsys.readouterr()
    assert code == 2
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


def test_known_variables_and_free_map_keys_pass() -> None:
    environ = {
        "EVONOTE_LLM__BASE_URL": "x",
        "EVONOTE_LLM": "{}",
        "EVONOTE_LLM__MAX_TOKENS_BY_CALL__AGENTTURN": "600",
        "EVONOTE_BUDGET__PRESET": "paper",
        "EVONOTE_DATA_DIR": "/tmp",
        "EVONOTE_VLLM_PORT": "8000",  # deploy/vllm/serve.sh's, in the same env file
        "EVONOTE_TEST_REAL_MODEL": "1",
        "PATH": "/bin",
    }
    assert unknown_variables(Settings, environ) == []
    assert unknown_keys(Settings, {"EVONOTE_X": '{"watch_accounts": "a", "TIMEOUT_S": 3}'}) == []


def test_a_nested_unknown_key_is_named_where_it_is() -> None:
    found = unknown_keys(Settings, {"EVONOTE_OPS": '{"metrics_prot": 9100}'})
    assert found == [
        "EVONOTE_OPS: 'metrics_prot' is not a setting of this section (did you mean "
        "'metrics_port'?)"
    ]


async def test_a_taken_port_names_its_variable() -> None:
    import socket

    from aiohttp import web

    from bot.serve import listen
    from bot.settings import ConfigurationError

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    runner = web.AppRunner(web.Application())
    await runner.setup()
    try:
        with pytest.raises(
            ConfigurationError,
            match=f"EVONOTE_OPS__METRICS_PORT: cannot listen on 127.0.0.1:{port}",
        ):
            await listen(runner, "127.0.0.1", port, "EVONOTE_OPS__METRICS_PORT")
    finally:
        await runner.cleanup()
        holder.close()
