"""A day of a simulated X feed through scan → draft → approve → queue → submit, under the new
policy (`pipeline.post_choice` for scans, `pipeline.desk.send_order` for the queue) and three
baselines that draft every post as it comes: first come, newest post first, and random.
Prints numbers; asserts nothing.

    python -m bench.feed_day [--days 200] [--posts 120] [--limit 10] [--seed 1]

What becomes of a sent note follows only figures others published (`bench.feed_world`: each
effect cited there), and every world is run again with each effect off, then with all off: in
the world with none, every policy must come out the same within noise (the tolerance is three
paired standard errors over the days, printed), and the new policy is compared with newest
first in the same run. All policies and worlds see the same posts, verdicts and forecasts.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from bench.feed_world import DAY_START, EFFECTS, FeedPost, RecordedForecasts, World, feed
from bench.forecast_real import RECORDING
from pipeline.desk.send_order import SendPolicy
from pipeline.post_choice import ScanPolicy, choose

SCAN_EVERY = timedelta(minutes=15)
APPROVAL_DELAY = timedelta(hours=1)  # a moderator approves a note about an hour after it is asked
TOLERANCE_SE = 3.0  # equal within noise: a difference within 3 paired standard errors


@dataclass
class DayResult:
    sent: int = 0
    rated: float = 0.0  # expected number of sent notes rated
    net: float = 0.0  # expected helpful minus not helpful, of those rated
    drafted: int = 0


Queue = list[tuple[datetime, FeedPost]]
# which approved note goes out in a slot: its index in the queue, or None to send nothing
Pick = Callable[[Queue, datetime], int | None]


def first_come(queue: Queue, slot: datetime) -> int | None:
    return 0


def newest_first(queue: Queue, slot: datetime) -> int | None:
    return max(range(len(queue)), key=lambda i: queue[i][1].created_at)


def at_random(rnd: random.Random) -> Pick:
    return lambda queue, slot: rnd.randrange(len(queue))


def by_forecast(world: World, sending: SendPolicy) -> Pick:
    def pick(queue: Queue, slot: datetime) -> int | None:
        decisions = [sending.decide(int(p.post.post_id or 0), world.forecast(p)) for _, p in queue]
        open_ = [i for i, d in enumerate(decisions) if not d.held]
        return min(open_, key=lambda i: decisions[i].rank()) if open_ else None

    return pick


def run_day(
    posts: list[FeedPost], world: World, choosing: bool, pick: Pick, limit: int
) -> DayResult:
    result = DayResult()
    scans = ScanPolicy()
    drafted_today: Counter[str] = Counter()
    ready: Queue = []  # approved notes, when they are approved
    at = DAY_START
    pending = list(posts)
    while pending:
        at += SCAN_EVERY
        found = [p for p in pending if p.seen_at <= at]
        pending = [p for p in pending if p.seen_at > at]
        if choosing:
            by_id = {p.post.post_id: p for p in found}
            choices = choose([p.post for p in found], at, scans, drafted_today)
            taken = [by_id[c.post.post_id] for c in choices if c.taken]
        else:
            taken = found
        for p in taken:
            drafted_today[(p.post.author or "").lower()] += 1
            result.drafted += 1
            if p.noted:
                ready.append((at + APPROVAL_DELAY, p))
    # the writing limit: `limit` notes a day, sent as slots open through the day
    slots = [DAY_START + timedelta(hours=24 * (k + 1) / limit) for k in range(limit)]
    queue: Queue = []
    for slot in slots:
        queue += [r for r in ready if r[0] <= slot]
        ready = [r for r in ready if r[0] > slot]
        chosen = pick(queue, slot) if queue else None
        if chosen is None:
            continue
        _, p = queue.pop(chosen)
        rated = world.chance_rated(p, slot)
        result.sent += 1
        result.rated += rated
        result.net += rated * (1.0 if p.helpful else -1.0)
    return result


@dataclass(frozen=True)
class PolicyRun:
    name: str
    days: list[DayResult]

    @property
    def sent(self) -> int:
        return sum(d.sent for d in self.days)

    @property
    def rated_share(self) -> float:
        return sum(d.rated for d in self.days) / max(self.sent, 1)

    @property
    def net_per_note(self) -> float:
        return sum(d.net for d in self.days) / max(self.sent, 1)

    def daily_net_per_note(self) -> list[float]:
        return [d.net / d.sent if d.sent else 0.0 for d in self.days]


def paired_se(a: PolicyRun, b: PolicyRun) -> float:
    """The standard error of the mean daily difference in net helpful per note sent, the days
    paired (both policies saw the same posts)."""
    diffs = [x - y for x, y in zip(a.daily_net_per_note(), b.daily_net_per_note(), strict=True)]
    return statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf


POLICIES = ("new: chosen, forecast-ordered", "first come", "newest post first", "random")


def run_world(
    world: World, forecasts: RecordedForecasts, days: int, posts: int, limit: int, seed: int
) -> dict[str, PolicyRun]:
    runs: dict[str, list[DayResult]] = {name: [] for name in POLICIES}
    sending = SendPolicy()
    for d in range(days):
        day = feed(random.Random(seed * 10_000 + d), posts, forecasts)
        picks: dict[str, tuple[bool, Pick]] = {
            POLICIES[0]: (True, by_forecast(world, sending)),
            POLICIES[1]: (False, first_come),
            POLICIES[2]: (False, newest_first),
            POLICIES[3]: (False, at_random(random.Random(seed * 10_000 + d + 1))),
        }
        for name, (choosing, pick) in picks.items():
            runs[name].append(run_day(day, world, choosing, pick, limit))
    return {name: PolicyRun(name, results) for name, results in runs.items()}


def worlds() -> dict[str, World]:
    every = World()
    out = {"every effect on": every}
    out |= {f"{effect} off": every.without(effect) for effect in EFFECTS}
    out["every effect off"] = World(on=frozenset())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=200)
    parser.add_argument("--posts", type=int, default=120, help="health posts a scan finds a day")
    parser.add_argument("--limit", type=int, default=10, help="X's writing limit a day")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--recording", type=Path, default=RECORDING)
    args = parser.parse_args(argv)
    try:
        forecasts = RecordedForecasts.load(args.recording)
    except (OSError, ValueError) as e:
        print(f"bench.feed_day: --recording: {e}")
        return 3
    print(
        f"{args.days} simulated days, {args.posts} posts a day, writing limit {args.limit}, "
        f"seed {args.seed}; forecasts from {len(forecasts.helpful)} Helpful and "
        f"{len(forecasts.not_helpful)} Not Helpful real notes ({args.recording.name})"
    )
    print("| world | policy | drafted a day | sent a day | share rated | net helpful per note "
          "sent | new − this policy (± tolerance) |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for title, world in worlds().items():
        runs = run_world(world, forecasts, args.days, args.posts, args.limit, args.seed)
        new = runs[POLICIES[0]]
        for name, run in runs.items():
            drafted = statistics.mean(d.drafted for d in run.days)
            sent = run.sent / len(run.days)
            gap = (
                ""
                if run is new
                else f"{new.net_per_note - run.net_per_note:+.3f} "
                f"(± {TOLERANCE_SE * paired_se(new, run):.3f})"
            )
            print(
                f"| {title} | {name} | {drafted:.0f} | {sent:.1f} | {run.rated_share:.1%} | "
                f"{run.net_per_note:+.3f} | {gap} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
