"""The gauges an operator scrapes (queue depth, admission, lessons by status), read from the
database by a job: reading it belongs on the loop, not in a scrape."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from memory.models import LessonStatus
from pipeline.trajectory import EpisodeStatus


class GaugeValue(Protocol):
    def set(self, value: float) -> None: ...


class Gauge(Protocol):
    def labels(self, *labelvalues: str) -> GaugeValue: ...


class Gauges(Protocol):
    """The process's Prometheus gauges (`bot.metrics.Metrics`)."""

    @property
    def queue(self) -> Gauge: ...

    @property
    def admission(self) -> Gauge: ...

    @property
    def lessons(self) -> Gauge: ...


class EpisodeCounts(Protocol):
    async def count_by_status(self) -> Mapping[str, int]: ...


class Admission(Protocol):
    """The admission gate's figures (`pipeline.desk.admission.AdmissionGate`)."""

    @property
    def limit(self) -> int: ...

    @property
    def ceiling(self) -> int: ...

    @property
    def active(self) -> int: ...

    @property
    def waiting(self) -> int: ...


class Lesson(Protocol):
    @property
    def status(self) -> LessonStatus: ...


class Lessons(Protocol):
    async def items(self) -> Sequence[Lesson]: ...


async def refresh_gauges(
    gauges: Gauges, episodes: EpisodeCounts, gate: Admission, lessons: Lessons | None
) -> None:
    """Queue depth, admission and lessons by status (`lessons` None: the memory is off)."""
    counts = await episodes.count_by_status()
    for waiting in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        gauges.queue.labels(waiting.value).set(counts.get(waiting, 0))
    for kind, value in (
        ("limit", gate.limit),
        ("ceiling", gate.ceiling),
        ("running", gate.active),
        ("waiting", gate.waiting),
    ):
        gauges.admission.labels(kind).set(value)
    if lessons is not None:
        items = await lessons.items()
        for status in LessonStatus:
            gauges.lessons.labels(status.value).set(sum(1 for i in items if i.status == status))
