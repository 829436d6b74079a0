"""Metrics observed as episodes finish, and JSON logs with episode ids."""

from __future__ import annotations

import json
import logging

from adapters.sqlstore.tables import EpisodeRow
from bot.metrics import JsonFormatter, Metrics
from pipeline.desk.notes import failure_kind
from pipeline.errors import InvalidPostInput, ModelOutputInvalid, ModelTimeout, ModelUnavailable
from tests.fakes.model_server import ScriptedModelServer


def row(status: str, **values: object) -> EpisodeRow:
    return EpisodeRow(
        id=1, source="cli", requester="me", post_ref="p", post={}, status=status, **values
    )


def test_finished_episodes_are_counted_and_timed() -> None:
    metrics = Metrics()
    metrics.observe(
        row(
            "noted",
            search_s=0.4,
            visit_s=3.0,
            inference_s=8.0,
            total_s=12.5,
            prompt_tokens=900,
            completion_tokens=120,
        )
    )
    metrics.observe(
        row(
            "failed",
            failure_reason="cannot reach the model server at http://x",
            failure_kind="model_unavailable",
        )
    )
    text = metrics.exposition().decode()
    assert 'evonote_episodes_total{status="noted"} 1.0' in text
    assert 'evonote_failures_total{kind="model_unavailable"} 1.0' in text
    assert 'evonote_episode_seconds_count{phase="total"} 1.0' in text
    assert 'evonote_episode_seconds_bucket{le="20.0",phase="total"} 1.0' in text
    assert 'evonote_model_tokens_total{kind="prompt"} 900.0' in text


def test_failure_kinds_come_from_the_error() -> None:
    assert failure_kind(InvalidPostInput("the post is empty")) == "input"
    assert failure_kind(ModelOutputInvalid("no fit after a repair attempt")) == "model_output"
    assert failure_kind(ModelUnavailable("down")) == "model_unavailable"
    assert failure_kind(ModelTimeout("no answer within 60 s")) == "model_unavailable"
    assert failure_kind(RuntimeError("bug")) == "internal"


def test_json_logs_carry_the_episode_id() -> None:
    record = logging.makeLogRecord(
        {
            "name": "pipeline.desk.notes",
            "levelname": "INFO",
            "levelno": 20,
            "msg": "episode %s %s",
            "args": (7, "noted"),
            "episode_id": 7,
            "total_s": 12.5,
        }
    )
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "episode 7 noted"
    assert entry["episode_id"] == 7 and entry["total_s"] == 12.5
    assert entry["level"] == "INFO" and entry["logger"] == "pipeline.desk.notes"


async def test_the_admission_limit_and_why_are_on_the_metrics(
    app_env: ScriptedModelServer,
) -> None:
    from bot.app import build
    from bot.serve import refresh_gauges
    from bot.settings import Settings

    async with build(Settings()) as app:
        assert app.metrics is not None
        app.notes.gate.observe(120)  # a slow answer: the limit halves
        await refresh_gauges(app)
        text = app.metrics.exposition().decode()
    assert 'evonote_admission{kind="limit"} 16.0' in text
    assert 'evonote_admission{kind="ceiling"} 32.0' in text
    assert app.notes.gate.why.startswith("halved to 16: a model answer took 120 s")
