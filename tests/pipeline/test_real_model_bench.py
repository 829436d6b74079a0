"""`bench.real_model` judges each published note by every check code makes of a draft today,
so a report on an old run shows what the code of now would refuse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.real_model import violations

MALARIA = "https://www.nlm.nih.gov/medlineplus/malaria.html"


def episode(note: str) -> dict[str, Any]:
    return {
        "status": "noted",
        "note": f"{note}\n\n{MALARIA}",
        "urls": [MALARIA],
        "post": {"text": "We have malaria in Florida now, thanks to GM mosquitoes."},
        "brief": None,
        "evidence": [
            {
                "url": MALARIA,
                "title": "Malaria",
                "excerpt": "Malaria is a serious disease caused by a parasite. You get it when "
                "an infected mosquito bites you.",
                "quotes": [],
            }
        ],
    }


def test_a_published_note_is_judged_by_todays_checks() -> None:
    # the real model's published note (two of its three repeats)
    said = "The Malaria in Florida post is about a serious disease caused by a parasite."
    found = violations(episode(f"{said}\n\n{said}"))
    assert "Say each thing once: sentence 2 repeats sentence 1." in found
    assert any("speaks of 'Florida', which none of them uses" in f for f in found), found
    sound = "Malaria is caused by a parasite, and you get it when an infected mosquito bites."
    assert violations(episode(sound)) == []
    assert violations({**episode(sound), "status": "abstained"}) == []


def test_posts_past_the_files_end_are_one_line_not_an_index_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import real_model

    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": 1, "text": "MMR causes autism."}\n', encoding="utf-8")
    argv = ["real_model", str(posts), "--out", str(tmp_path / "out"), "--posts", "3", "--report"]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as exit_:
        real_model.main()
    assert exit_.value.code == 2
    assert "--posts 3: " in capsys.readouterr().err


def test_the_report_prices_a_note_in_tokens(tmp_path: Path) -> None:
    import json

    from bench.real_model import report

    for n, (status, prompt, completion) in enumerate(
        [("noted", 2000, 500), ("abstained", 1200, 300), ("noted", 1500, 500)]
    ):
        e = episode("Malaria is caused by a parasite.")
        e.update(
            status=status,
            bench={"post": n, "wall_s": 60.0, "span": [0, 1]},
            timings={"turns": 2, "prompt_tokens": prompt, "completion_tokens": completion},
            steps=[],
        )
        (tmp_path / f"{n}.json").write_text(json.dumps(e), encoding="utf-8")
    # every episode's tokens (the abstention's too) over the 2 notes
    assert "tokens: 6,000 in all, 3,000 per note" in report(tmp_path, None)
