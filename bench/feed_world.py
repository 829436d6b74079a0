"""The simulated feed's world for `bench.feed_day`: what happens to a note once sent, from
figures others published, each switchable off.

Outcomes (each effect one published figure, never a function made up of the features the new
policy ranks on, so a policy wins only where a peer measured a difference):
- **rated at all**: 9% of notes sent (cn-return-bot's share a week before it chose posts,
  REFERENCE.md "What a live AI Note Writer learned");
  - `age`: 6.7% for a post over 24 h old when the note goes out (same source);
  - `young_fast`: 17% for a post under 24 h old spreading at ≥ 30k impressions an hour (same
    source: drafting only those "doubled the share rated (9% → 17% a week)");
  - `requests`: twice the rate when people asked for a note ("rated ~2× as often", same source);
- **helpful once rated**: 78% (same source: 392 rated, 78% Helpful);
- `forecast`: the persona forecast of a note is a real forecast — drawn from the real model's
  recorded net helpful on real notes with X's verdict (`bench.forecast_real`'s recording of
  `healthnotes_dev`), of the notes with the same verdict as this one. Off, it is drawn from all
  of them whatever the verdict: the forecast then knows nothing.

The feed itself (post age when found, impressions an hour, requested share, authors, notes
that end in a note) is a stand-in nobody published: it decides which posts there are, never
what becomes of a note.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pipeline.post import NoteRequestSuggestion, Post

DAY_START = datetime(2026, 12, 1, tzinfo=UTC)
BASE_RATED = 0.09  # cn-return-bot: share rated a week before choosing posts
OLD_RATED = 0.067  # cn-return-bot: posts over 24 h old
OLD_AFTER_H = 24.0
YOUNG_FAST_RATED = 0.17  # cn-return-bot: posts under ~24 h and ≥ ~30k impressions an hour
FAST_IMPRESSIONS_H = 30_000.0
REQUESTED_FACTOR = 2.0  # cn-return-bot: posts with note requests rated ~2× as often
HELPFUL_WHEN_RATED = 0.78  # cn-return-bot: 392 rated, 78% Helpful
EFFECTS = ("age", "young_fast", "requests", "forecast")

# Stand-ins for the feed (nobody published them): they shape which posts exist only.
FOUND_AGE_MEAN_H = 14.0
IMPRESSIONS_H_MEDIAN = 5_000.0  # lognormal, σ 1.5: about 12% of posts are "fast"
REQUESTED_SHARE = 0.2
NOTED_SHARE = 0.6  # episodes that end in a note (the rest abstain)
AUTHORS = 60


@dataclass(frozen=True)
class World:
    """Which published effects are on."""

    on: frozenset[str] = field(default_factory=lambda: frozenset(EFFECTS))

    def without(self, effect: str) -> World:
        return replace(self, on=self.on - {effect})

    def chance_rated(self, p: FeedPost, sent_at: datetime) -> float:
        age_h = (sent_at - p.created_at).total_seconds() / 3600
        rate = BASE_RATED
        if "age" in self.on and age_h > OLD_AFTER_H:
            rate = OLD_RATED
        elif (
            "young_fast" in self.on
            and age_h <= OLD_AFTER_H
            and p.impressions_h >= FAST_IMPRESSIONS_H
        ):
            rate = YOUNG_FAST_RATED
        if "requests" in self.on and p.post.requests:
            rate *= REQUESTED_FACTOR
        return min(rate, 1.0)

    def forecast(self, p: FeedPost) -> float:
        return p.forecast_if_known if "forecast" in self.on else p.forecast_if_blind


@dataclass(frozen=True)
class FeedPost:
    post: Post
    seen_at: datetime  # when a scan first finds it
    created_at: datetime
    impressions_h: float
    helpful: bool  # its verdict, should it be rated
    forecast_if_known: float  # a real forecast of a note with this verdict
    forecast_if_blind: float  # a real forecast of any note
    noted: bool  # its episode would end in a note


@dataclass(frozen=True)
class RecordedForecasts:
    """The real model's net helpful on real notes, by X's verdict."""

    helpful: list[float]
    not_helpful: list[float]

    @classmethod
    def load(cls, recording: Path) -> RecordedForecasts:
        from bench.forecast_recording import net_by_verdict

        helpful, not_helpful = net_by_verdict(recording)
        if not helpful or not not_helpful:
            raise ValueError(
                f"{recording}: the recording needs forecasts of both Helpful and Not Helpful "
                "notes (python -m bench.forecast_real --record)"
            )
        return cls(helpful, not_helpful)


def feed(rnd: random.Random, posts: int, forecasts: RecordedForecasts) -> list[FeedPost]:
    """One day's posts, every draw from `rnd` in a fixed order: every policy and world sees
    the same posts, verdicts and forecasts."""
    pooled = forecasts.helpful + forecasts.not_helpful
    out = []
    for n in range(posts):
        seen = DAY_START + timedelta(hours=rnd.uniform(0, 24))
        age = timedelta(hours=rnd.expovariate(1 / FOUND_AGE_MEAN_H))
        impressions_h = rnd.lognormvariate(0, 1.5) * IMPRESSIONS_H_MEDIAN
        asked = rnd.random() < REQUESTED_SHARE
        helpful = rnd.random() < HELPFUL_WHEN_RATED
        known = rnd.choice(forecasts.helpful if helpful else forecasts.not_helpful)
        blind = rnd.choice(pooled)
        noted = rnd.random() < NOTED_SHARE
        author = f"a{rnd.randrange(AUTHORS)}"
        created = seen - age
        hours = max(age.total_seconds() / 3600, 0.5)
        post = Post(
            text=f"post {n}",
            post_id=str(n),
            author=author,
            created_at=created,
            engagement=int(impressions_h * hours),  # ranked per hour, as impressions would be
            requests=[NoteRequestSuggestion(text="needs context")] if asked else [],
        )
        out.append(FeedPost(post, seen, created, impressions_h, helpful, known, blind, noted))
    return sorted(out, key=lambda p: p.seen_at)
