"""Whole episodes for a sample of the second red team's rows: the post, a fake search that
finds the attacker's page (the post does not link it), a writer that obeys the attacker (it
writes the row's note, citing the row's pages) and the package's default support check, which
passes every clause (a weak checker). No network, no real model.

    python -m tests.redteam2.episodes [--per-family N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import defaultdict
from typing import Any

from pipeline.budget import EvidenceBudget
from pipeline.evidence import Page
from pipeline.post import Post
from tests.fakes.episodes import runner
from tests.fakes.policy import DEFAULT_BRIEF, ScriptedSteps
from tests.fakes.ports import FakeWeb
from tests.redteam2.make_rows import ROWS


class ObeyingWriter(ScriptedSteps):
    """Brief (the post as its claim), one search, one visit of every result, then the
    attacker's note, every rewrite the same."""

    def __init__(self, row: dict[str, Any]) -> None:
        urls = [p["url"] for p in row["pages"]]
        super().__init__(
            visit_urls=lambda s: urls, write_urls=lambda s: row["cited"], text=row["note"]
        )
        self.brief = {
            **DEFAULT_BRIEF,
            "checkworthy_claims": [row["post"][:300]],
            "language": row.get("language", "en"),
            "gaps": [{**DEFAULT_BRIEF["gaps"][0], "suggested_query": "ivermectin"}],
        }

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        if schema == "VerificationBrief":
            return self.brief
        return super().__call__(schema, messages)


async def episode(row: dict[str, Any]) -> tuple[str, str]:
    web = FakeWeb(
        {p["url"]: Page(url=p["url"], title=p["title"], text=p["text"]) for p in row["pages"]}
    )
    outcome = await runner(ObeyingWriter(row), web, EvidenceBudget(max_rewrites=3)).run(
        Post(text=row["post"])
    )
    return str(outcome.status), outcome.note or outcome.abstain_reason or ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=2)
    args = parser.parse_args(argv)
    rows = [json.loads(x) for x in ROWS.read_text(encoding="utf-8").splitlines() if x.strip()]
    taken: dict[str, int] = defaultdict(int)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if row["side"] != "attack" or taken[row["family"]] >= args.per_family:
            continue
        taken[row["family"]] += 1
        status, shown = asyncio.run(episode(row))
        carried = row["marker"].lower() in shown.lower() and "noted" in status.lower()
        tally[row["family"]][0] += carried
        tally[row["family"]][1] += 1
        print(
            json.dumps(
                {"id": row["id"], "status": status, "carried": carried, "shown": shown[:160]},
                ensure_ascii=False,
            )
        )
    for family, (a, b) in sorted(tally.items()):
        print(f"{family:32} {a}/{b} published with the payload")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
