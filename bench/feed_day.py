"""A day of a simulated X feed through scan → draft → approve → queue → submit, under the old
policy (every health post drafted as it comes, notes sent first come within the writing limit)
and the new one (`pipeline.post_choice` for scans, `pipeline.desk.send_order` for the queue).
Prints numbers; asserts nothing.

    python -m bench.feed_day [--days 200] [--posts 120] [--limit 10] [--seed 1]

The world is a stand-in, its shape from what an AI Note Writer on X measured live
(cn-return-bot, 2,593 notes in 45 days): most notes are never rated; a post is rated about
twice as often when young (posts over 24 h old: 6.7%) and when people requested a note, and
more when it spreads fast. Each note has a true chance of being found helpful once rated; the
persona forecast sees it with noise. Both policies run the project's own choosing code on the
same posts and the same draws, so only the policy differs.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pipeline.desk.send_order import SendPolicy
from pipeline.post import NoteRequestSuggestion, Post
from pipeline.post_choice import ScanPolicy, choose

DAY_START = datetime(2026, 12, 1, tzinfo=UTC)
SCAN_EVERY = timedelta(minutes=15)
NOTED_SHARE = 0.6  # episodes that end in a note (the rest abstain)
APPROVAL_DELAY = timedelta(hours=1)  # a moderator approves a note about an hour after it is asked
BASE_RATED = 0.09  # the share of notes rated at all, before the policy helped (cn-return-bot)
FORECAST_NOISE = 0.35


@dataclass
class FeedPost:
    post: Post
    seen_at: datetime  # when a scan first finds it
    quality: float  # P(rated helpful | rated)
    forecast: float  # the persona forecast's net helpful: 2q - 1 with noise
    noted: bool  # its episode would end in a note


@dataclass
class DayResult:
    sent: int = 0
    rated: float = 0.0  # expected number of sent notes rated
    net: float = 0.0  # expected helpful minus not helpful, of those rated
    drafted: int = 0


def feed(rnd: random.Random, posts: int) -> list[FeedPost]:
    out = []
    for n in range(posts):
        seen = DAY_START + timedelta(hours=rnd.uniform(0, 24))
        age = timedelta(hours=rnd.expovariate(1 / 14))  # many are found young, some days old
        velocity = rnd.lognormvariate(3, 1.2)  # engagements an hour
        created = seen - age
        hours = max(age.total_seconds() / 3600, 0.5)
        asked = rnd.random() < 0.2
        quality = rnd.betavariate(2, 2)
        out.append(
            FeedPost(
                Post(
                    text=f"post {n}",
                    post_id=str(n),
                    author=f"a{rnd.randrange(60)}",
                    created_at=created,
                    engagement=int(velocity * hours),
                    requests=[NoteRequestSuggestion(text="needs context")] if asked else [],
                ),
                seen,
                quality,
                max(-1.0, min(1.0, 2 * quality - 1 + rnd.gauss(0, FORECAST_NOISE))),
                rnd.random() < NOTED_SHARE,
            )
        )
    return sorted(out, key=lambda p: p.seen_at)


def chance_rated(p: FeedPost, sent_at: datetime) -> float:
    """A note's chance of being rated at all: young, fast and requested posts more."""
    age_h = (sent_at - (p.post.created_at or sent_at)).total_seconds() / 3600
    young = 2.0 if age_h < 12 else 1.0 if age_h < 24 else 0.75
    velocity = (p.post.engagement or 0) / max(age_h, 0.5)
    fast = 1.0 + min(velocity / 200, 1.0)
    asked = 2.0 if p.post.requests else 1.0
    return min(BASE_RATED * young * fast * asked, 1.0)


def run_day(posts: list[FeedPost], new: bool, limit: int) -> DayResult:
    result = DayResult()
    scans = ScanPolicy()
    sending = SendPolicy()
    drafted_today: Counter[str] = Counter()
    ready: list[tuple[datetime, FeedPost]] = []  # approved notes, when they are approved
    at = DAY_START
    pending = list(posts)
    while pending:
        at += SCAN_EVERY
        found = [p for p in pending if p.seen_at <= at]
        pending = [p for p in pending if p.seen_at > at]
        if new:
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
    queue: list[tuple[datetime, FeedPost]] = []
    for slot in slots:
        queue += [r for r in ready if r[0] <= slot]
        ready = [r for r in ready if r[0] > slot]
        if not queue:
            continue
        if new:
            decisions = {
                id(p): sending.decide(int(p.post.post_id or 0), p.forecast) for _, p in queue
            }
            waiting = [(t, p) for t, p in queue if not decisions[id(p)].held]
            if not waiting:
                continue
            t, p = min(waiting, key=lambda w: decisions[id(w[1])].rank())
        else:
            t, p = queue[0]
        queue.remove((t, p))
        rated = chance_rated(p, slot)
        result.sent += 1
        result.rated += rated
        result.net += rated * (2 * p.quality - 1)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=200)
    parser.add_argument("--posts", type=int, default=120, help="health posts a scan finds a day")
    parser.add_argument("--limit", type=int, default=10, help="X's writing limit a day")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = {"first come (old)": False, "chosen and forecast-ordered (new)": True}
    print(f"{args.days} simulated days, {args.posts} posts a day, writing limit {args.limit}")
    print("| policy | drafted | notes sent | share rated | net helpful per note sent "
          "| writing limit spent on notes never rated |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- |")
    for name, new in rows.items():
        days = [
            run_day(feed(random.Random(args.seed * 10_000 + d), args.posts), new, args.limit)
            for d in range(args.days)
        ]
        sent = statistics.mean(d.sent for d in days)
        rated = sum(d.rated for d in days) / max(sum(d.sent for d in days), 1)
        net = sum(d.net for d in days) / max(sum(d.sent for d in days), 1)
        drafted = statistics.mean(d.drafted for d in days)
        print(
            f"| {name} | {drafted:.0f} | {sent:.1f} | {rated:.1%} | {net:+.3f} | {1 - rated:.1%} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
