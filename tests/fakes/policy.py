"""The tests use the package's simulated model (see bot.bench.simulated_model)."""

from bot.bench.simulated_model import (
    DEFAULT_BRIEF,
    DEFAULTS,
    Policy,
    ResearchPolicy,
    ScriptedSteps,
    abstain,
    answer,
    page_notes,
    satisfactory,
    search,
    state_of,
    visit,
    write,
)

__all__ = [
    "DEFAULTS",
    "DEFAULT_BRIEF",
    "Policy",
    "ResearchPolicy",
    "ScriptedSteps",
    "abstain",
    "answer",
    "page_notes",
    "satisfactory",
    "search",
    "state_of",
    "visit",
    "write",
]
