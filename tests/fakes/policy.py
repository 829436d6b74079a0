"""The tests use the package's simulated model (see bot.simulator.model)."""

from bot.simulator.model import (
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
