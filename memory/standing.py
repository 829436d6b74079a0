"""What a lesson is and where it stands: plain enums, importable without the database layer
(the CLI builds its `--status` choices from them at start)."""

from __future__ import annotations

from enum import StrEnum


class LessonKind(StrEnum):
    """Routed by the judge's utility mode."""

    AVOID = "avoid"  # from Unsatisfactory episodes
    IMPROVE = "improve"  # from Satisfactory ones
    REUSE = "reuse"  # from Excellent ones


class LessonStatus(StrEnum):
    PROVISIONAL = "provisional"
    ACTIVE = "active"
    RETIRED = "retired"


class UtilityMode(StrEnum):
    UNSATISFACTORY = "Unsatisfactory"
    SATISFACTORY = "Satisfactory"
    EXCELLENT = "Excellent"


KIND_FOR_MODE = {
    UtilityMode.UNSATISFACTORY: LessonKind.AVOID,
    UtilityMode.SATISFACTORY: LessonKind.IMPROVE,
    UtilityMode.EXCELLENT: LessonKind.REUSE,
}
