"""Persona numbers. Prints; asserts nothing.

    python -m bench.personas [--ratings ../shared/data/birdwatch_2021/ratings-00000.tsv]

1. Factorisation time on the real 2021 ratings and on 1e6 synthetic ratings.
2. Forecast wall time for the 16 shipped personas against a model server that takes
   0.5 s per call (they run concurrently: ≈ one call, not one per persona).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import numpy as np

from adapters.community_notes_tsv import read_ratings
from adapters.openai_chat import OpenAIChatModel
from bot.app import openai_client
from bot.simulator.model import ResearchPolicy
from bot.simulator.server import SimulatedModelServer
from pipeline.forecast.factorisation import fit
from pipeline.forecast.panel import PersonaPanel
from pipeline.forecast.personas import PersonaSet
from pipeline.forecast.ratings import RatingsTable


def synthetic(m: int, raters: int, notes: int) -> RatingsTable:
    rng = np.random.default_rng(0)
    u, n = rng.integers(0, raters, m), rng.integers(0, notes, m)
    fu, fn = rng.normal(0, 0.7, raters), rng.normal(0, 0.4, notes)
    value = np.clip(np.round(0.6 + fu[u] * fn[n] + rng.normal(0, 0.3, m)), 0, 1)
    return RatingsTable(
        u,
        n,
        value,
        np.full(m, np.nan),
        np.zeros((m, 9)),
        np.zeros((m, 12)),
        [str(i) for i in range(raters)],
        [str(i) for i in range(notes)],
    )


def factorisation_numbers(ratings: Path) -> None:
    if ratings.is_file():
        table = read_ratings(ratings)
        started = time.perf_counter()
        model = fit(table)
        print(
            f"1. factorisation, {len(table):,} real ratings ({table.raters:,} raters, "
            f"{table.notes:,} notes): {time.perf_counter() - started:.2f} s, "
            f"{model.iterations} iterations"
        )
    table = synthetic(1_000_000, 50_000, 20_000)
    started = time.perf_counter()
    model = fit(table, max_iterations=500)
    print(
        f"   factorisation, 1,000,000 synthetic ratings (50,000 raters, 20,000 notes): "
        f"{time.perf_counter() - started:.1f} s, {model.iterations} iterations "
        f"({'converged' if model.converged else 'stopped at the iteration cap'})"
    )


async def forecast_numbers(delay_s: float) -> None:
    server = SimulatedModelServer(ResearchPolicy(), delay_s=delay_s).start()
    client = openai_client(server.base_url)
    panel = PersonaPanel(OpenAIChatModel(client, model="m"), PersonaSet.load())
    walls = []
    for _ in range(3):
        started = time.perf_counter()
        await panel.forecast(
            "The MMR vaccine causes autism.", "Large studies found no link. https://www.cdc.gov/x"
        )
        walls.append(time.perf_counter() - started)
    await client.close()
    server.stop()
    print(
        f"2. forecast with {len(panel.personas)} personas at {delay_s:.1f} s per call: "
        f"{min(walls):.2f}-{max(walls):.2f} s wall over 3 runs "
        f"({len(panel.personas) * delay_s:.1f} s if run one by one)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--ratings", type=Path, default=Path("../shared/data/birdwatch_2021/ratings-00000.tsv")
    )
    parser.add_argument("--delay", type=float, default=0.5)
    args = parser.parse_args()
    factorisation_numbers(args.ratings)
    asyncio.run(forecast_numbers(args.delay))


if __name__ == "__main__":
    main()
