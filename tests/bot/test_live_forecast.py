"""Live on X, after admission, the forecast decides: X's evaluator's score is recorded and
shown, never a gate (#60). Through the real `evonote x` commands, X's API mocked with respx."""

from __future__ import annotations

import asyncio
import json

import pytest
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import CommunityNotesApi
from bot.cli import main
from bot.settings import Settings
from pipeline.desk.send_order import SendPolicy
from tests.fakes.community_notes import API, desk, noted_episode
from tests.fakes.forecasts import net
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.resolver import PUBLIC, StubResolver

EVALUATE = f"{API}/2/evaluate_note"


def x_answers(score: float, status: str) -> respx.Route:
    """X's evaluator scores every note `score`; a submission gets note 18100, which
    `notes_written` then lists with `status`. The submit route is returned."""
    respx.post(EVALUATE).respond(200, json={"data": {"claim_opinion_score": score}})
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18100"}})
    respx.get(f"{API}/2/notes/search/notes_written").respond(
        200, json={"data": [{"id": "18100", "status": status}], "meta": {}}
    )
    return submit


async def approved_with_forecast(value: float) -> int:
    """In the configured database: an approved note on post 1357 whose persona forecast
    gives net helpful `value`."""
    from adapters.sqlstore.engine import make_engine, upgrade

    url = Settings().database_url
    await upgrade(url)
    engine = await asyncio.to_thread(make_engine, url)
    store = EpisodeStore(engine)
    episode = await noted_episode(store)
    await store.save_forecast(episode, net(value))
    await store.approve(episode, "UMOD")
    await engine.dispose()
    return episode


@pytest.fixture
def live_x(app_env: ScriptedModelServer, monkeypatch: pytest.MonkeyPatch) -> ScriptedModelServer:
    """`evonote` live on X (EVONOTE_X__TEST_MODE=false) with the Community Notes credentials;
    cited pages resolve to a public address that respx answers."""
    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "x")
    monkeypatch.setenv("EVONOTE_X__TEST_MODE", "false")
    resolver = StubResolver({"www.cdc.gov": [[PUBLIC]]})
    monkeypatch.setattr("adapters.web.address_guard.SystemResolver.resolve", resolver.resolve)
    return app_env


@respx.mock
def test_live_a_note_the_evaluator_scores_low_goes_by_its_forecast_and_counts_rated(
    live_x: ScriptedModelServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """X's evaluator scores the note 0.3 (under EVONOTE_X__MIN_CLAIM_OPINION's 0.7), its
    forecast is +0.6 (over EVONOTE_X__MIN_NET_HELPFUL's 0): live, it is sent; `x sync` then
    `x report` count it rated and helpful. The score is kept with the submission."""
    respx.route(host="127.0.0.1").pass_through()  # the scripted model server
    respx.get(host=PUBLIC).respond(200, text="<html><title>CDC</title></html>")
    submit = x_answers(0.3, "currently_rated_helpful")
    episode = asyncio.run(approved_with_forecast(0.6))
    assert main(["x", "submit", str(episode)]) == 0
    out = capsys.readouterr().out
    assert "as X note 18100 (live)" in out and "claim-opinion score 0.3" in out
    assert json.loads(submit.calls.last.request.content)["test_mode"] is False
    assert main(["x", "sync"]) == 0
    assert "1 submissions changed status" in capsys.readouterr().out
    assert main(["x", "report"]) == 0
    report = capsys.readouterr().out.splitlines()
    assert (
        report[0] == "Live notes on X: 1 sent, 100% rated, 100% of them helpful, net helpful +1.00"
    )


@respx.mock
async def test_live_the_forecast_holds_what_the_evaluator_would_pass(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """The other way round: the evaluator scores 0.95, the forecast −0.4 (no explore share):
    held by the forecast, never sent; the score is recorded once however often it is asked."""
    evaluate = respx.post(f"{API}/2/notes/evaluate").respond(
        200, json={"data": {"claim_opinion_score": 0.95}}
    )
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18101"}})
    store = EpisodeStore(engine)
    episode = await noted_episode(store)
    await store.save_forecast(episode, net(-0.4))
    await store.approve(episode, "UMOD")
    api.test_mode = False
    submitter = desk(engine, api, send_policy=SendPolicy(explore_share=0.0))
    for _ in range(2):  # pressed twice (or asked again after a restart)
        outcome = await submitter.submit(episode, "mod")
        assert outcome.kind == "held" and "net helpful -0.40" in outcome.message
    assert not submit.called and evaluate.call_count == 1
    (recorded,) = await SubmissionStore(engine).evaluations(episode)
    assert (recorded.claim_opinion_score, recorded.verdict) == (0.95, "recorded")
    from pipeline.desk.moderation import ModeratorDesk

    card = await ModeratorDesk(store, submitter).card(episode)
    assert card is not None and card.held
    assert card.evaluation == (
        "Held: the forecast gives it net helpful -0.40, under the bar of +0.00 "
        "(EVONOTE_X__MIN_NET_HELPFUL) · X's evaluator scores it 0.95 (recorded, not a gate)"
    )


@respx.mock
async def test_test_mode_keeps_the_evaluators_bar(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """In test mode (admission) the same 0.3 with a forecast of +0.6 is held by the bar."""
    respx.post(f"{API}/2/notes/evaluate").respond(200, json={"data": {"claim_opinion_score": 0.3}})
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18102"}})
    store = EpisodeStore(engine)
    episode = await noted_episode(store)
    await store.save_forecast(episode, net(0.6))
    await store.approve(episode, "UMOD")
    outcome = await desk(engine, api, max_revisions=0).submit(episode, "mod")
    assert outcome.kind == "held" and "EVONOTE_X__MIN_CLAIM_OPINION" in outcome.message
    assert not submit.called


@respx.mock
async def test_a_note_the_bar_held_in_test_mode_is_no_longer_held_live(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """Held by the evaluator's bar in test mode, then the writer is admitted and goes live:
    the card stops saying held, the note goes by its forecast, X is not asked to score it
    again."""
    from pipeline.desk.moderation import ModeratorDesk

    evaluate = respx.post(f"{API}/2/notes/evaluate").respond(
        200, json={"data": {"claim_opinion_score": 0.3}}
    )
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18103"}})
    store = EpisodeStore(engine)
    episode = await noted_episode(store)
    await store.save_forecast(episode, net(0.6))
    await store.approve(episode, "UMOD")
    held = await desk(engine, api, max_revisions=0).submit(episode, "mod")
    assert held.kind == "held"
    api.test_mode = False  # admitted: EVONOTE_X__TEST_MODE=false
    submitter = desk(engine, api, max_revisions=0)
    card = await ModeratorDesk(store, submitter).card(episode)
    assert card is not None and card.held  # what the store said before it went live
    sent = await submitter.submit(episode, "mod")
    assert sent.kind == "submitted" and submit.call_count == 1 and evaluate.call_count == 1
    card = await ModeratorDesk(store, submitter).card(episode)
    assert card is not None and not card.held
    assert sent.submission is not None and sent.submission.claim_opinion_score == 0.3
