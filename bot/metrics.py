"""Prometheus metrics and structured JSON logs for operators.

Counters and histograms are updated as episodes finish; gauges (queue depth, lessons by
status) are refreshed by a scheduled job, because reading the database belongs on the loop,
not in a scrape.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from pipeline.desk.episode import Episode, FailureKind
from pipeline.redact import redact
from pipeline.trajectory import EpisodeStatus

PHASE_BUCKETS = (0.5, 1, 2, 5, 10, 20, 30, 60, 90, 120, 180, 300)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.episodes = Counter(
            "evonote_episodes", "Episodes finished, by status", ["status"], registry=self.registry
        )
        self.failures = Counter(
            "evonote_failures",
            "Failed episodes, by kind of cause",
            ["kind"],
            registry=self.registry,
        )
        self.seconds = Histogram(
            "evonote_episode_seconds",
            "Episode time by phase",
            ["phase"],
            buckets=PHASE_BUCKETS,
            registry=self.registry,
        )
        self.tokens = Counter(
            "evonote_model_tokens",
            "Model tokens used by episodes",
            ["kind"],
            registry=self.registry,
        )
        self.queue = Gauge(
            "evonote_queue_depth", "Episodes queued or running", ["status"], registry=self.registry
        )
        self.admission = Gauge(
            "evonote_admission",
            "Episodes this process runs at once: the limit (AIMD on model latency), its "
            "ceiling, running now, waiting for a place",
            ["kind"],
            registry=self.registry,
        )
        self.lessons = Gauge(
            "evonote_memory_items",
            "Lessons in the experience memory",
            ["status"],
            registry=self.registry,
        )

    def observe(self, row: Episode) -> None:
        self.episodes.labels(row.status).inc()
        if row.status == EpisodeStatus.FAILED:
            self.failures.labels(row.failure_kind or FailureKind.INTERNAL).inc()
        for phase, value in (
            ("search", row.search_s),
            ("visit", row.visit_s),
            ("inference", row.inference_s),
            ("total", row.total_s),
        ):
            if value is not None:
                self.seconds.labels(phase).observe(value)
        self.tokens.labels("prompt").inc(row.prompt_tokens or 0)
        self.tokens.labels("completion").inc(row.completion_tokens or 0)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def app(self) -> web.Application:
        async def metrics(request: web.Request) -> web.Response:
            return web.Response(
                body=self.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
            )

        application = web.Application()
        application.router.add_get("/metrics", metrics)
        return application


class JsonFormatter(logging.Formatter):
    """One JSON object a line, with the episode id and any other `extra` fields."""

    STANDARD = frozenset(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(
            {k: v for k, v in vars(record).items() if k not in self.STANDARD and k != "message"}
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class RedactingFormatter(logging.Formatter):
    """Masks secrets in whatever another formatter writes (messages, arguments, tracebacks)."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


def configure_logging(fmt: str, level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(
        RedactingFormatter(
            JsonFormatter()
            if fmt == "json"
            else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
        )
    )
    handler.set_name("evonote")
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if h.get_name() != "evonote"] + [handler]
    root.setLevel(level)
    # Each attempt of a connection that fails is already one line of `serve`'s own; bm25s
    # sets its own logger to DEBUG.
    for chatty in ("slack_sdk.web.async_base_client", "bm25s"):
        logging.getLogger(chatty).setLevel(max(root.level, logging.WARNING))
