"""The lesson memory's two jobs: evolve it from the episodes' outcomes, and retire what nobody
uses. Each writes the memory's index back to disk, so a restart starts from it."""

from __future__ import annotations

from typing import Protocol


class Evolving(Protocol):
    """The evolve loop (`memory.evolve.Evolver`): judge, distil, merge into the memory."""

    async def run_once(self) -> object: ...


class KeptMemory(Protocol):
    """The lesson memory as its upkeep needs it (`memory.experience.ExperienceMemory`)."""

    async def retire_unused(self, actor: str) -> object: ...

    async def persist(self) -> None: ...


async def evolve(evolver: Evolving, memory: KeptMemory) -> None:
    await evolver.run_once()
    await memory.persist()


async def upkeep_memory(memory: KeptMemory) -> None:
    await memory.retire_unused("upkeep")
    await memory.persist()
