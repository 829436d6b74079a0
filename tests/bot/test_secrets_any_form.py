"""A password holding any character, and a key the model alters, are masked whole (issue 58:
'@' showed the password's tail, '/' printed it whole, '@' and ':' ended in a traceback; 8 of
13 altered copies of an echoed key passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import DatabaseSettings
from pipeline.redact import redact, remember_secret
from tests.conftest import NetworkGuard

PASSWORDS = ["t:pQa/sZs@wQrdX", "pQa/sZs-Secret-9", "pQ@sZs:w0rdQ-Secret", "xQy?zZ#q%41@:/@@"]


@pytest.mark.parametrize("password", PASSWORDS)
def test_any_password_reads_the_right_host_and_is_masked_in_config(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], password: str
) -> None:
    monkeypatch.setenv("EVONOTE_DB__URL", f"postgresql://evonote:{password}@db.internal:5433/e")
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert '"url": "postgresql+asyncpg://evonote:***@db.internal:5433/e"' in out
    for part in password.replace("@", " ").replace(":", " ").replace("/", " ").split():
        if len(part) > 3:
            assert part not in out, part


def test_the_driver_reads_the_password_as_written() -> None:
    from sqlalchemy.engine import make_url

    url = DatabaseSettings(url="postgresql://evonote:p@ss:w/0rd@db:5433/evonote").url
    assert url is not None
    parsed = make_url(url)
    assert (parsed.username, parsed.password, parsed.host, parsed.port, parsed.database) == (
        "evonote",
        "p@ss:w/0rd",
        "db",
        5433,
        "evonote",
    )
    # already percent-encoded: read once, not twice
    again = DatabaseSettings(url="postgresql://evonote:p%40ss@db/evonote").url
    assert again is not None and make_url(again).password == "p@ss"


@pytest.mark.parametrize("command", [["db", "upgrade"], ["check", "MMR causes autism"]])
def test_an_unreachable_database_with_such_a_password_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    network_guard: NetworkGuard,
    corpus_file: Path,
) -> None:
    monkeypatch.setenv("EVONOTE_SEARCH__CORPUS", str(corpus_file))
    network_guard.allow(1)  # nothing listens there: the connection is refused at once
    # '@' and ':' in the password ended `check` and `db upgrade` in a traceback
    monkeypatch.setenv("EVONOTE_DB__URL", "postgresql://evonote:p@ss:w0rd-Secret@127.0.0.1:1/e")
    code = main(command)
    out, err = capsys.readouterr()
    last = err.strip().splitlines()[-1]
    assert code == 2 and "Traceback" not in err and last.startswith("evonote: ")
    assert "127.0.0.1" in last and "EVONOTE_DB__URL" in last
    assert "w0rd" not in out + err and "ss:" not in out + err


def test_a_bad_port_names_the_variable_without_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EVONOTE_DB__URL", "postgresql://ev:Sup3rSecretPw@db:port/e")
    assert main(["config"]) == 2
    err = capsys.readouterr().err
    assert "EVONOTE_DB__URL: Value error, the port after the host must be a number" in err
    assert "Sup3rSecretPw" not in err


KEY = "sk-proj-Abc123XyZ789secret"


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


ALTERED = [
    KEY,
    KEY.upper(),
    KEY.lower(),
    KEY.swapcase(),
    "\u200b".join(KEY),  # a zero-width space between every character
    KEY[:5] + "\u200d" + KEY[5:],
    KEY[:6] + "\u00ad" + KEY[6:],  # soft hyphen
    KEY[:4] + "\u2060" + KEY[4:],  # word joiner
    KEY[:3] + "\U000e0041" + KEY[3:],  # a tag character
    " ".join(KEY),
    KEY.replace("-", ""),
    KEY[:8] + "\n" + KEY[8:],
    _fullwidth(KEY),
    "\u202e" + KEY.upper() + "\u202c",
]


@pytest.mark.parametrize("copy", ALTERED)
def test_an_altered_copy_of_a_configured_key_is_masked(copy: str) -> None:
    remember_secret(KEY)
    shown = redact(f"the key is {copy} — keep it")
    assert shown.startswith("the key is ") and shown.endswith(" — keep it")
    assert "***" in shown
    folded = "".join(c for c in shown.casefold() if c.isalnum())
    assert "abc123xyz789" not in folded


def test_text_that_only_resembles_a_key_is_kept() -> None:
    remember_secret(KEY)
    for text in ["Abc 123 is a number", "proj-abc was a project", "the secret is safe"]:
        assert redact(text) == text
