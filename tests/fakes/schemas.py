"""Every schema a model answers, by name: what the schema tests and the real-model tests
walk."""

from __future__ import annotations

from pydantic import BaseModel

from bot.doctor import DoctorProbe
from memory.prompts import DISTIL_OUTPUT, JUDGE_OUTPUT
from pipeline.drafting.prompts import FOCUSED_OUTPUT, SUPPORT_OUTPUT
from pipeline.evaluation.prompts import GATE_OUTPUT, PAIRWISE_OUTPUT
from pipeline.forecast.prompts import RATER_OUTPUT
from pipeline.prompts import (
    AGENT_OUTPUT,
    ANALYSIS_OUTPUT,
    CLASSIFY_OUTPUT,
    FINAL_OUTPUT,
    HEALTH_FILTER_OUTPUT,
    PAGE_NOTES_OUTPUT,
    REVISE_OUTPUT,
)

SCHEMAS: list[type[BaseModel]] = [
    ANALYSIS_OUTPUT,
    AGENT_OUTPUT,
    FINAL_OUTPUT,
    PAGE_NOTES_OUTPUT,
    SUPPORT_OUTPUT,
    REVISE_OUTPUT,
    FOCUSED_OUTPUT,
    CLASSIFY_OUTPUT,
    HEALTH_FILTER_OUTPUT,
    RATER_OUTPUT,
    JUDGE_OUTPUT,
    DISTIL_OUTPUT,
    GATE_OUTPUT,
    PAIRWISE_OUTPUT,
    DoctorProbe,
]


IDS = [s.__name__ for s in SCHEMAS]
