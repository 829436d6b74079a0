"""Real posts through the real pipeline against whatever model server is configured, one at a
time, with every published note checked against the rules. Prints numbers; asserts nothing.

    python -m bench.real_model POSTS.jsonl --out DIR [--posts 0,5,9 | --limit 10]
                               [--proxy-log PATH]

POSTS is JSONL of {id, text, [human_note]} (e.g. ../shared/data/healthnotes_dev/posts.jsonl).
The model server, search and reader come from the usual settings (`EVONOTE_*`): for a slow
CPU server, the settings `evonote doctor` prints. Each post's episode is written to
DIR/<n>.json as `evonote check --json` prints it, so an interrupted run continues where it
stopped. The report: noted / abstained / failed with each reason, rule violations in published
notes (every check code makes of a draft today: must be 0), pages read and judged
relevant, turns, minutes per episode, and output tokens per call type — per schema from the
logging proxy's JSONL (`--proxy-log`, ../shared/realmodel/logproxy.py), else per step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.app import build
from bot.render import episode_json
from bot.settings import Settings
from pipeline.actions import SupportedClaim, Write
from pipeline.brief import VerificationBrief
from pipeline.desk.note_desk import NoteDesk
from pipeline.desk.notes import EpisodeFailed
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.rules import findings
from pipeline.errors import EvoNoteError
from pipeline.evidence import Evidence
from pipeline.ports import ChatMessage, ChatModel, ModelReply
from pipeline.post import Post
from pipeline.request import NoteRequest

T = TypeVar("T", bound=BaseModel)


def violations(episode: dict[str, Any]) -> list[str]:
    """What a published note breaks, by every check code makes of a draft today
    (`pipeline.drafting.rules`: the length, citations of pages read and on the claims, the
    text policy, copies of the post, sentences said twice or speaking of what no cited page
    does, …):
    a report on an old run shows what today's code would refuse."""
    note = episode.get("note")
    if episode.get("status") != "noted" or not note:
        return []
    links = ("http://", "https://")
    prose = "\n".join(line for line in note.split("\n") if not line.startswith(links)).strip()
    evidence = {e["url"]: Evidence.model_validate(e) for e in episode.get("evidence") or []}
    brief = episode.get("brief")
    context = DraftContext.of(
        Post.model_validate(episode["post"]),
        evidence,
        VerificationBrief.model_validate(brief) if brief else None,
    )
    cited = [SupportedClaim(claim=prose[:400], url=u) for u in episode.get("urls") or []]
    draft = Draft.parse(Write(text=prose, support=cited), context.read)
    return [f.feedback for f in findings(context, draft)]


class RecordingModel:
    """The episode's model, each answer kept as validated (schema name, value): the recording
    a test replays (`tests/fakes/replay.py`) to keep what the real model did without it."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.answers: list[dict[str, Any]] = []

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        try:
            reply = await self.inner.structured(messages, output, timeout_s=timeout_s)
        except EvoNoteError as e:
            self.answers.append({"schema": output.__name__, "error": type(e).__name__})
            raise
        value = reply.value.model_dump(mode="json")
        self.answers.append({"schema": output.__name__, "answer": value})
        return reply


async def run_posts(settings: Settings, posts: list[tuple[int, dict[str, Any]]], out: Path) -> None:
    async with build(settings) as app:
        recording = RecordingModel(app.notes.runner.model)
        app.notes.runner.model = recording
        for n, post in posts:
            path = out / f"{n}.json"
            if path.exists():
                continue
            recording.answers = []
            started, began = time.monotonic(), time.time()
            try:
                row = await NoteDesk(app.notes, app.desk).check(NoteRequest(post_ref=post["text"]))
            except EpisodeFailed as failed:
                row = failed.episode
            episode = episode_json(row, await app.store.steps(row.id or 0))
            episode["bench"] = {
                "post": n,
                "id": post.get("id"),
                "wall_s": time.monotonic() - started,
                "span": [began, time.time()],  # for the proxy's log lines of this episode
                "human_note": post.get("human_note"),
                "answers": recording.answers,
            }
            path.write_text(json.dumps(episode, ensure_ascii=False, indent=1))
            print(f"post {n}: {row.status} in {episode['bench']['wall_s']:.0f} s", file=sys.stderr)


def call_table(proxy_log: Path | None, episodes: list[dict[str, Any]]) -> list[str]:
    """Output tokens per call type: from the proxy's log lines in these episodes' time spans,
    or from the episodes' own steps (one model call a step at most)."""
    per: dict[str, list[int]] = defaultdict(list)
    cut: Counter[str] = Counter()
    spans = [e["bench"]["span"] for e in episodes]
    if proxy_log is not None and proxy_log.is_file():
        for line in proxy_log.read_text().splitlines():
            entry = json.loads(line)
            if not any(start <= entry.get("t0", 0) <= end for start, end in spans):
                continue
            usage = entry.get("usage") or {}
            kind = entry.get("schema") or "other"
            per[kind].append(int(usage.get("completion_tokens") or 0))
            cut[kind] += entry.get("finish_reason") == "length"
    else:
        for episode in episodes:
            for step in episode["steps"]:
                if step.get("completion_tokens"):
                    per[step["phase"]].append(step["completion_tokens"])
    lines = [
        "| calls | type | median output tokens | max | cut at the cap |",
        "|---|---|---|---|---|",
    ]
    for kind, tokens in sorted(per.items(), key=lambda kv: -len(kv[1])):
        median = statistics.median(tokens)
        lines.append(f"| {len(tokens)} | {kind} | {median:.0f} | {max(tokens)} | {cut[kind]} |")
    return lines


def report(out: Path, proxy_log: Path | None) -> str:
    episodes = [json.loads(p.read_text()) for p in sorted(out.glob("*.json"), key=_post_number)]
    lines = ["| post | status | chars | turns | read (relevant) | min | reason or note |"]
    lines.append("|---|---|---|---|---|---|---|")
    statuses: Counter[str] = Counter()
    broken = 0
    for e in episodes:
        statuses[e["status"]] += 1
        bad = violations(e)
        broken += bool(bad)
        evidence = e.get("evidence") or []
        relevant = sum(1 for x in evidence if x.get("relevant"))
        said = e.get("note") or e.get("abstain_reason") or e.get("failure_reason") or ""
        said = " ".join(said.split())[:160] + (f" — VIOLATES: {bad}" if bad else "")
        lines.append(
            f"| {e['bench']['post']} | {e['status']} | {e.get('char_count') or ''} "
            f"| {e['timings']['turns']} | {len(evidence)} ({relevant}) "
            f"| {e['bench']['wall_s'] / 60:.1f} | {said} |"
        )
    minutes = [e["bench"]["wall_s"] / 60 for e in episodes]
    summary = ", ".join(f"{n} {s}" for s, n in statuses.most_common())
    tokens = [
        int(e["timings"].get("prompt_tokens") or 0)
        + int(e["timings"].get("completion_tokens") or 0)
        for e in episodes
    ]
    notes = statuses.get("noted", 0)
    per_note = f"{sum(tokens) / notes:,.0f} per note" if notes else "no note"
    lines += [
        "",
        f"{len(episodes)} posts: {summary}; published notes breaking a rule: {broken}; "
        f"minutes per episode: median {statistics.median(minutes or [0]):.1f}, "
        f"max {max(minutes or [0]):.1f}",
        f"tokens: {sum(tokens):,} in all, {per_note} (every episode's tokens over the notes)",
        "",
        *call_table(proxy_log, episodes),
    ]
    return "\n".join(lines)


def _post_number(path: Path) -> int:
    return int(path.stem) if path.stem.isdigit() else -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("posts", type=Path, help="JSONL of {id, text, [human_note]}")
    parser.add_argument("--out", type=Path, required=True, help="folder for the episodes")
    parser.add_argument("--posts", dest="which", help="comma-separated line numbers (from 0)")
    parser.add_argument("--limit", type=int, default=10, help="the first N posts (default 10)")
    parser.add_argument("--proxy-log", type=Path, help="the logging proxy's JSONL, for tokens")
    parser.add_argument("--report", action="store_true", help="only print the report")
    args = parser.parse_args()
    lines = [json.loads(line) for line in args.posts.read_text().splitlines() if line.strip()]
    which = [int(n) for n in args.which.split(",")] if args.which else list(range(args.limit))
    # --limit past the file's end takes what there is; a line number past it is a mistake
    which = [n for n in which if n < len(lines)] if not args.which else which
    if missing := [n for n in which if not 0 <= n < len(lines)]:
        parser.error(
            f"--posts {missing[0]}: {args.posts} has {len(lines)} posts (0–{len(lines) - 1})"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report:
        settings = Settings()
        settings.forecast.enabled = False  # the note is measured here, not the raters
        asyncio.run(run_posts(settings, [(n, lines[n]) for n in which], args.out))
    print(report(args.out, args.proxy_log))


if __name__ == "__main__":
    main()
