"""Paper-like research episodes against an honest stand-in for the model server and the web.
Prints numbers; asserts nothing.

    python -m bench.research [--episodes 20] [--concurrency 1 30] [--rounds 6]
                             [--profile h200-27b] [--scale 0.1] [--forecast] [--preset P]
                             [--output-lengths profile|cpu-1.5b]

The episode runner with the real OpenAI-compatible adapter, against the simulated server with
a model-server profile (prefill first-come, decoding slowing with the batch, realistic output
lengths, prefix caching) and a simulated web: 300 pages across official, journal, news and
other sites, each search returning 8 of them, searches taking a log-normal 1.2 s (median; p95
≈ 2.7 s, tail to ~6 s) and page reads 2 s (p95 ≈ 5.4 s, tail to ~12 s), 5% of pages
unreadable. The model's policy searches `--rounds` gaps, reading each search's unread results,
then writes: 6 rounds is the paper's 12-turn episode (12 model-chosen steps allowed).
`--scale 0.1` runs every latency ten times faster and reports times unscaled. `--preset` runs
the episodes under a research preset (`pipeline.budget.RESEARCH_PRESETS`): `no-shortcuts` turns
off the shortcuts of issue #16 (the post searched during the analysis, code reading the first
search's best results, notes only for long pages) to compare.

For each concurrency: per-episode wall time p50/p95, abstentions for lack of time, model turns
and calls, output tokens, the share of each agent turn's prompt the previous one already had
(prefix caching), and the critical path against the sequential sum of the same calls, per
phase (search, visit incl. page notes, inference); with `--forecast`, the persona panel runs
after each note (per-note and global bounds as `serve` uses them) and notes/min include it.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from adapters.openai_chat import OpenAIChatModel
from bot.app import openai_client
from bot.simulator.model import ResearchPolicy
from bot.simulator.profile import OUTPUT_TOKENS_CPU_1_5B, PROFILES
from bot.simulator.server import SimulatedModelServer
from pipeline.budget import RESEARCH_PRESETS, EvidenceBudget
from pipeline.drafting.vocabulary import load_word_lists
from pipeline.episode import EpisodeRunner
from pipeline.errors import PageUnreadable
from pipeline.evidence import Page, SearchResult
from pipeline.forecast.panel import PersonaPanel
from pipeline.forecast.personas import PersonaSet
from pipeline.ports import ChatMessage, ModelReply, NoMemory
from pipeline.post import Post
from pipeline.prompts import MAX_TOKENS
from pipeline.trajectory import EpisodeStatus

T = TypeVar("T", bound=BaseModel)
SITES = [  # (domain, pages)
    ("www.cdc.gov", 30),
    ("www.who.int", 30),
    ("www.nih.gov", 20),
    ("medlineplus.gov", 20),
    ("www.nejm.org", 20),
    ("www.thelancet.com", 20),
    ("www.bmj.com", 20),
    ("www.reuters.com", 30),
    ("en.wikipedia.org", 30),
    ("www.healthline.com", 40),
    ("someblog.example.com", 40),
]
SENTENCES = [
    "Large cohort studies of more than a million children found no link between the MMR "
    "vaccine and autism.",
    "Two doses of the measles vaccine are about 97 percent effective at preventing measles.",
    "Measles can cause pneumonia, encephalitis and death, especially in young children.",
    "The 1998 paper that claimed a link was retracted and its author lost his licence.",
    "Health agencies recommend the first dose at 12 to 15 months and the second at 4 to 6 years.",
    "Outbreaks occur where vaccination coverage falls below about 95 percent.",
    "Side effects of the vaccine are usually mild, such as a sore arm or a low fever.",
    "Autism signs often become noticeable at around the same age as the first dose.",
]
POST = Post(
    text="BREAKING: the measles vaccine causes autism and doctors are hiding it. "
    "Protect your kids, say no to MMR! #vaccines"
)


def lognormal(rng: random.Random, median: float, sigma: float, cap: float) -> float:
    return min(cap, median * rng.lognormvariate(0.0, sigma))


@dataclass
class SimulatedWeb:
    """A search engine and page reader with realistic latency (scaled by `scale`)."""

    scale: float
    seed: int = 0
    search_median_s: float = 1.2
    read_median_s: float = 2.0
    unreadable_share: float = 0.05
    searched_s: list[float] = field(default_factory=list)
    read_s: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.pages = [
            f"https://{domain}/health/measles-{i}" for domain, n in SITES for i in range(n)
        ]

    async def search(
        self, query: str, *, limit: int, published_before: datetime | None = None
    ) -> list[SearchResult]:
        wait = lognormal(self.rng, self.search_median_s, 0.5, 6.0)
        self.searched_s.append(wait)
        await asyncio.sleep(wait * self.scale)
        digest = int(hashlib.sha256(query.encode()).hexdigest(), 16)
        picked = random.Random(digest).sample(self.pages, limit)
        return [
            SearchResult(
                url=u,
                title=f"Measles and the MMR vaccine ({u.split('/')[2]})",
                snippet=SENTENCES[n % len(SENTENCES)],
            )
            for n, u in enumerate(picked)
        ]

    async def read(self, url: str) -> Page:
        wait = lognormal(self.rng, self.read_median_s, 0.6, 12.0)
        self.read_s.append(wait)
        await asyncio.sleep(wait * self.scale)
        if random.Random(url).random() < self.unreadable_share:
            raise PageUnreadable("HTTP 403")
        rng = random.Random(url)
        text = " ".join(rng.choice(SENTENCES) for _ in range(30))  # ~3,000 characters
        return Page(url=url, title=f"Measles ({url.split('/')[2]})", text=text)


@dataclass
class TimedModel:
    """The adapter, keeping each call's latency and output tokens for the report."""

    inner: OpenAIChatModel
    # (schema, seconds, output tokens, prompt tokens)
    calls: list[tuple[str, float, int, int]] = field(default_factory=list)

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        reply = await self.inner.structured(messages, output, timeout_s=timeout_s)
        self.calls.append(
            (output.__name__, reply.latency_s, reply.completion_tokens, reply.prompt_tokens)
        )
        return reply


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def one_episode(
    server: SimulatedModelServer,
    args: argparse.Namespace,
    seed: int,
    panel_gate: dict[str, Any],
) -> dict[str, Any]:
    scale = args.scale
    client = openai_client(server.base_url)
    model = TimedModel(OpenAIChatModel(client, model=server.model, max_tokens_for=MAX_TOKENS))
    web = SimulatedWeb(scale, seed=seed)
    budget = EvidenceBudget(
        preset=args.preset,
        max_steps=12,
        deadline_s=120 * scale,
        writing_reserve_s=20 * scale,
        page_timeout_s=20 * scale,
        search_timeout_s=15 * scale,
    )
    runner = EpisodeRunner(
        model=model,
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=budget,
        call_timeout_s=60 * scale,
    )
    started = time.perf_counter()
    outcome = await runner.run(POST)
    noted_at = time.perf_counter()
    if args.forecast and outcome.status == EpisodeStatus.NOTED and outcome.note:
        panel = panel_gate.setdefault(
            "panel",
            PersonaPanel(model, PersonaSet.load(), timeout_s=60 * scale, concurrency=8, per_note=4),
        )
        panel.model = model
        await panel.forecast(POST.text, outcome.note)
    finished = time.perf_counter()
    await client.close()
    t = outcome.timings
    inference = [c for c in model.calls if c[0] not in ("PageNotes", "RatingForm")]
    notes = [c for c in model.calls if c[0] == "PageNotes"]
    return {
        "status": outcome.status,
        "deadline": "deadline" in (outcome.abstain_reason or ""),
        "wall": (noted_at - started) / scale,
        "with_forecast": (finished - started) / scale,
        "turns": t.turns,
        "calls": len([c for c in model.calls if c[0] != "RatingForm"]),
        "tokens": sum(c[2] for c in model.calls if c[0] != "RatingForm"),
        "shared": t.prompt_prefix_shared or 0.0,
        # the critical path against the sequential sum of the same calls, per phase
        "search": (t.search_s / scale, sum(web.searched_s)),
        "visit": (t.visit_s / scale, sum(web.read_s) + sum(c[1] for c in notes) / scale),
        "inference": (t.inference_s / scale, sum(c[1] for c in inference) / scale),
        "by_call": [(c[0], c[1] / scale, c[2], c[3]) for c in model.calls if c[0] != "RatingForm"],
    }


async def measure(server: SimulatedModelServer, args: argparse.Namespace, at_once: int) -> str:
    gate = asyncio.Semaphore(at_once)
    panel: dict[str, Any] = {}

    async def guarded(seed: int) -> dict[str, Any]:
        async with gate:
            return await one_episode(server, args, seed, panel)

    started = time.perf_counter()
    rows = await asyncio.gather(*(guarded(i) for i in range(args.episodes)))
    wall = (time.perf_counter() - started) / args.scale
    noted = [r for r in rows if r["status"] == "noted"]
    walls = [r["wall"] for r in rows]
    lines = [
        f"{at_once} at once: noted {len(noted)}/{len(rows)}, abstained "
        f"{sum(r['status'] == 'abstained' for r in rows)} "
        f"({sum(r['deadline'] for r in rows)} at the deadline); per note p50 "
        f"{statistics.median(walls):.1f} s, p95 {percentile(walls, 0.95):.1f} s; "
        f"{60 * len(noted) / wall:.1f} notes/min"
        + (
            f" with the forecast (note + forecast p95 "
            f"{percentile([r['with_forecast'] for r in rows], 0.95):.1f} s)"
            if args.forecast
            else ""
        ),
        f"  per episode: {statistics.mean(r['turns'] for r in rows):.1f} model turns, "
        f"{statistics.mean(r['calls'] for r in rows):.1f} model calls, "
        f"{statistics.mean(r['tokens'] for r in rows):.0f} output tokens; prompt prefix "
        f"shared with the previous turn {100 * statistics.mean(r['shared'] for r in rows):.0f}%",
    ]
    for phase in ("search", "visit", "inference"):
        path = sum(r[phase][0] for r in rows)
        total = sum(r[phase][1] for r in rows)
        lines.append(
            f"  {phase:<9}: critical path {path / len(rows):5.1f} s of a sequential "
            f"{total / len(rows):5.1f} s (ratio {path / total if total else 0:.2f})"
        )
    lines.append("  by call type, per episode: calls · prompt / output tokens · seconds in calls")
    for schema in sorted({c[0] for r in rows for c in r["by_call"]}):
        calls = [c for r in rows for c in r["by_call"] if c[0] == schema]
        n = len(rows)
        lines.append(
            f"    {schema:<18} {len(calls) / n:5.1f} · {sum(c[3] for c in calls) / n:6.0f} / "
            f"{sum(c[2] for c in calls) / n:4.0f} · {sum(c[1] for c in calls) / n:5.1f} s"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    profile = PROFILES[args.profile]
    if args.output_lengths == "cpu-1.5b":  # the same speeds, the real 1.5B model's lengths
        profile = dataclasses.replace(profile, output_tokens=dict(OUTPUT_TOKENS_CPU_1_5B))
    server = SimulatedModelServer(
        ResearchPolicy(rounds=args.rounds, pages_per_visit=4),
        profile=profile,
        time_scale=args.scale,
    ).start()
    try:
        await load_word_lists()  # as `serve` does before its first request
        print(
            f"{args.episodes} episodes, {args.rounds} research rounds, profile {profile.name}, "
            f"preset {args.preset}, times unscaled (run at {args.scale}×)"
        )
        for at_once in args.concurrency:
            print(await measure(server, args, at_once), flush=True)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 30])
    parser.add_argument("--rounds", type=int, default=6, help="searches before writing")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="h200-27b")
    parser.add_argument("--scale", type=float, default=0.1, help="latency multiplier")
    parser.add_argument("--forecast", action="store_true", help="the persona panel too")
    parser.add_argument(
        "--output-lengths",
        choices=["profile", "cpu-1.5b"],
        default="profile",
        help="output tokens per call type: the profile's own, or those the real 1.5B model's "
        "answers measured (a second token table on the same speeds)",
    )
    parser.add_argument(
        "--preset",
        choices=["paper", *RESEARCH_PRESETS],
        default="paper",
        help="the research preset (EVONOTE_BUDGET__PRESET): no-shortcuts is the baseline",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
