"""Chat platforms rate-limit message edits: progress edits wait their turn, final ones do not."""

from __future__ import annotations

import time


class EditThrottle:
    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        self.last = float("-inf")

    def ready(self, force: bool = False) -> bool:
        now = time.monotonic()
        if not force and now - self.last < self.interval_s:
            return False
        self.last = now
        return True
