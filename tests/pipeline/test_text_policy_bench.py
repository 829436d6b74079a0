"""`bench.text_policy` counts real notes refused, by kind, from both data formats."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import text_policy


def test_the_bench_counts_refusals_by_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tsv = tmp_path / "notes-00000.tsv"
    rows = [
        "Large studies found no link between the MMR vaccine and autism. https://www.cdc.gov/x",
        "Please see the link for the latest numbers. https://ourworldindata.org/covid",
        "The account @vaxfacts posts claims that large studies do not support.",
        "Este tuit promueve teorías conspirativas sin evidencia alguna.",  # not English: left out
        "The ?fake account? is a joke.",  # a character lost in the data: left out
    ]
    tsv.write_text("noteId\tsummary\n" + "".join(f"{i}\t{r}\n" for i, r in enumerate(rows)))
    jsonl = tmp_path / "posts.jsonl"
    jsonl.write_text(json.dumps({"human_note": "Measles vaccines are 97% effective."}) + "\n")
    monkeypatch.setattr(sys, "argv", ["text_policy", str(tsv), str(jsonl), "--show", "0"])
    text_policy.main()
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "notes-00000.tsv: 3 English notes of 5; refused 2 (66.7%): 1 for a token, 1 as a "
        "directive, 0 for a link-like token",
        "posts.jsonl: 1 English notes of 1; refused 0 (0.0%): 0 for a token, 0 as a directive, "
        "0 for a link-like token",
    ]
