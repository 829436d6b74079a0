"""Episodes as text for a terminal, and as JSON for machines."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from pipeline.card import post_excerpt
from pipeline.desk.cards import timings_line
from pipeline.desk.episode import Episode, Vote
from pipeline.drafting.note import NOTE_CHAR_LIMIT
from pipeline.source_quality import TIER_NAMES, source_tier
from pipeline.trajectory import EpisodeStatus, StepRecord

AI_LABEL = "AI-drafted — needs human review"
# What a terminal would obey rather than show: C0/C1 controls (ESC starts colour, cursor and
# title sequences) and the bidirectional overrides that reorder what follows them.
_OBEYED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: str) -> str:
    """Untrusted text as a terminal should print it: every control character shown, not run."""
    return _OBEYED.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


def episode_text(row: Episode, votes: Sequence[Vote] = ()) -> str:
    lines = [f"Episode {row.id} — {row.status}" + (f" (model {row.model})" if row.model else "")]
    lines.append(f"Post: “{post_excerpt(row.post_text())}”")
    lines += [f"  ⚠ not visible to EvoNote: {what}" for what in row.post.unseen]
    if unseen := row.media_not_inspected():
        lines.append(
            f"  ⚠ media not inspected: {unseen} image(s) or video(s) without a description"
        )
    if row.status == EpisodeStatus.NOTED and row.note_text:
        lines += [
            "",
            textwrap.indent(row.note_text, "  "),
            "",
            f"  {row.char_count}/{NOTE_CHAR_LIMIT} characters · {AI_LABEL}",
        ]
        if row.support_checked is False:
            lines.append("  ⚠ the sentence-by-sentence support check could not run")
        read = {e.url: e for e in row.evidence}
        lines.append("Sources:")
        for i, url in enumerate(row.cited_urls, 1):
            source = read.get(url)
            tier = source.tier if source else source_tier(url)
            title = (source.title if source else "") or "(untitled)"
            lines.append(f"  {i}. [{TIER_NAMES[tier]}] {title} — {url}")
            quotes = source.quotes[:2] if source else []
            lines += [f"     “{' '.join(q.split())}”" for q in quotes]
    elif row.status == EpisodeStatus.ABSTAINED:
        lines += ["", f"  Abstained: {row.abstain_reason}"]
    elif row.status == EpisodeStatus.FAILED:
        lines += ["", f"  Failed: {row.failure_reason}"]
    lines += [
        f"  draft {i} refused by: {', '.join(rules)}"
        for i, rules in enumerate(row.refused_drafts, start=1)
    ]
    if forecast := row.forecast:
        reasons = ", ".join(forecast.top_reasons) or "none given"
        lines.append(f"Forecast ({forecast.method}): {forecast.summary()}; reasons: {reasons}")
    if brief := row.brief:
        lines.append(
            f"Brief: {brief.claim_pattern.value} · {brief.note_intent.value} · "
            f"language {brief.language}"
        )
        lines += [f"  claim: {c}" for c in brief.checkworthy_claims]
        lines += [
            f'  gap P{g.priority} {g.type.value}: {g.description} → "{g.suggested_query}"'
            for g in brief.top_gaps()
        ]
    if votes:
        up, down = sum(v.vote > 0 for v in votes), sum(v.vote < 0 for v in votes)
        lines.append(f"Votes: 👍 {up} · 👎 {down} ({', '.join(v.user for v in votes)})")
    if row.approved_by:
        lines.append(f"Approved by {row.approved_by}")
    lines.append(timings_line(row))
    return for_terminal("\n".join(lines))


def steps_text(steps: list[StepRecord]) -> str:
    out = []
    for s in steps:
        cost = f"{s.latency_s:.2f} s, {s.prompt_tokens}+{s.completion_tokens} tokens"
        out.append(f"#{s.index} {s.phase} ({cost})")
        if s.action:
            out.append(textwrap.indent(textwrap.shorten(str(s.action), 300), "    action: "))
        out.append(textwrap.indent(textwrap.shorten(s.observation, 400), "    → "))
    return for_terminal("\n".join(out))


def episode_list_text(rows: list[Episode]) -> str:
    if not rows:
        return "No episodes yet."
    out = [f"{'id':>5}  {'status':<10} {'created (UTC)':<17} {'total':>7}  post"]
    for r in rows:
        total = f"{r.total_s:.1f}s" if r.total_s is not None else "-"
        text = " ".join(r.post_text().split())
        out.append(
            f"{r.id:>5}  {r.status:<10} {r.created_at:%Y-%m-%d %H:%M} {total:>7}  "
            f"{textwrap.shorten(text, 60)}"
        )
    return for_terminal("\n".join(out))


def episode_json(
    row: Episode, steps: list[StepRecord], votes: Sequence[Vote] = ()
) -> dict[str, Any]:
    return {
        "episode_id": row.id,
        "status": row.status,
        "post": row.post.model_dump(mode="json", exclude_none=True),
        "media_not_inspected": row.media_not_inspected(),
        "votes": [
            {"platform": v.platform, "user": v.user, "vote": v.vote, "reason": v.reason}
            for v in votes
        ],
        "approved_by": row.approved_by,
        "note": row.note_text,
        "urls": row.cited_urls,
        "char_count": row.char_count,
        "abstain_reason": row.abstain_reason,
        "refused_drafts": row.refused_drafts,
        "failure_reason": row.failure_reason,
        "brief": row.brief.model_dump(mode="json") if row.brief else None,
        "support_checked": row.support_checked,
        "evidence": [e.model_dump(mode="json") for e in row.evidence],
        "forecast": row.forecast.model_dump(mode="json") if row.forecast else None,
        "timings": {
            "search_s": row.search_s,
            "visit_s": row.visit_s,
            "inference_s": row.inference_s,
            "total_s": row.total_s,
            "turns": row.turns,
            "prompt_tokens": row.prompt_tokens,
            "completion_tokens": row.completion_tokens,
        },
        "steps": [s.model_dump(mode="json") for s in steps],
    }
