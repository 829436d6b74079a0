"""A DNS resolver that answers from a table (no network)."""

from __future__ import annotations

PUBLIC = "93.184.216.34"


class StubResolver:
    """Answers from a table; a list of answers is consumed one per lookup."""

    def __init__(self, table: dict[str, list[list[str]]]) -> None:
        self.table = table
        self.lookups: list[str] = []

    async def resolve(self, host: str, port: int) -> list[str]:
        self.lookups.append(host)
        answers = self.table[host]
        return answers.pop(0) if len(answers) > 1 else answers[0]
