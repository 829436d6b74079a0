"""NoteCard → a Discord embed, within Discord's limits (6,000 characters, 25 fields,
1,024 characters a field, 4,096 in the description, 256 in the title)."""

from __future__ import annotations

import discord

from pipeline.card import NOT_VOUCHING, NoteCard
from pipeline.desk.previews import PostPreview, first_line, what_became_of
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


def _safe(text: str) -> str:
    """Untrusted text (the post, pages, the model's words, reasons that may quote them) shown
    as text: no markdown, no masked links, no @everyone or role mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def _link_target(url: str) -> str:
    """A URL inside our own `[title](url)`: the characters that would end it encoded."""
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")


def preview_embed(preview: PostPreview, drafting: bool = False) -> discord.Embed:
    """A post link's preview: the post as EvoNote reads it, why it cannot, or its note."""
    if preview.episode is not None:
        description = _safe(what_became_of(preview.episode))
        return discord.Embed(title="EvoNote", url=preview.url, description=description)
    if preview.post is None:
        reason = _cut(_safe(preview.unreadable or ""), 1000)
        return discord.Embed(
            title="EvoNote cannot read this post",
            url=preview.url,
            description=f"{reason} — paste its text with /note to check it.",
        )
    post = preview.post
    title = f"Post by {post.author}" if post.author else "Post"
    unseen = [m for m in post.media if not (m.caption or m.alt_text)]
    seen = "EvoNote reads its text" + (
        f"; {len(unseen)} image(s) or video(s) it cannot see" if unseen else ""
    )
    embed = discord.Embed(
        title=_cut(_safe(title), 256), url=preview.url, description=f"“{_safe(first_line(post))}”"
    )
    embed.set_footer(text=seen + (". Drafting a note…" if drafting else "."))
    return embed


def card_embed(card: NoteCard) -> discord.Embed:
    if card.status in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        embed = discord.Embed(
            title=f"Checking this post ({card.episode_label})",
            description=_safe(card.progress or "Analysing the claim…"),
            colour=0x1565C0,
        )
        return _with_post(embed, card)
    if card.status == EpisodeStatus.NOTED and card.note:
        embed = discord.Embed(
            title=f"Proposed Community Note ({card.episode_label})",
            colour=COLOURS[EpisodeStatus.NOTED],
            description=_cut(_safe(card.note), MAX_DESCRIPTION),
        )
        label = f"{card.char_count}/{card.char_limit} characters · {card.label}"
        label += "".join(f" · {_safe(text)}" for _, text in card.notices())
        embed.add_field(name="Length", value=_cut(label, MAX_FIELD), inline=False)
        sources = "\n".join(
            f"[{s.tier_name}] [{_safe(_cut(s.title, 80))}]({_link_target(s.url)})"
            + ("" if s.vouches else f" · {NOT_VOUCHING}")
            for s in card.sources[:10]
        )
        if sources:
            embed.add_field(name="Sources", value=_cut(sources, MAX_FIELD), inline=False)
        if card.forecast:
            reasons = _safe(", ".join(card.forecast_reasons)) or "none"
            embed.add_field(
                name="Rater forecast",
                inline=False,
                value=_cut(f"{card.forecast}; reasons: {reasons}", MAX_FIELD),
            )
    elif card.status == EpisodeStatus.ABSTAINED:
        embed = discord.Embed(
            title=f"No note: EvoNote abstained ({card.episode_label})",
            colour=COLOURS[EpisodeStatus.ABSTAINED],
            description=_cut(_safe(card.abstain_reason or ""), MAX_DESCRIPTION),
        )
        if card.refused_by:
            embed.add_field(name="Refused", value=_cut(_safe(card.refusals()), MAX_FIELD))
    else:
        embed = discord.Embed(
            title=f"This post could not be checked ({card.episode_label})",
            colour=COLOURS[EpisodeStatus.FAILED],
            description=_cut(_safe(card.failure_reason or ""), MAX_DESCRIPTION),
        )
    _with_post(embed, card)
    if card.claim_pattern:
        gaps = "\n".join(f"– {_safe(g)}" for g in card.top_gaps)  # the model's words
        embed.add_field(
            name=_cut(f"Claim pattern: {_safe(card.claim_pattern)}", 256),
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
        embed.add_field(name="On X", value=_cut(_safe(card.submission), MAX_FIELD), inline=False)
    if card.evaluation:
        embed.add_field(
            name="X's evaluator", value=_cut(_safe(card.evaluation), MAX_FIELD), inline=False
        )
    if card.timings:
        embed.set_footer(text=_cut(f"Timings: {card.timings} · {card.episode_label}", 2048))
    return _within_total(embed)


def evidence_text(evidence: list[Evidence]) -> str:
    """Every page read, with its quotes (Discord's 2,000-character message limit)."""
    lines = [
        f"**{_safe(e.title or e.url)}** <{_link_target(e.url)}>\n"
        + "\n".join(f"> {_safe(' '.join(q.split()))}" for q in e.quotes)
        for e in evidence
    ]
    return ("\n\n".join(lines) or "No sources were read.")[:2000]


def _with_post(embed: discord.Embed, card: NoteCard) -> discord.Embed:
    """The post being checked, first among the fields (the last to be dropped for length)."""
    if card.post_excerpt:
        embed.insert_field_at(
            0, name="Post", value=_cut(_safe(card.post_excerpt), MAX_FIELD), inline=False
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
