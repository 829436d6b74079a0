"""The benchmark's PNG charts (matplotlib's object API: no pyplot, no display, no globals)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

TIME_PARTS = ("search_s", "visit_s", "inference_s")


def win_rate_chart(results: dict[str, dict[str, Any]], path: Path) -> None:
    figure = Figure(figsize=(6, 3.5), dpi=100)
    axes = figure.subplots()
    names = list(results)
    axes.bar(names, [100 * (results[n]["win_rate"] or 0) for n in names], color="#4c72b0")
    axes.bar(
        names,
        [100 * (results[n]["helpful_rate"] or 0) for n in names],
        color="#55a868",
        width=0.4,
    )
    axes.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylabel("% of posts")
    axes.set_ylim(0, 100)
    axes.set_title("Win vs human note (wide), helpful (narrow)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, format="png")


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
