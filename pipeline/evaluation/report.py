"""From ledger lines (one per post, see `bot.evaluation.run`) to the paper's tables: R, C, H and
win rate by modality, the evidence profile, and the time table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipeline.evaluation.judges import SCORE
from pipeline.evaluation.metrics import (
    domain_diversity,
    length_compliance,
    percentiles,
    source_quality,
    url_profile,
)
from pipeline.evaluation.study import Prior
from pipeline.trajectory import EpisodeStatus

TIME_FIELDS = ("search_s", "visit_s", "inference_s", "total_s", "turns", "tokens")


def _rate(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def quality_rates(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """R, C and H are shares of all posts (an abstention passes no gate); the win rate is
    over posts that have a human note, ties counting one half and an abstention a loss."""
    failed = [r.get("failed_gate") for r in rows]
    noted = [r.get("note") is not None for r in rows]
    # a note that failed gate g passed every gate before it
    relevance = [n and (f is None or f > 2) for n, f in zip(noted, failed, strict=True)]
    correctness = [n and (f is None or f > 3) for n, f in zip(noted, failed, strict=True)]
    versus = [
        SCORE[r["versus_human"]["overall"]] if r.get("versus_human") else 0.0
        for r in rows
        if r.get("has_human_note")
    ]
    return {
        "posts": len(rows),
        "noted_rate": _rate(noted),
        "relevance_rate": _rate(relevance),
        "correctness_rate": _rate(correctness),
        "helpful_rate": _rate([bool(r.get("helpful")) for r in rows]),
        "win_rate": sum(versus) / len(versus) if versus else None,
    }


def memory_growth(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Over every episode run (training part included): lessons added, merged, retired."""
    last = rows[-1] if rows else {}
    return {
        "episodes": len(rows),
        "lessons_added": last.get("lessons_so_far", 0),
        "reinforced": last.get("reinforced_so_far", 0),
        "retired": last.get("retired_so_far", 0),
        "memory_size": last.get("memory_size", 0),
        "items_per_episode": last.get("memory_size", 0) / len(rows) if rows else None,
    }


def retrieval_profile(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How often an episode retrieved lessons, and whether they came from episodes of the same
    claim pattern (or from the earlier stream of --memory-from)."""
    seen = [r["retrieval"] for r in rows if r.get("retrieval")]
    retrieved = sum(r["retrieved"] for r in seen)
    traced = retrieved - sum(r["from_earlier_stream"] for r in seen)
    return {
        "episodes_retrieving": _rate([r["retrieved"] > 0 for r in seen]),
        "lessons_per_episode": retrieved / len(seen) if seen else None,
        "same_pattern_share": sum(r["same_pattern"] for r in seen) / traced if traced else None,
        "from_earlier_stream_share": (
            sum(r["from_earlier_stream"] for r in seen) / retrieved if retrieved else None
        ),
    }


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Everything `results.json` holds for one variant: quality over the tested posts (all of
    them without --split), memory growth over every episode run."""
    every = rows
    rows = [r for r in rows if r.get("split", "test") == "test"]
    notes = [r for r in rows if r.get("note")]
    urls = [r.get("cited_urls") or [] for r in notes]
    average_urls, multi_url = url_profile(urls)
    modalities = sorted({r.get("modality") or "text" for r in rows})
    return {
        **quality_rates(rows),
        "abstained_rate": _rate([r.get("status") == EpisodeStatus.ABSTAINED for r in rows]),
        "failed_rate": _rate([r.get("status") == EpisodeStatus.FAILED for r in rows]),
        "by_modality": {
            m: quality_rates([r for r in rows if (r.get("modality") or "text") == m])
            for m in modalities
        },
        "evidence": {
            "source_quality": _mean([source_quality(u) for u in urls]),
            "domain_diversity": _mean([domain_diversity(u) for u in urls]),
            "semantic_diversity": _mean([r.get("semantic_diversity") for r in notes]),
            "average_urls": average_urls,
            "multi_url_rate": multi_url,
            "length_compliance": length_compliance([r["note"] for r in notes]),
        },
        "time": {
            f: percentiles(
                [float(r["times"][f]) for r in rows if r.get("times", {}).get(f) is not None]
            )
            for f in TIME_FIELDS
        },
        "tokens": tokens_per_outcome(rows),
        "lessons_learned": max((r.get("lessons_so_far", 0) for r in every), default=0),
        "by_prior": {
            p.value: quality_rates([r for r in rows if r.get("prior") == p.value])
            for p in Prior
            if any(r.get("prior") == p.value for r in rows)
        },
        "memory": memory_growth(every),
        "retrieval": retrieval_profile(rows),
    }


def _cell(value: float | None, percent: bool = True) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}" if percent else f"{value:.2f}"


def render_markdown(results: dict[str, dict[str, Any]], dataset: str) -> str:
    """The report: one table per concern, one row per variant (and modality)."""
    lines = [
        f"# EvoNote benchmark — {dataset}",
        "",
        "R: notes passing evidence relevance, C: correct representation of the evidence, "
        "H: helpful (all four gates), Win: pairwise against the human note (tie = ½, "
        "abstention = loss). Rates in %, of all posts.",
        "",
        "## Quality by modality",
        "",
        "| variant | modality | posts | noted | R | C | H | Win |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for variant, summary in results.items():
        for modality, q in [("all", summary), *summary["by_modality"].items()]:
            lines.append(
                f"| {variant} | {modality} | {q['posts']} | {_cell(q['noted_rate'])} | "
                f"{_cell(q['relevance_rate'])} | {_cell(q['correctness_rate'])} | "
                f"{_cell(q['helpful_rate'])} | {_cell(q['win_rate'])} |"
            )
    lines += [
        "",
        "## Evidence profile",
        "",
        "| variant | source quality | domain div. | semantic div. | URLs/note | multi-URL % "
        "| ≤280 chars % |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for variant, summary in results.items():
        e = summary["evidence"]
        lines.append(
            f"| {variant} | {_cell(e['source_quality'], False)} | "
            f"{_cell(e['domain_diversity'], False)} | {_cell(e['semantic_diversity'], False)} | "
            f"{_cell(e['average_urls'], False)} | {_cell(e['multi_url_rate'])} | "
            f"{_cell(e['length_compliance'])} |"
        )
    lines += [
        "",
        "## Time and cost per episode (p50 / p95 / mean)",
        "",
        "| variant | " + " | ".join(TIME_FIELDS) + " |",
        "|---|" + "---:|" * len(TIME_FIELDS),
    ]
    for variant, summary in results.items():
        cells = []
        for f in TIME_FIELDS:
            p = summary["time"][f]
            cells.append("–" if not p else f"{p['p50']:.1f} / {p['p95']:.1f} / {p['mean']:.1f}")
        lines.append(f"| {variant} | " + " | ".join(cells) + " |")
    lines += ["", "Tokens per note (every token of the run over the notes it produced):", ""]
    for variant, summary in results.items():
        t = summary.get("tokens") or {}
        per_note = t.get("per_note")
        abstention = t.get("per_abstention")
        lines.append(
            f"- {variant}: "
            + (f"{per_note:,.0f} over {t['notes']} notes" if per_note is not None else "no note")
            + (f"; an abstention {abstention:,.0f}" if abstention is not None else "")
        )
    return "\n".join(lines + _memory_study(results)) + "\n"


def _memory_study(results: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        "",
        "## Memory study",
        "",
        "By prior experience: whether a similar post (cosine of post embeddings) came earlier "
        "in the stream, and how long before.",
        "",
        "| variant | prior experience | posts | H | Win |",
        "|---|---|---:|---:|---:|",
    ]
    for variant, summary in results.items():
        for prior, q in summary.get("by_prior", {}).items():
            lines.append(
                f"| {variant} | {prior} | {q['posts']} | {_cell(q['helpful_rate'])} | "
                f"{_cell(q['win_rate'])} |"
            )
    lines += [
        "",
        "| variant | episodes | lessons added | merged | retired | in memory | per episode "
        "| retrieving % | lessons/episode | same pattern % | earlier stream % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for variant, summary in results.items():
        m, r = summary["memory"], summary["retrieval"]
        lines.append(
            f"| {variant} | {m['episodes']} | {m['lessons_added']} | {m['reinforced']} | "
            f"{m['retired']} | {m['memory_size']} | {_cell(m['items_per_episode'], False)} | "
            f"{_cell(r['episodes_retrieving'])} | {_cell(r['lessons_per_episode'], False)} | "
            f"{_cell(r['same_pattern_share'])} | {_cell(r['from_earlier_stream_share'])} |"
        )
    return lines


def tokens_per_outcome(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every token the run spent (prompt and completion, abstentions and failures included)
    over the notes it produced: what a note costs on a GPU or an API; and an abstention's own
    mean."""
    spent = [int(r.get("times", {}).get("tokens") or 0) for r in rows]
    notes = sum(r.get("status") == EpisodeStatus.NOTED for r in rows)
    abstentions = [
        int(r.get("times", {}).get("tokens") or 0)
        for r in rows
        if r.get("status") == EpisodeStatus.ABSTAINED
    ]
    return {
        "total": sum(spent),
        "notes": notes,
        "per_note": sum(spent) / notes if notes else None,
        "per_abstention": sum(abstentions) / len(abstentions) if abstentions else None,
    }
