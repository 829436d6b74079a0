"""The Community Notes API loop: OAuth 1.0a, evaluate, submit after approval, status sync."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episode_feed import SqlEpisodeFeed
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import (
    CommunityNotesApi,
    NotesApiError,
    QuotaExceeded,
    RequestQuota,
)
from adapters.x.oauth import OAuth1Credentials, sign
from bot.cli import main
from bot.submit import NoteSubmitter, SubmissionRefused
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.trajectory import EpisodeOutcome
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeChatModel

API = "https://api.x.com"
CREDENTIALS = OAuth1Credentials("ck", "cs", "at", "ats")


def test_oauth_signature_matches_the_published_example() -> None:
    """X's own worked example of an OAuth 1.0a signature ("Creating a signature")."""
    credentials = OAuth1Credentials(
        "xvz1evFS4wEEPTGEFPHBog",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    )
    request = httpx.Request(
        "POST",
        "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
        content="status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    signed = sign(
        request,
        credentials,
        nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        timestamp="1318622958",
    )
    assert 'oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D"' in signed.headers["Authorization"]


@pytest.fixture
async def api() -> AsyncIterator[CommunityNotesApi]:
    async with httpx.AsyncClient() as client:
        yield CommunityNotesApi(client, CREDENTIALS, evaluate_path="/2/notes/evaluate")


@respx.mock
async def test_evaluate_and_submit(api: CommunityNotesApi) -> None:
    evaluate = respx.post(f"{API}/2/notes/evaluate").respond(
        200, json={"data": {"claim_opinion_score": 0.82}}
    )
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18000"}})
    assert await api.evaluate("1357", "Note text https://cdc.gov") == 0.82
    assert json.loads(evaluate.calls.last.request.content) == {
        "post_id": "1357",
        "note_text": "Note text https://cdc.gov",
    }
    assert evaluate.calls.last.request.headers["Authorization"].startswith("OAuth ")
    note = await api.submit(
        "1357",
        "Note",
        classification="misinformed_or_potentially_misleading",
        misleading_tags=["factual_error"],
        sources=True,
        test_mode=True,
    )
    assert note == "18000"
    assert json.loads(submit.calls.last.request.content) == {
        "test_mode": True,
        "post_id": "1357",
        "info": {
            "text": "Note",
            "classification": "misinformed_or_potentially_misleading",
            "trustworthy_sources": True,
            "misleading_tags": ["factual_error"],
        },
    }
    await api.submit(
        "2468",
        "Fine",
        classification="not_misleading",
        misleading_tags=[],
        sources=True,
        test_mode=True,
    )
    assert "misleading_tags" not in json.loads(submit.calls.last.request.content)["info"]


@respx.mock
async def test_notes_written_follows_pages(api: CommunityNotesApi) -> None:
    route = respx.get(f"{API}/2/notes/search/notes_written").mock(
        side_effect=[
            httpx.Response(
                200,
                json={
                    "data": [
                        {
                            "id": "1",
                            "info": {"post_id": "11"},
                            "status": "needs_more_ratings",
                            "test_result": {
                                "evaluation_outcome": [
                                    {
                                        "evaluator_type": "claim_opinion",
                                        "evaluator_score_bucket": "High",
                                    }
                                ]
                            },
                        }
                    ],
                    "meta": {"next_token": "p2", "result_count": 1},
                },
            ),
            httpx.Response(
                200,
                json={
                    "data": [{"id": "2", "status": "currently_rated_helpful"}],
                    "meta": {"result_count": 1},
                },
            ),
        ]
    )
    notes = await api.notes_written(test_mode=True)
    assert [(n.id, n.status) for n in notes] == [
        ("1", "needs_more_ratings"),
        ("2", "currently_rated_helpful"),
    ]
    assert notes[0].evaluations[0]["evaluator_score_bucket"] == "High"
    assert route.calls[1].request.url.params["pagination_token"] == "p2"
    assert route.calls[0].request.url.params["test_mode"] == "true"


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (403, {"title": "Forbidden", "detail": "client-not-enrolled: not enrolled"}, "enrolled"),
        (401, {"title": "Unauthorized"}, "EVONOTE_X__CONSUMER_KEY"),
        (429, {"title": "Too Many Requests"}, "rate limit"),
        (400, {"errors": [{"message": "Note text must contain a URL"}]}, "must contain a URL"),
    ],
)
@respx.mock
async def test_api_errors_are_named(
    api: CommunityNotesApi, status: int, body: dict[str, object], message: str
) -> None:
    respx.post(f"{API}/2/notes/evaluate").respond(status, json=body)
    with pytest.raises(NotesApiError, match=message):
        await api.evaluate("1", "t")


def test_quota_windows() -> None:
    quota = RequestQuota(requests=90, submissions=250)
    for i in range(90):
        quota.take("request", now=1000.0 + i)
    with pytest.raises(QuotaExceeded, match="request quota is used up"):
        quota.take("request", now=1100.0)
    assert quota.remaining("request", now=1000.0 + 15 * 60) == 1  # the first has expired
    for _ in range(250):
        quota.take("submission", now=5000.0)
    with pytest.raises(QuotaExceeded, match="submission quota"):
        quota.take("submission", now=5001.0)


async def noted_episode(store: EpisodeStore, post_id: str | None = "1357") -> int:
    row = await store.create(
        NoteRequest(post_ref="https://x.com/a/status/1357"),
        Post(text="Vaccines cause autism", post_id=post_id),
        "off",
    )
    assert row.id is not None
    await store.claim(row.id, "w", 60)
    await store.finish(
        row.id,
        EpisodeOutcome(
            status="noted",
            note="No link found. https://c.gov",
            urls=["https://c.gov"],
            char_count=16,
        ),
    )
    return row.id


@respx.mock
async def test_only_approved_notes_are_submitted_once(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    respx.post(f"{API}/2/notes/evaluate").respond(200, json={"data": {"claim_opinion_score": 0.4}})
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18000"}})
    store, submissions = EpisodeStore(engine), SubmissionStore(engine)
    submitter = NoteSubmitter(store, submissions, api, FakeChatModel(ResearchPolicy()))
    episode = await noted_episode(store)
    with pytest.raises(SubmissionRefused, match="not approved"):
        await submitter.submit(episode, "mod")
    assert not submit.called
    await store.approve(episode, "UMOD")
    row = await submitter.submit(episode, "mod")
    assert (row.note_id, row.claim_opinion_score, row.test_mode) == ("18000", 0.4, True)
    assert row.misleading_tags == ["factual_error", "missing_important_context"]
    with pytest.raises(SubmissionRefused, match="already has a note"):
        await submitter.submit(episode, "mod")
    not_x = await noted_episode(store, post_id=None)
    await store.approve(not_x, "UMOD")
    with pytest.raises(SubmissionRefused, match="not about a post on X"):
        await submitter.submit(not_x, "mod")


@respx.mock
async def test_processes_share_one_daily_submission_cap(
    engine: AsyncEngine, api: CommunityNotesApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A gateway and a worker are two submitters over one database: X's cap is the account's."""
    import bot.submit

    monkeypatch.setattr(bot.submit, "SUBMISSIONS_PER_DAY", 1)
    respx.post(f"{API}/2/notes/evaluate").respond(200, json={"data": {"claim_opinion_score": 0.9}})
    submit = respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18000"}})
    store = EpisodeStore(engine)
    gateway, worker = (
        NoteSubmitter(store, SubmissionStore(engine), api, FakeChatModel(ResearchPolicy()))
        for _ in range(2)
    )
    first, second = await noted_episode(store), await noted_episode(store, post_id="2468")
    for episode in (first, second):
        await store.approve(episode, "UMOD")
    await gateway.submit(first, "mod")
    with pytest.raises(SubmissionRefused, match="1 submissions a day are used up"):
        await worker.submit(second, "mod")
    assert submit.call_count == 1


@respx.mock
async def test_status_sync_sends_the_crowd_verdict_to_the_judge(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    respx.post(f"{API}/2/notes/evaluate").respond(200, json={"data": {"claim_opinion_score": 0.9}})
    respx.post(f"{API}/2/notes").respond(200, json={"data": {"id": "18000"}})
    store, submissions = EpisodeStore(engine), SubmissionStore(engine)
    submitter = NoteSubmitter(store, submissions, api, FakeChatModel(ResearchPolicy()))
    episode = await noted_episode(store)
    await store.approve(episode, "UMOD")
    await submitter.submit(episode, "mod")
    feed = SqlEpisodeFeed(engine)
    first = await feed.claim_unjudged(4)  # judged once, before any verdict
    assert first[0].crowd_verdict is None
    respx.get(f"{API}/2/notes/search/notes_written").respond(
        200, json={"data": [{"id": "18000", "status": "currently_rated_helpful"}], "meta": {}}
    )
    assert await submitter.sync() == 1
    assert await submitter.sync() == 0  # no change, nothing re-sent
    again = await feed.claim_unjudged(4)
    assert [e.id for e in again] == [episode]
    assert again[0].crowd_verdict == "currently_rated_helpful"
    history = (await submissions.all())[0].status_history
    assert [h["status"] for h in history] == ["currently_rated_helpful"]


def test_submitting_without_credentials_names_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["x", "submit", "1"]) == 2
    assert "EVONOTE_X__CONSUMER_KEY" in capsys.readouterr().err
