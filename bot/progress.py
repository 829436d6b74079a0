"""Progress of long work (bench runs, corpus indexing, persona fitting, memory rebuilds):
a real bar on a terminal, a plain line every tenth of the way elsewhere (pipes, logs)."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm


class ProgressBar:
    """Call it with (done, total) as work advances; use it as a context manager."""

    def __init__(self, label: str, stream: TextIO | None = None, unit: str = "it") -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.unit = unit
        self.terminal = self.stream.isatty()
        self.bar: tqdm[Any] | None = None
        self.started = time.monotonic()
        self.shown_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        if self.terminal:
            bar = self.bar or tqdm(total=total, desc=self.label, unit=self.unit, file=self.stream)
            self.bar = bar
            bar.total = total
            bar.update(done - bar.n)
            return
        tenth = 10 * done // max(1, total)
        if tenth == self.shown_tenth:
            return
        self.shown_tenth = tenth
        elapsed = time.monotonic() - self.started
        left = elapsed / done * (total - done) if done else None
        eta = f", about {left:.0f} s left" if left is not None and done < total else ""
        print(f"{self.label}: {done}/{total} {self.unit}{eta}", file=self.stream, flush=True)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.bar is not None:
            self.bar.close()
