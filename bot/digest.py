"""The daily digest: what EvoNote drafted, how moderators voted, and what it learned.

Posted by the `post_digest` job to the configured Slack and Discord channels, or printed by
`evonote digest --now`, with a PNG chart of the last 30 days.
"""

from __future__ import annotations

import asyncio
import io
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum

import discord
from matplotlib.figure import Figure
from slack_sdk.web.async_client import AsyncWebClient

from bot.simulator.profile import PROFILES
from memory.models import LessonStatus, MemoryItem, utcnow
from memory.ports import MemoryStore
from pipeline.desk.episode import CROWD_PLATFORM, Episode, FailureKind, Vote
from pipeline.desk.ports import EpisodeRepository
from pipeline.desk.standing import WriterStanding
from pipeline.ports import MemoryPhase
from pipeline.trajectory import EpisodeStatus


@dataclass
class Digest:
    since: datetime
    noted: int = 0
    abstained: int = 0
    failed: int = 0
    rejected: int = 0  # requests that were not a post EvoNote could check (bad input)
    votes_up: int = 0
    votes_down: int = 0
    abstain_reasons: list[str] = field(default_factory=list)
    new_lessons: dict[str, list[str]] = field(default_factory=dict)
    most_used: dict[str, list[str]] = field(default_factory=dict)
    retired: list[str] = field(default_factory=list)
    on_x: list[str] = field(default_factory=list)  # the writer's standing, when it submits
    prompt_tokens: int = 0  # every model call of the day's episodes
    completion_tokens: int = 0
    chart_png: bytes = b""

    @property
    def helpful_rate(self) -> float | None:
        votes = self.votes_up + self.votes_down
        return self.votes_up / votes if votes else None

    def tokens_line(self) -> str | None:
        """What the day's notes cost in model tokens, and in GPU time on the documented vLLM
        profile (one H200 serving a 27B model: `bot.simulator.profile`)."""
        spent = self.prompt_tokens + self.completion_tokens
        if not spent:
            return None
        line = (
            f"Model tokens: {spent:,} ({self.prompt_tokens:,} prompt, "
            f"{self.completion_tokens:,} completion)"
        )
        if self.noted:
            batched, alone = PROFILES["h200-27b"].gpu_seconds(
                self.prompt_tokens // self.noted, self.completion_tokens // self.noted
            )
            line += (
                f" · per note drafted: {spent // self.noted:,}, about {batched:.0f}–{alone:.0f} "
                "GPU-seconds on one H200 serving a 27B model (in a full batch – alone)"
            )
        return line

    def text(self) -> str:
        rate = (
            f"{100 * self.helpful_rate:.0f}% of votes helpful"
            if self.helpful_rate is not None
            else "no votes"
        )
        lines = [
            f"*EvoNote daily digest* (since {self.since:%Y-%m-%d %H:%M} UTC)",
            f"Notes drafted: {self.noted} · abstentions: {self.abstained} · failures: "
            f"{self.failed} · rejected inputs: {self.rejected}",
            f"Votes: 👍 {self.votes_up} · 👎 {self.votes_down} ({rate})",
        ]
        if self.abstain_reasons:
            lines.append("Why it abstained: " + "; ".join(self.abstain_reasons))
        if tokens := self.tokens_line():
            lines.append(tokens)
        for phase in MemoryPhase:
            new = self.new_lessons.get(phase.value, [])
            used = self.most_used.get(phase.value, [])
            if new or used:
                lines.append(
                    f"{phase.value.replace('_', ' ')}: {len(new)} new lessons"
                    + (f" (e.g. “{new[0]}”)" if new else "")
                    + (f"; most used: “{used[0]}”" if used else "")
                )
        if self.retired:
            lines.append("Retired: " + "; ".join(self.retired[:3]))
        if self.on_x:
            lines.append("On X: " + " · ".join(self.on_x))
        lines.append(
            "Curate lessons: the Home tab of EvoNote in Slack, or /lessons in Discord "
            "(moderators approve, retire, restore)."
        )
        return "\n".join(lines)


class Outcome(StrEnum):
    """What became of a finished episode, as the digest tells them apart: its status, with a
    failure on input the requester's to fix (not a post EvoNote could check) told apart."""

    NOTED = EpisodeStatus.NOTED.value
    ABSTAINED = EpisodeStatus.ABSTAINED.value
    FAILED = EpisodeStatus.FAILED.value
    REJECTED_INPUT = "rejected input"


# The outcomes' colours, in the chart
OUTCOMES = {
    Outcome.NOTED: "#2e7d32",
    Outcome.ABSTAINED: "#9e9e9e",
    Outcome.FAILED: "#c62828",
    Outcome.REJECTED_INPUT: "#ffb300",
}


def outcome(episode: Episode) -> Outcome | None:
    """What became of a finished episode (None: not finished)."""
    if episode.status == EpisodeStatus.FAILED:
        return (
            Outcome.REJECTED_INPUT if episode.failure_kind == FailureKind.INPUT else Outcome.FAILED
        )
    if episode.status in (EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED):
        return Outcome(episode.status.value)
    return None


def daily_outcomes(episodes: list[Episode], days: list[date]) -> dict[Outcome, list[int]]:
    per_day = Counter((outcome(e), e.created_at.date()) for e in episodes)
    return {name: [per_day[(name, day)] for day in days] for name in OUTCOMES}


def _chart(episodes: list[Episode], now: datetime) -> bytes:
    days = [(now - timedelta(days=d)).date() for d in range(29, -1, -1)]
    figure = Figure(figsize=(8, 3), dpi=100)  # no pyplot: no display, no global state
    axes = figure.subplots()
    bottom = [0] * len(days)
    for name, heights in daily_outcomes(episodes, days).items():
        axes.bar(range(len(days)), heights, bottom=bottom, color=OUTCOMES[name], label=name)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    axes.set_xticks(range(0, len(days), 7), [f"{d:%b %d}" for d in days[::7]])
    axes.set_ylabel("episodes")
    axes.set_title("EvoNote, last 30 days")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


async def votes_on_answers(
    store: EpisodeRepository, votes: list[Vote], known: list[Episode]
) -> list[Vote]:
    """The votes on episodes that answered (a note or an abstention): a vote on a failed
    episode judges no answer, and counted toward the helpful share it told nothing."""
    status = {e.id: e.status for e in known}
    for episode_id in {v.episode_id for v in votes} - set(status):
        if (episode := await store.get(episode_id)) is not None:
            status[episode_id] = episode.status
    answered = {EpisodeStatus.NOTED, EpisodeStatus.ABSTAINED}
    # the moderators' share: X's raters' verdict is the digest's own line (`on_x`)
    return [
        v for v in votes if status.get(v.episode_id) in answered and v.platform != CROWD_PLATFORM
    ]


async def build_digest(
    store: EpisodeRepository,
    memory: MemoryStore | None,
    now: datetime | None = None,
    hours: float = 24,
    standing: WriterStanding | None = None,
    on_x: str | None = None,
) -> Digest:
    """`on_x`: what became of the live notes on X (`pipeline.desk.outcomes`), if any."""
    now = now or utcnow()
    since = now - timedelta(hours=hours)
    month = await store.since(now - timedelta(days=30))
    today = [e for e in month if e.created_at >= since]
    votes = await votes_on_answers(store, await store.votes_since(since), month)
    digest = Digest(
        since=since,
        noted=sum(outcome(e) == Outcome.NOTED for e in today),
        abstained=sum(outcome(e) == Outcome.ABSTAINED for e in today),
        failed=sum(outcome(e) == Outcome.FAILED for e in today),
        rejected=sum(outcome(e) == Outcome.REJECTED_INPUT for e in today),
        votes_up=sum(v.vote > 0 for v in votes),
        votes_down=sum(v.vote < 0 for v in votes),
        prompt_tokens=sum(e.prompt_tokens or 0 for e in today),
        completion_tokens=sum(e.completion_tokens or 0 for e in today),
        abstain_reasons=[
            # whole words, with a mark where the reason goes on (it cut them mid-word)
            textwrap.shorten(e.abstain_reason or "", 120, placeholder=" …")
            for e in today
            if e.status == EpisodeStatus.ABSTAINED
        ][:3],
    )
    items: list[MemoryItem] = await memory.items() if memory is not None else []
    for phase in MemoryPhase:
        mine = [i for i in items if i.phase == phase]
        digest.new_lessons[phase.value] = [i.trigger for i in mine if i.created_at >= since]
        digest.most_used[phase.value] = [
            i.trigger
            for i in sorted(
                (i for i in mine if i.status != LessonStatus.RETIRED), key=lambda i: -i.uses
            )
            if i.uses
        ][:1]
    digest.retired = [
        f"{i.trigger} ({i.why_retired})"
        for i in items
        if i.status == LessonStatus.RETIRED and i.updated_at >= since
    ]
    if standing is not None:  # admission, the alarms, the last two lines (notes, limit)
        summary = standing.summary()
        digest.on_x = [summary[0], *standing.alarms, *summary[-2:]]
    if on_x is not None:
        digest.on_x.append(on_x)
    digest.chart_png = await asyncio.to_thread(_chart, month, now)
    return digest


async def post_to_slack(client: AsyncWebClient, channel: str, digest: Digest) -> None:
    await client.files_upload_v2(
        channel=channel,
        content=None,
        file=digest.chart_png,
        filename="evonote-digest.png",
        title="EvoNote, last 30 days",
        initial_comment=digest.text(),
    )


async def post_to_discord(client: discord.Client, channel_id: int, digest: Digest) -> None:
    channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        raise ValueError(f"Discord channel {channel_id} cannot take messages")
    await channel.send(
        content=digest.text().replace("*", "**")[:2000],
        file=discord.File(io.BytesIO(digest.chart_png), "evonote-digest.png"),
    )
