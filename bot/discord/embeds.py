"""NoteCard → a Discord embed, within Discord's limits (6,000 characters, 25 fields,
1,024 characters a field, 4,096 in the description, 256 in the title)."""

from __future__ import annotations

import discord

from pipeline.card import NoteCard
from pipeline.evidence import Evidence
from pipeline.trajectory import EpisodeStatus

MAX_TOTAL = 6000
MAX_FIELDS = 25
MAX_FIELD = 1024
MAX_DESCRIPTION = 4096
COLOURS = {
    EpisodeStatus.NOTED: 0x2E7D32,
    EpisodeStatus.ABSTAINED: 0x9E9E9E,
    EpisodeStatus.FAILED: 0xC62828,
}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def card_embed(card: NoteCard) -> discord.Embed:
    if card.status in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        embed = discord.Embed(
            title=f"Checking this post (episode {card.episode_id})",
            description=card.progress or "Analysing the claim…",
            colour=0x1565C0,
        )
        return _with_post(embed, card)
    if card.status == EpisodeStatus.NOTED and card.note:
        embed = discord.Embed(
            title=f"Proposed Community Note (episode {card.episode_id})",
            colour=COLOURS[EpisodeStatus.NOTED],
            description=_cut(card.note, MAX_DESCRIPTION),
        )
        label = f"{card.char_count}/{card.char_limit} characters · {card.label}"
        if card.support_unverified:
            label += " · support not verified sentence by sentence"
        if card.media_not_inspected:
            label += " · media not inspected"
        if card.unseen:
            label += " · not visible: " + "; ".join(card.unseen)
        embed.add_field(name="Length", value=_cut(label, MAX_FIELD), inline=False)
        sources = "\n".join(
            f"[{s.tier_name}] [{_cut(s.title, 80)}]({s.url})" for s in card.sources[:10]
        )
        if sources:
            embed.add_field(name="Sources", value=_cut(sources, MAX_FIELD), inline=False)
        if card.forecast:
            reasons = ", ".join(card.forecast_reasons) or "none"
            embed.add_field(
                name="Rater forecast",
                inline=False,
                value=_cut(f"{card.forecast}; reasons: {reasons}", MAX_FIELD),
            )
    elif card.status == EpisodeStatus.ABSTAINED:
        embed = discord.Embed(
            title=f"No note: EvoNote abstained (episode {card.episode_id})",
            colour=COLOURS[EpisodeStatus.ABSTAINED],
            description=_cut(card.abstain_reason or "", MAX_DESCRIPTION),
        )
    else:
        embed = discord.Embed(
            title=f"This post could not be checked (episode {card.episode_id})",
            colour=COLOURS[EpisodeStatus.FAILED],
            description=_cut(card.failure_reason or "", MAX_DESCRIPTION),
        )
    _with_post(embed, card)
    if card.claim_pattern:
        gaps = "\n".join(f"– {g}" for g in card.top_gaps)
        embed.add_field(
            name=f"Claim pattern: {card.claim_pattern}",
            value=_cut(gaps or "–", MAX_FIELD),
            inline=False,
        )
    if card.votes_up or card.votes_down:
        voters = ", ".join(f"<@{u}>" for u in card.voters[:30])
        embed.add_field(
            name="Votes",
            inline=False,
            value=_cut(f"👍 {card.votes_up} · 👎 {card.votes_down} — {voters}", MAX_FIELD),
        )
    if card.approved_by:
        embed.add_field(name="Approved", value=f"<@{card.approved_by}>", inline=False)
    if card.submission:
        embed.add_field(name="On X", value=_cut(card.submission, MAX_FIELD), inline=False)
    if card.timings:
        embed.set_footer(text=_cut(f"Timings: {card.timings} · episode {card.episode_id}", 2048))
    return _within_total(embed)


def evidence_text(evidence: list[Evidence]) -> str:
    """Every page read, with its quotes (Discord's 2,000-character message limit)."""
    lines = [
        f"**{e.title or e.url}** <{e.url}>\n"
        + "\n".join(f"> {' '.join(q.split())}" for q in e.quotes)
        for e in evidence
    ]
    return ("\n\n".join(lines) or "No sources were read.")[:2000]


def _with_post(embed: discord.Embed, card: NoteCard) -> discord.Embed:
    """The post being checked, first among the fields (the last to be dropped for length)."""
    if card.post_excerpt:
        embed.insert_field_at(
            0, name="Post", value=_cut(card.post_excerpt, MAX_FIELD), inline=False
        )
    return embed


def _within_total(embed: discord.Embed) -> discord.Embed:
    while len(embed) > MAX_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > MAX_TOTAL and embed.description:
        embed.description = _cut(
            embed.description, max(0, len(embed.description) - (len(embed) - MAX_TOTAL))
        )
    return embed
