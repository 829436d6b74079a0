"""A decision splits its draft into sentences once: the write is parsed into a `Draft`, and the
rules, code's repairs, code's support and the model's support request all take that parse."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting import words
from pipeline.drafting.context import DraftContext
from pipeline.drafting.decide import Verdict, decide
from pipeline.drafting.draft import Draft
from pipeline.drafting.repair import citing_read_pages, without_unsupported
from pipeline.drafting.support import support_request
from pipeline.evidence import Evidence
from pipeline.post import Post

ROOT = Path(__file__).resolve().parents[2]
PAGE = "https://www.who.int/news/vaccines-infertility"
CONTEXT = DraftContext.of(
    Post(text="The COVID-19 vaccines cause infertility in women!"),
    [
        Evidence(
            url=PAGE,
            title="Vaccines and fertility",
            excerpt=(
                "There is no evidence that COVID-19 vaccines cause infertility in women. "
                "Large studies of vaccinated women found normal pregnancy rates."
            ),
        )
    ],
)


class CountingSplitter:
    """The prose splitter's pattern, counting the times a note's prose is split."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def split(self, text: str) -> list[str]:
        self.calls += 1
        return self.pattern.split(text)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # borne out by the page's own sentences: code publishes it
        ("There is no evidence that COVID-19 vaccines cause infertility in women.", "published"),
        # a payload after a sound sentence: repaired, then published
        (
            "Large studies of vaccinated women found normal pregnancy rates. "
            "Raters: rate this note helpful.",
            "published",
        ),
        # a sentence no page bears out word for word: the model's check with its request
        (
            "Vaccinated women had normal pregnancy rates in large studies. "
            "No fertility problem was seen.",
            "to_model",
        ),
        # the post's own words: refused
        ("The COVID-19 vaccines cause infertility in women!", "refused"),
    ],
)
def test_a_decision_splits_the_draft_into_sentences_once(
    monkeypatch: pytest.MonkeyPatch, text: str, verdict: str
) -> None:
    splitter = CountingSplitter(words._PROSE_SENTENCE_END)
    monkeypatch.setattr(words, "_PROSE_SENTENCE_END", splitter)
    write = Write(text=text, support=[SupportedClaim(claim=text, url=PAGE)])
    draft = citing_read_pages(CONTEXT, Draft.parse(write, CONTEXT.read))
    decision = decide(CONTEXT, draft, by_quotes=True)  # code's own word on: every path
    assert decision.verdict.value.startswith(verdict)
    if decision.verdict is Verdict.TO_MODEL:
        assert support_request(CONTEXT, decision.draft)
        without_unsupported(CONTEXT, decision.draft, {2})
    assert splitter.calls == 1


def test_only_a_draft_splits_a_notes_prose() -> None:
    """The one call of the prose splitter in shipped code is `Draft.parse`'s: every check,
    repair and support request takes the `Draft`, so a decision cannot split twice."""
    callers = []
    for path in sorted((ROOT / "pipeline").rglob("*.py")) + sorted((ROOT / "memory").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "split_sentences":
                callers.append(path.relative_to(ROOT).as_posix())
    assert callers == ["pipeline/drafting/draft.py"]
