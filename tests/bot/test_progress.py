"""Long work shows progress: a bar on a terminal, a line every tenth of the way elsewhere."""

from __future__ import annotations

import io

from bot.progress import ProgressBar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()
    with ProgressBar("embedding", stream=out, unit="documents") as bar:
        for done in range(1, 101):
            bar(done, 100)
    lines = out.getvalue().splitlines()
    assert len(lines) == 11  # the start, then one a tenth: not one a step
    assert lines[0].startswith("embedding: 1/100 documents")
    assert lines[1].startswith("embedding: 10/100 documents, about")
    assert lines[-1] == "embedding: 100/100 documents"


def test_a_bar_on_a_terminal() -> None:
    out = Terminal()
    with ProgressBar("fitting", stream=out, unit="iterations") as bar:
        for done in range(1, 51):
            bar(done, 50)
    shown = out.getvalue()
    assert "fitting" in shown and "50/50" in shown and "\r" in shown
