"""Episodes as text for a terminal, and as JSON for machines."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from adapters.sqlstore.tables import EpisodeRow, FeedbackRow, StepRow
from pipeline.brief import VerificationBrief
from pipeline.card import post_excerpt
from pipeline.forecast.aggregate import Forecast
from pipeline.note_text import NOTE_CHAR_LIMIT
from pipeline.source_quality import TIER_NAMES, source_tier
from pipeline.trajectory import EpisodeStatus

AI_LABEL = "AI-drafted — needs human review"


def timings_line(row: EpisodeRow) -> str:
    if row.total_s is None:
        return "Timings: none (the episode did not finish)"
    return (
        f"Timings: search {row.search_s or 0:.1f} s · visit {row.visit_s or 0:.1f} s · "
        f"inference {row.inference_s or 0:.1f} s · total {row.total_s:.1f} s · "
        f"{row.turns or 0} turns"
    )


def media_not_inspected(row: EpisodeRow) -> int:
    """How many images or videos of the post no one described (no caption, no alt text)."""
    return sum(1 for m in row.post.get("media", []) if not (m.get("caption") or m.get("alt_text")))


def episode_text(row: EpisodeRow, votes: Sequence[FeedbackRow] = ()) -> str:
    lines = [f"Episode {row.id} — {row.status}" + (f" (model {row.model})" if row.model else "")]
    lines.append(f"Post: “{post_excerpt(str(row.post.get('text') or row.post_ref))}”")
    if unseen := media_not_inspected(row):
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
        read = {e.get("url"): e for e in row.evidence}
        lines.append("Sources:")
        for i, url in enumerate(row.cited_urls, 1):
            source = read.get(url, {})
            tier = int(source.get("tier") or source_tier(url))
            lines.append(
                f"  {i}. [{TIER_NAMES[tier]}] {source.get('title') or '(untitled)'} — {url}"
            )
            lines += [f"     “{' '.join(q.split())}”" for q in source.get("quotes", [])[:2]]
    elif row.status == EpisodeStatus.ABSTAINED:
        lines += ["", f"  Abstained: {row.abstain_reason}"]
    elif row.status == EpisodeStatus.FAILED:
        lines += ["", f"  Failed: {row.failure_reason}"]
    if row.forecast:
        forecast = Forecast.model_validate(row.forecast)
        reasons = ", ".join(forecast.top_reasons) or "none given"
        lines.append(f"Forecast ({forecast.method}): {forecast.summary()}; reasons: {reasons}")
    if row.brief:
        brief = VerificationBrief.model_validate(row.brief)
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
    return "\n".join(lines)


def steps_text(steps: list[StepRow]) -> str:
    out = []
    for s in steps:
        cost = f"{s.latency_s:.2f} s, {s.prompt_tokens}+{s.completion_tokens} tokens"
        out.append(f"#{s.index} {s.phase} ({cost})")
        if s.action:
            out.append(textwrap.indent(textwrap.shorten(str(s.action), 300), "    action: "))
        out.append(textwrap.indent(textwrap.shorten(s.observation, 400), "    → "))
    return "\n".join(out)


def episode_list_text(rows: list[EpisodeRow]) -> str:
    if not rows:
        return "No episodes yet."
    out = [f"{'id':>5}  {'status':<10} {'created (UTC)':<17} {'total':>7}  post"]
    for r in rows:
        total = f"{r.total_s:.1f}s" if r.total_s is not None else "-"
        text = " ".join(str(r.post.get("text") or r.post_ref).split())
        out.append(
            f"{r.id:>5}  {r.status:<10} {r.created_at:%Y-%m-%d %H:%M} {total:>7}  "
            f"{textwrap.shorten(text, 60)}"
        )
    return "\n".join(out)


def episode_json(
    row: EpisodeRow, steps: list[StepRow], votes: Sequence[FeedbackRow] = ()
) -> dict[str, Any]:
    return {
        "episode_id": row.id,
        "status": row.status,
        "post": row.post,
        "media_not_inspected": media_not_inspected(row),
        "votes": [
            {"platform": v.platform, "user": v.user, "vote": v.vote, "reason": v.reason}
            for v in votes
        ],
        "approved_by": row.approved_by,
        "note": row.note_text,
        "urls": row.cited_urls,
        "char_count": row.char_count,
        "abstain_reason": row.abstain_reason,
        "failure_reason": row.failure_reason,
        "brief": row.brief,
        "support_checked": row.support_checked,
        "evidence": row.evidence,
        "forecast": row.forecast,
        "timings": {
            "search_s": row.search_s,
            "visit_s": row.visit_s,
            "inference_s": row.inference_s,
            "total_s": row.total_s,
            "turns": row.turns,
            "prompt_tokens": row.prompt_tokens,
            "completion_tokens": row.completion_tokens,
        },
        "steps": [s.model_dump(mode="json", exclude={"id", "episode_id"}) for s in steps],
    }
