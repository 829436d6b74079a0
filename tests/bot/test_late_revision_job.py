"""`serve` schedules the late revisions where notes go to X, with the episodes' own runner."""

from __future__ import annotations

import pytest

from bot.app import build
from bot.serve import scheduled_jobs
from bot.settings import Settings
from tests.fakes.model_server import ScriptedModelServer


async def test_serve_looks_again_at_notes_sent_only_where_they_are_sent(
    app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with build(Settings()) as app:
        assert "revise_sent_notes" not in [j.name for j in scheduled_jobs(app)]
    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "a-secret")
    async with build(Settings()) as app:
        (job,) = [j for j in scheduled_jobs(app) if j.name == "revise_sent_notes"]
        assert job.every_s == 600
        reviser = job.run.args[0]  # type: ignore[attr-defined]
        assert reviser.research is app.notes.runner
        assert [w.name for w in reviser.windows] == ["1 h", "3 h"]
    monkeypatch.setenv("EVONOTE_X__REVISE_AFTER_H", "[]")
    async with build(Settings()) as app:
        assert "revise_sent_notes" not in [j.name for j in scheduled_jobs(app)]
