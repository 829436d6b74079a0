"""An episode runner over the in-process fakes: a fake model answering by a policy, a fake web,
no memory, a clock the test may hold."""

from __future__ import annotations

from typing import Any

from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from tests.fakes.ports import FakeChatModel, FakeClock, FakeWeb


def runner(
    policy: Any,
    web: FakeWeb,
    budget: EvidenceBudget | None = None,
    clock: FakeClock | None = None,
    seconds_per_call: float = 0.0,
    memory: Any = None,
) -> EpisodeRunner:
    clock = clock or FakeClock()
    return EpisodeRunner(
        model=FakeChatModel(policy, clock=clock, seconds_per_call=seconds_per_call),
        search=web,
        reader=web,
        memory=memory or NoMemory(),
        budget=budget or EvidenceBudget(),
        clock=clock,
    )
