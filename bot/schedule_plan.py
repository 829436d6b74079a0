"""Which periodic jobs `serve` (role all or scheduler) runs with these settings, and why the
others do not run: `evonote doctor` lists both (a watchlist without its token was silently
never scheduled). Mirrors `bot.serve.start_scheduler`'s conditions, from the settings alone."""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings
from pipeline.ports import MemoryMode


@dataclass(frozen=True)
class PlannedJob:
    name: str
    scheduled: bool
    why: str  # its interval and what it serves, or what it lacks


def planned_jobs(settings: Settings) -> list[PlannedJob]:
    m, x, ops = settings.memory, settings.x, settings.ops
    memory_on = m.mode != MemoryMode.OFF
    off = "the memory is off (EVONOTE_MEMORY__MODE=off)"
    submitting = x.credentials() is not None or settings.bluesky.credentials() is not None
    no_destination = (
        "no notes destination: X's OAuth credentials (EVONOTE_X__CONSUMER_KEY, "
        "__CONSUMER_SECRET, __ACCESS_TOKEN, __ACCESS_TOKEN_SECRET) or Bluesky's "
        "(EVONOTE_BLUESKY__HANDLE, __APP_PASSWORD)"
    )
    digest_to = [
        where
        for where, channel, token in (
            ("Slack", settings.slack.digest_channel, settings.slack.bot_token),
            ("Discord", settings.discord.digest_channel, settings.discord.bot_token),
        )
        if channel and token is not None
    ]
    watches = [f"{kind}:{value}" for kind, value in x.watches]
    if x.watch_eligible:
        watches.append("X's eligible posts")
    cards = (
        f"cards in Slack channel {x.watch_channel}"
        if x.watch_channel and settings.slack.bot_token is not None
        else "run without a card (set EVONOTE_X__WATCH_CHANNEL for cards)"
    )
    return [
        PlannedJob("recover_episodes", True, f"every {ops.recover_every_s:g} s, and at start"),
        PlannedJob("evolve", memory_on, f"every {m.evolve_every_s:g} s" if memory_on else off),
        PlannedJob(
            "upkeep_memory", memory_on, f"every {m.upkeep_every_s:g} s" if memory_on else off
        ),
        PlannedJob(
            "sync_note_status",
            submitting,
            f"every {x.sync_every_s:g} s" if submitting else no_destination,
        ),
        PlannedJob(
            "submit_queued",
            submitting,
            f"every {x.sync_every_s:g} s" if submitting else no_destination,
        ),
        PlannedJob(
            "revise_sent_notes",
            submitting and bool(x.revise_after_h),
            f"every {x.revise_every_s:g} s: notes {', '.join(f'{h:g} h' for h in x.revise_after_h)}"
            " after sending"
            if submitting and x.revise_after_h
            else no_destination
            if not submitting
            else "no revision window (EVONOTE_X__REVISE_AFTER_H=[])",
        ),
        PlannedJob(
            "post_digest",
            bool(digest_to),
            f"daily, to {' and '.join(digest_to)}"
            if digest_to
            else "no digest channel with its bot token (EVONOTE_SLACK__DIGEST_CHANNEL, "
            "EVONOTE_DISCORD__DIGEST_CHANNEL)",
        ),
        PlannedJob(
            "scan_watchlists",
            bool(watches),
            f"every {x.watch_every_s:g} s: {', '.join(watches)}; {cards}"
            if watches
            else "no watch set (EVONOTE_X__WATCH_ACCOUNTS, EVONOTE_X__WATCH_QUERIES, "
            "EVONOTE_X__WATCH_ELIGIBLE)",
        ),
        PlannedJob(
            "refresh_gauges",
            bool(ops.metrics_port),
            "every 30 s" if ops.metrics_port else "no metrics endpoint (EVONOTE_OPS__METRICS_PORT)",
        ),
    ]
