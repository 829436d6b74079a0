"""The benchmark's PNG charts (matplotlib's object API: no pyplot, no display, no globals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

TIME_PARTS = ("search_s", "visit_s", "inference_s")


def win_rate_chart(results: dict[str, dict[str, Any]], path: Path) -> None:
    win_rate_figure(results).savefig(path, format="png")


def win_rate_figure(results: dict[str, dict[str, Any]]) -> Figure:
    figure = Figure(figsize=(6, 3.5), dpi=100)
    axes = figure.subplots()
    names = list(results)
    width = 0.38  # two bars side by side per variant, never on top of each other
    places = range(len(names))
    series = (
        ("win_rate", "win rate vs the human note", "#4c72b0", -1),
        ("helpful_rate", "helpful", "#55a868", 1),
    )
    for key, label, colour, side in series:
        axes.bar(
            [p + side * width / 2 for p in places],
            [100 * (results[n][key] or 0) for n in names],
            width=width,
            color=colour,
            label=label,
        )
    axes.set_xticks(list(places), names)
    axes.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylabel("% of posts")
    axes.set_ylim(0, 100)
    axes.set_title("Win rate and helpful rate by variant", fontsize=10)
    axes.legend(fontsize=8, loc="upper right")
    figure.tight_layout()
    return figure


def time_chart(results: dict[str, dict[str, Any]], path: Path) -> None:
    figure = Figure(figsize=(6, 3.5), dpi=100)
    axes = figure.subplots()
    names = list(results)
    bottom = [0.0] * len(names)
    for part in TIME_PARTS:
        means = [results[n]["time"][part].get("mean", 0.0) for n in names]
        axes.bar(names, means, bottom=bottom, label=part.removesuffix("_s"))
        bottom = [b + m for b, m in zip(bottom, means, strict=True)]
    axes.set_ylabel("mean seconds per episode")
    axes.set_title("Where an episode's time goes")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, format="png")


def memory_chart(ledgers: dict[str, list[dict[str, Any]]], path: Path) -> None:
    figure = Figure(figsize=(6, 3.5), dpi=100)
    axes = figure.subplots()
    for name, rows in ledgers.items():
        axes.plot(range(1, len(rows) + 1), [r.get("lessons_so_far", 0) for r in rows], label=name)
    axes.set_xlabel("posts processed (post-time order)")
    axes.set_ylabel("lessons learned")
    axes.set_title("Memory growth over the stream")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, format="png")


def write_charts(
    results: dict[str, dict[str, Any]], ledgers: dict[str, list[dict[str, Any]]], out: Path
) -> list[Path]:
    paths = [out / "win_rate.png", out / "time_breakdown.png", out / "memory_growth.png"]
    win_rate_chart(results, paths[0])
    time_chart(results, paths[1])
    memory_chart(ledgers, paths[2])
    return paths
