"""The Slack app: signed requests dispatched into Bolt, a local mock of the Web API."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import build
from bot.settings import Settings
from bot.slack.blocks import MAX_BLOCKS, MAX_TEXT, card_blocks
from bot.slack.frontend import SlackFrontend
from pipeline.card import CardSource, NoteCard
from pipeline.request import NoteRequest
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.ports import OpenLinks
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import SECRET, button, command, interaction, signed, slack_frontend

POST = "The measles vaccine causes autism, skip the MMR shot"


@pytest.fixture
async def slack(
    app_env: ScriptedModelServer, slack_api: MockSlackApi, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[SlackFrontend]:
    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", SECRET)
    monkeypatch.setenv("EVONOTE_SLACK__MODERATORS", "SMODS")
    monkeypatch.setenv("EVONOTE_SLACK__CHANNELS", "C1,C2")
    monkeypatch.setenv("EVONOTE_SLACK__PROGRESS_INTERVAL_S", "0")
    async with slack_frontend(slack_api) as frontend:
        yield frontend


async def note_episode(slack: SlackFrontend, api: MockSlackApi) -> int:
    response = await slack.app.async_dispatch(command(POST))
    assert response.status == 200
    await slack.background.drain()
    rows = await slack.desk.book.recent(1)
    assert rows[0].status == "noted"
    return rows[0].id or 0


async def test_note_command_posts_a_card_then_the_result(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    started = time.perf_counter()
    response = await slack.app.async_dispatch(command(f"<https://x.com/a|x> {POST}"))
    assert response.status == 200
    assert time.perf_counter() - started < 3, "Slack needs an ack within 3 s"
    await slack.background.drain()
    posted = slack_api.called("chat.postMessage")
    assert len(posted) == 1
    assert "Checking this post" in json.dumps(posted[0]["blocks"], ensure_ascii=False)
    updates = slack_api.called("chat.update")
    final = json.dumps(updates[-1]["blocks"], ensure_ascii=False)
    assert "Proposed Community Note" in final
    assert "AI-drafted — needs human review" in final
    assert "[official]" in final
    assert "Rater forecast" in final
    assert '"up:' in final and "evonote_feedback" in final and "evonote_approve" in final
    progress = [json.dumps(u["blocks"], ensure_ascii=False) for u in updates[:-1]]
    assert any("Searching" in p for p in progress), "progress is shown while it runs"
    row = (await slack.desk.book.recent(1))[0]
    assert (row.source, row.reply_channel, row.requester) == ("slack", "C1", "U1")
    assert row.reply_message == updates[-1]["ts"]
    assert row.post_ref.startswith("https://x.com/a ")


async def test_bad_signatures_and_stale_requests_are_rejected(slack: SlackFrontend) -> None:
    body = urlencode({"command": "/note", "text": POST, "channel_id": "C1", "user_id": "U1"})
    forged = signed(body, "application/x-www-form-urlencoded", secret="wrong")
    assert (await slack.app.async_dispatch(forged)).status == 401
    stale = signed(body, "application/x-www-form-urlencoded", age_s=600)
    assert (await slack.app.async_dispatch(stale)).status == 401
    assert await slack.desk.book.recent() == []


async def test_a_retried_event_starts_no_second_episode(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    event = json.dumps(
        {
            "type": "event_callback",
            "team_id": "T1",
            "event_id": "Ev123",
            "event": {
                "type": "app_mention",
                "user": "U1",
                "channel": "C1",
                "ts": "1.2",
                "text": f"<@UBOT> {POST}",
            },
        }
    )
    assert (await slack.app.async_dispatch(signed(event, "application/json"))).status == 200
    await slack.background.drain()
    retry = signed(
        event,
        "application/json",
        extra={"x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout"},
    )
    assert (await slack.app.async_dispatch(retry)).status == 200
    await slack.background.drain()
    assert len(await slack.desk.book.recent()) == 1
    assert len(slack_api.called("chat.postMessage")) == 1
    assert slack_api.called("chat.postMessage")[0]["thread_ts"] == "1.2"


async def test_every_card_quotes_the_post_and_names_the_episode(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    await slack.app.async_dispatch(command("<!channel> " + POST + " <https://evil.example|x>"))
    await slack.background.drain()
    cards = [json.dumps(c["blocks"], ensure_ascii=False) for c in slack_api.called("chat.update")]
    first = slack_api.called("chat.postMessage")[0]["blocks"]
    cards.insert(0, json.dumps(first, ensure_ascii=False))
    assert all("(episode 1)" in c for c in cards)
    assert all("Post: “" in c for c in cards)
    assert not any("<!channel>" in c for c in cards)  # post text never pings a channel
    assert any("&lt;!channel&gt;" in c for c in cards)


async def test_the_running_card_is_kept_not_reread_on_every_progress_event(
    slack: SlackFrontend, slack_api: MockSlackApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = 0
    real_get = slack.desk.book.get

    async def counted(episode_id: int) -> object:
        nonlocal reads
        reads += 1
        return await real_get(episode_id)

    monkeypatch.setattr(slack.desk.book, "get", counted)
    await slack.app.async_dispatch(command(POST))
    await slack.background.drain()
    progress_edits = [
        c for c in slack_api.called("chat.update") if "Checking this post" in json.dumps(c)
    ]
    assert len(progress_edits) >= 4, len(progress_edits)  # the card moved through the phases…
    assert reads <= 5, reads  # …without reading the episode back for each of them


async def test_the_note_is_shown_before_its_forecast_arrives(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    await slack.app.async_dispatch(command(POST))
    await slack.background.drain()
    cards = [json.dumps(c["blocks"], ensure_ascii=False) for c in slack_api.called("chat.update")]
    first_note = next(i for i, c in enumerate(cards) if "Proposed Community Note" in c)
    assert "Rater forecast" not in cards[first_note]  # not held back by the persona calls
    assert "Rater forecast" in cards[-1] and first_note < len(cards) - 1  # then an edit


async def test_votes_count_once_and_show_on_the_card(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    episode = await note_episode(slack, slack_api)
    await slack.app.async_dispatch(button("evonote_vote_up", episode))
    await slack.app.async_dispatch(button("evonote_vote_up", episode))  # a double click
    votes = await slack.desk.book.votes(episode)
    assert [(v.user, v.vote) for v in votes] == [("U1", 1)]
    assert "already voted" in slack_api.called("chat.postEphemeral")[-1]["text"]
    assert ":+1: 1" in json.dumps(slack_api.called("chat.update")[-1]["blocks"], ensure_ascii=False)
    # changing one's mind: the latest vote counts
    reason = interaction(
        {
            "type": "view_submission",
            "user": {"id": "U1"},
            "view": {
                "type": "modal",
                "callback_id": "evonote_vote_reason",
                "private_metadata": json.dumps(
                    {"episode": episode, "channel": "C1", "ts": "1700000001.000100"}
                ),
                "state": {
                    "values": {"reason": {"text": {"type": "plain_text_input", "value": "x"}}}
                },
            },
        }
    )
    assert (await slack.app.async_dispatch(reason)).status == 200
    assert [(v.user, v.vote) for v in await slack.desk.book.votes(episode)] == [("U1", -1)]


def feedback(value: str, user: str = "U1") -> AsyncBoltRequest:
    """A click on the card's feedback buttons (context actions block), as Slack sends it."""
    return interaction(
        {
            "type": "block_actions",
            "team": {"id": "T1"},
            "user": {"id": user},
            "channel": {"id": "C1"},
            "trigger_id": f"trig-feedback-{user}",
            "message": {"ts": "1700000001.000100"},
            "container": {"message_ts": "1700000001.000100"},
            "actions": [
                {
                    "action_id": "evonote_feedback",
                    "block_id": "evonote_feedback_1",
                    "type": "feedback_buttons",
                    "value": value,
                    "action_ts": str(time.time()),
                }
            ],
        }
    )


async def test_the_feedback_buttons_vote_for_their_episode(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    """👍 records a vote at once, 👎 asks for the reason; a value without its direction or
    episode is refused and told."""
    episode = await note_episode(slack, slack_api)
    await slack.app.async_dispatch(feedback(f"up:{episode}"))
    assert [(v.user, v.vote) for v in await slack.desk.book.votes(episode)] == [("U1", 1)]
    await slack.app.async_dispatch(feedback(f"down:{episode}", user="U2"))
    assert slack_api.called("views.open")[-1]["view"]["callback_id"] == "evonote_vote_reason"
    await slack.app.async_dispatch(feedback(f"sideways:{episode}", user="U3"))
    assert slack_api.called("chat.postEphemeral")[-1]["text"] == (
        "That button does not point at a note."
    )
    assert len(await slack.desk.book.votes(episode)) == 1


async def test_a_down_vote_asks_for_the_reason(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    episode = await note_episode(slack, slack_api)
    await slack.app.async_dispatch(button("evonote_vote_down", episode, user="U2"))
    modal = slack_api.called("views.open")[-1]["view"]
    assert modal["callback_id"] == "evonote_vote_reason"
    submission = {
        "type": "view_submission",
        "team": {"id": "T1"},
        "user": {"id": "U2"},
        "view": {
            "id": "V1",
            "type": "modal",
            "callback_id": "evonote_vote_reason",
            "private_metadata": modal["private_metadata"],
            "state": {
                "values": {
                    "reason": {"text": {"type": "plain_text_input", "value": "cites a weak source"}}
                }
            },
        },
    }
    assert (await slack.app.async_dispatch(interaction(submission))).status == 200
    votes = await slack.desk.book.votes(episode)
    assert [(v.user, v.vote, v.reason) for v in votes] == [("U2", -1, "cites a weak source")]


async def test_only_moderators_approve(slack: SlackFrontend, slack_api: MockSlackApi) -> None:
    episode = await note_episode(slack, slack_api)
    await slack.app.async_dispatch(button("evonote_approve", episode, user="U1"))
    assert "Only moderators" in slack_api.called("chat.postEphemeral")[-1]["text"]
    row = await slack.desk.book.get(episode)
    assert row is not None and row.approved_by is None
    await slack.app.async_dispatch(button("evonote_approve", episode, user="UMOD"))
    row = await slack.desk.book.get(episode)
    assert row is not None and row.approved_by == "UMOD"
    final = json.dumps(slack_api.called("chat.update")[-1]["blocks"], ensure_ascii=False)
    assert "Approved by <@UMOD>" in final and "evonote_approve" not in final


async def test_show_evidence_and_regenerate(slack: SlackFrontend, slack_api: MockSlackApi) -> None:
    episode = await note_episode(slack, slack_api)
    await slack.app.async_dispatch(button("evonote_show_evidence", episode))
    evidence = json.dumps(slack_api.called("chat.postEphemeral")[-1]["blocks"], ensure_ascii=False)
    assert "no link between the MMR vaccine and autism" in evidence
    await slack.app.async_dispatch(button("evonote_regenerate", episode))
    await slack.app.async_dispatch(button("evonote_regenerate", episode))  # double click
    await slack.background.drain()
    assert len(await slack.desk.book.recent()) == 2


async def test_buttons_of_a_missing_episode_say_so(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    for action in ("evonote_show_evidence", "evonote_regenerate"):
        await slack.app.async_dispatch(button(action, 987654))
        assert slack_api.called("chat.postEphemeral")[-1]["text"] == (
            "Episode 987654 no longer exists."
        )
    await slack.background.drain()
    assert await slack.desk.book.recent() == []


async def test_bad_input_and_unknown_channels(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    response = await slack.app.async_dispatch(command(""))
    assert "Give a post to check" in str(response.body)
    response = await slack.app.async_dispatch(command(POST, channel="C9"))
    assert "not enabled in this channel" in str(response.body)
    await slack.app.async_dispatch(command("https://www.tiktok.com/@a/video/1", trigger="T-2"))
    await slack.background.drain()
    card = json.dumps(slack_api.called("chat.postMessage")[-1]["blocks"], ensure_ascii=False)
    assert "could not be checked" in card and "unsupported site" in card and "Retry" in card
    assert (await slack.desk.book.recent(1))[0].status == "failed"
    shortcut = {
        "type": "message_action",
        "callback_id": "draft_note",
        "team": {"id": "T1"},
        "user": {"id": "U1"},
        "channel": {"id": "C1"},
        "trigger_id": "t",
        "message": {"ts": "5.5", "text": ""},
    }
    await slack.app.async_dispatch(interaction(shortcut))
    assert "no text or link" in slack_api.called("chat.postEphemeral")[-1]["text"]


async def test_model_server_down_shows_a_retry(
    slack: SlackFrontend, slack_api: MockSlackApi, app_env: ScriptedModelServer
) -> None:
    await asyncio.to_thread(app_env.stop)
    await slack.app.async_dispatch(command(POST))
    await slack.background.drain()
    card = json.dumps(slack_api.called("chat.update")[-1]["blocks"], ensure_ascii=False)
    assert "cannot reach the model server" in card and "Retry" in card
    assert (await slack.desk.book.recent(1))[0].status == "failed"


def test_cards_stay_within_slack_limits() -> None:
    card = NoteCard(
        episode_id=7,
        status="noted",
        note="x" * 5000,
        char_count=280,
        sources=[
            CardSource(
                url=f"https://s{i}.org",
                title="t" * 400,
                tier=4,
                tier_name="official",
                quotes=["q" * 2000],
            )
            for i in range(60)
        ],
        top_gaps=["g" * 1000] * 6,
        claim_pattern="vaccine risk",
        forecast="f" * 4000,
        voters=[f"U{i}" for i in range(200)],
        votes_up=200,
    )
    blocks = card_blocks(card)
    assert len(blocks) <= MAX_BLOCKS
    for block in blocks:
        texts = [block.get("text", {}).get("text", "")] + [
            e.get("text", "") for e in block.get("elements", []) if isinstance(e.get("text"), str)
        ]
        assert all(len(t) <= MAX_TEXT for t in texts)


async def test_serve_answers_slack_over_http(
    app_env: ScriptedModelServer,
    slack_api: MockSlackApi,
    network_guard: NetworkGuard,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`evonote serve` in HTTP mode: POST /slack/events, signature-checked by Bolt."""
    import asyncio
    import socket

    import aiohttp

    from bot.serve import serve

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    network_guard.allow(port)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        metrics_port = s.getsockname()[1]
    network_guard.allow(metrics_port)
    for name, value in {
        "EVONOTE_SLACK__MODE": "http",
        "EVONOTE_SLACK__PORT": str(port),
        "EVONOTE_SLACK__BOT_TOKEN": "xoxb-test",
        "EVONOTE_SLACK__SIGNING_SECRET": SECRET,
        "EVONOTE_SLACK__API_URL": f"http://127.0.0.1:{slack_api.port}/api/",
        "EVONOTE_MEMORY__EVOLVE_EVERY_S": "3600",
        "EVONOTE_OPS__METRICS_PORT": str(metrics_port),
    }.items():
        monkeypatch.setenv(name, value)
    ready = asyncio.Event()
    task = asyncio.create_task(serve(Settings(), ready))
    await asyncio.wait_for(ready.wait(), 30)
    try:
        body = json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"})
        request = signed(body, "application/json")
        headers = {k: v[0] for k, v in request.headers.items()}
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/slack/events"
            async with http.post(url, data=body, headers=headers) as response:
                assert response.status == 200
                assert "c-123" in await response.text()
            headers["x-slack-signature"] = "v0=forged"
            async with http.post(url, data=body, headers=headers) as response:
                assert response.status == 401
            metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
            async with http.get(metrics_url) as response:
                assert response.status == 200
                exposition = await response.text()
                assert 'evonote_queue_depth{status="queued"} 0.0' in exposition
                assert "evonote_episode_seconds" in exposition
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


@pytest.mark.parametrize("live", [False, True], ids=["test-mode", "live"])
async def test_a_moderator_submits_an_approved_note_to_x(
    app_env: ScriptedModelServer,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    live: bool,
) -> None:
    """Chat's Submit to X honours EVONOTE_X__TEST_MODE, as the CLI does."""
    import respx

    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "secret-" + name.lower())
    monkeypatch.setenv("EVONOTE_X__TEST_MODE", "false" if live else "true")
    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", SECRET)
    monkeypatch.setenv("EVONOTE_SLACK__MODERATORS", "UMOD")
    monkeypatch.setenv("EVONOTE_SLACK__PROGRESS_INTERVAL_S", "0")
    post = tmp_path / "post.json"
    post.write_text(
        json.dumps({"text": POST, "post_id": "1357", "url": "https://x.com/a/status/1357"})
    )
    settings = Settings()
    async with build(settings) as app:
        assert app.submitter is not None
        app.submitter.links = OpenLinks()  # the corpus's sources, as if they answered 200
        client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
        slack = SlackFrontend(
            app.cards,
            settings.slack,
            client,
            process_before_response=True,
        )
        # An operator queues the post from its file (chat cannot name files); Slack shows it.
        queued = await app.notes.enqueue(NoteRequest(post_ref=f"@{post}", post_file=str(post)))
        episode = queued.id or 0
        await slack.follow(episode, "C1")
        before = json.dumps(slack_api.called("chat.update")[-1]["blocks"])
        assert "evonote_submit" not in before  # not approved yet
        await slack.app.async_dispatch(button("evonote_approve", episode, user="UMOD"))
        assert "evonote_submit" in json.dumps(slack_api.called("chat.update")[-1]["blocks"])
        await slack.app.async_dispatch(button("evonote_submit", episode, user="U1"))
        assert "Only moderators" in slack_api.called("chat.postEphemeral")[-1]["text"]
        with respx.mock(assert_all_called=True) as x:
            x.post("https://api.x.com/2/evaluate_note").respond(
                200, json={"data": {"claim_opinion_score": 0.71}}
            )
            notes = x.post("https://api.x.com/2/notes").respond(200, json={"data": {"id": "18000"}})
            await slack.app.async_dispatch(button("evonote_submit", episode, user="UMOD"))
        assert json.loads(notes.calls[0].request.content)["test_mode"] is not live
        final = json.dumps(slack_api.called("chat.update")[-1]["blocks"])
        mode = "live" if live else "test mode"
        assert f"Submitted to X as note 18000 ({mode})" in final
        assert "evonote_submit" not in final
        told = slack_api.called("chat.postEphemeral")[-1]["text"]
        assert told == f"Submitted to X as note 18000 ({mode})."


FORM = "application/x-www-form-urlencoded"


def _click(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "block_actions",
        "team": {"id": "T1"},
        "user": {"id": "U1"},
        "channel": {"id": "C1"},
        "trigger_id": "trig",
        "message": {"ts": "1700000001.000100"},
        "actions": [{"action_id": "evonote_vote_up", "value": "1", "type": "button"}],
    }
    body.update(overrides)
    return {k: v for k, v in body.items() if v is not None}


def _action(action_id: str, value: str) -> dict[str, Any]:
    return _click(actions=[{"action_id": action_id, "value": value, "type": "button"}])


def _payload(body: dict[str, Any] | str) -> str:
    return urlencode({"payload": body if isinstance(body, str) else json.dumps(body)})


def _modal(metadata: str, values: dict[str, Any]) -> str:
    return _payload(
        {
            "type": "view_submission",
            "user": {"id": "U1"},
            "view": {
                "type": "modal",
                "callback_id": "evonote_vote_reason",
                "private_metadata": metadata,
                "state": {"values": values},
            },
        }
    )


# (case, body, content type, timestamp header or None for now)
MALFORMED: list[tuple[str, str, str, str | None]] = [
    ("payload is not JSON", _payload("{not json"), FORM, None),
    ("payload is a list", _payload("[1]"), FORM, None),
    ("payload is a string", _payload('"hello"'), FORM, None),
    ("body is not JSON", "{oops", "application/json", None),
    ("timestamp is not a number", urlencode({"command": "/note", "text": "x"}), FORM, "soon"),
    (
        "command without channel",
        urlencode({"command": "/note", "text": POST, "user_id": "U1"}),
        FORM,
        None,
    ),
    (
        "command without user",
        urlencode({"command": "/note", "text": POST, "channel_id": "C1"}),
        FORM,
        None,
    ),
    ("button value is not an id", _payload(_action("evonote_vote_up", "abc")), FORM, None),
    ("button value is empty", _payload(_action("evonote_approve", "")), FORM, None),
    ("button value is huge", _payload(_action("evonote_show_evidence", "9" * 30)), FORM, None),
    ("button value is negative", _payload(_action("evonote_regenerate", "-4")), FORM, None),
    ("button without actions", _payload(_click(actions=[])), FORM, None),
    ("button without channel", _payload(_click(channel=None)), FORM, None),
    ("button without user", _payload(_click(user=None)), FORM, None),
    ("button without message", _payload(_click(message=None)), FORM, None),
    (
        "down vote without trigger",
        _payload({**_action("evonote_vote_down", "1"), "trigger_id": None}),
        FORM,
        None,
    ),
    ("modal with non-JSON metadata", _modal("{oops", {}), FORM, None),
    (
        "view without a type",
        _payload({"type": "view_submission", "user": {"id": "U1"}, "view": {"id": "V1"}}),
        FORM,
        None,
    ),
    (  # Bolt's own argument injection raised KeyError on it: a traceback and a 500
        "our view without a type",
        _payload(
            {
                "type": "view_submission",
                "user": {"id": "U1"},
                "view": {"id": "V1", "callback_id": "evonote_vote_reason"},
            }
        ),
        FORM,
        None,
    ),
    ("modal metadata without episode", _modal(json.dumps({"channel": "C1"}), {}), FORM, None),
    (
        "modal metadata with text id",
        _modal(json.dumps({"episode": "x", "channel": "C1", "ts": "1"}), {}),
        FORM,
        None,
    ),
    (
        "shortcut without channel",
        _payload({"type": "message_action", "callback_id": "draft_note", "user": {"id": "U1"}}),
        FORM,
        None,
    ),
    (
        "mention without channel",
        json.dumps(
            {
                "type": "event_callback",
                "team_id": "T1",
                "event_id": "Ev1",
                "event": {"type": "app_mention", "text": "<@UBOT> hi", "user": "U1"},
            }
        ),
        "application/json",
        None,
    ),
    ("payload nested 5,000 deep", _payload("[" * 5_000 + "]" * 5_000), FORM, None),
    ("body nested 100,000 deep", '{"a":' * 100_000 + "1" + "}" * 100_000, "application/json", None),
]


ANSWERED_POLITELY = {
    c
    for c, *_ in MALFORMED
    if c.startswith(("command", "button value", "button without", "down vote", "modal", "shortcut"))
    or c == "mention without channel"
} - {"button without actions"}


@pytest.fixture
async def slack_http(
    slack: SlackFrontend, network_guard: NetworkGuard
) -> AsyncIterator[tuple[SlackFrontend, str]]:
    """The Slack front end behind the same aiohttp endpoint `evonote serve` runs."""
    from aiohttp.test_utils import TestServer

    from bot.front_ends.slack_platform import slack_http_app

    server = TestServer(slack_http_app(slack), host="127.0.0.1")
    await server.start_server()
    assert server.port is not None
    network_guard.allow(server.port)
    yield slack, f"http://127.0.0.1:{server.port}/slack/events"
    await server.close()


@pytest.mark.parametrize(
    ("case", "body", "content_type", "ts"), MALFORMED, ids=[c[0] for c in MALFORMED]
)
async def test_malformed_signed_requests_get_a_4xx_or_a_polite_reply(
    slack_http: tuple[SlackFrontend, str],
    slack_api: MockSlackApi,
    case: str,
    body: str,
    content_type: str,
    ts: str | None,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import aiohttp

    slack, url = slack_http
    stamp = ts or str(int(time.time()))
    signature = (
        "v0=" + hmac.new(SECRET.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256).hexdigest()
    )
    headers = {
        "content-type": content_type,
        "x-slack-request-timestamp": stamp,
        "x-slack-signature": signature,
    }
    async with aiohttp.ClientSession() as http, http.post(url, data=body, headers=headers) as r:
        status = r.status
        await r.text()
    await slack.background.drain()
    # Bolt cannot read some (400, or 404 for no route); our listeners answer the rest (200)
    assert status == 200 if case in ANSWERED_POLITELY else status in (400, 404), (case, status)
    assert await slack.desk.book.recent(5) == []  # nothing was started from a broken request
    assert not slack.background.failures  # nothing raised after the ack either
    assert not [r for r in caplog.records if r.exc_info], case  # and no traceback logged


async def test_note_with_a_path_never_opens_the_file(
    slack: SlackFrontend, slack_api: MockSlackApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/note @<path>` is a mention, never a file: no open() of any path happens."""
    secret = tmp_path / "post.json"
    secret.write_text(json.dumps({"text": "SECRET FILE CONTENT"}), encoding="utf-8")
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    for ref in (f"@{secret}", "@/dev/zero", "@/etc/passwd"):
        response = await slack.app.async_dispatch(command(ref, trigger=f"T-{ref}"))
        assert response.status == 200
    await slack.background.drain()
    assert not any(str(secret) in p or p in ("/dev/zero", "/etc/passwd") for p in opened)
    rows = await slack.desk.book.recent(5)
    assert len(rows) == 3 and all(r.status == "failed" for r in rows)
    assert all("is a mention, not a post" in (r.failure_reason or "") for r in rows)
    assert all("SECRET" not in r.post.model_dump_json() for r in rows)
    cards = slack_api.called("chat.postMessage")
    assert any("is a mention, not a post" in json.dumps(c) for c in cards)


async def test_moderators_curate_lessons_in_the_app_home(
    app_env: ScriptedModelServer, slack_api: MockSlackApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory.curation import LessonDesk
    from memory.models import LessonKind, LessonStatus, MemoryItem
    from pipeline.ports import MemoryPhase

    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", SECRET)
    monkeypatch.setenv("EVONOTE_SLACK__MODERATORS", "SMODS")
    settings = Settings()
    async with build(settings) as app:
        assert app.memory is not None
        lesson, _ = await app.memory.add_or_reinforce(
            MemoryItem(
                phase=MemoryPhase.EVIDENCE_ACQUISITION,
                kind=LessonKind.IMPROVE,
                trigger="posts claiming fluoride lowers IQ",
                strategy="read the dental association's review before single studies",
                source_episodes=[4],
            ),
            "t",
        )
        client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
        slack = SlackFrontend(
            app.cards,
            settings.slack,
            client,
            process_before_response=True,
            lessons=LessonDesk(app.memory),
        )

        def home_opened(user: str) -> AsyncBoltRequest:
            event = {"type": "app_home_opened", "user": user, "tab": "home", "channel": "D1"}
            body = {
                "type": "event_callback",
                "team_id": "T1",
                "event_id": f"E-{user}",
                "event": event,
            }
            return signed(json.dumps(body), "application/json")

        def lesson_button(user: str, action: str) -> AsyncBoltRequest:
            return interaction(
                {
                    "type": "block_actions",
                    "user": {"id": user},
                    "trigger_id": "t",
                    "view": {"type": "home"},
                    "actions": [
                        {
                            "action_id": f"evonote_lesson_{action}",
                            "value": str(lesson.id),
                            "type": "button",
                        }
                    ],
                }
            )

        assert (await slack.app.async_dispatch(home_opened("U1"))).status == 200
        home = json.dumps(slack_api.called("views.publish")[-1]["view"], ensure_ascii=False)
        assert "posts claiming fluoride lowers IQ" in home and "Awaiting approval" in home
        assert "from episodes #4" in home
        assert "evonote_lesson_approve" not in home  # not a moderator: no buttons

        await slack.app.async_dispatch(lesson_button("U1", "approve"))
        unchanged = await app.memory.store.get(lesson.id or 0)
        assert unchanged is not None and unchanged.status == LessonStatus.PROVISIONAL

        assert (await slack.app.async_dispatch(home_opened("UMOD"))).status == 200
        assert "evonote_lesson_approve" in json.dumps(slack_api.called("views.publish")[-1])
        await slack.app.async_dispatch(lesson_button("UMOD", "approve"))
        approved = await app.memory.store.get(lesson.id or 0)
        assert approved is not None and approved.status == LessonStatus.ACTIVE
        await slack.app.async_dispatch(lesson_button("UMOD", "retire"))
        retired = await app.memory.store.get(lesson.id or 0)
        assert retired is not None and retired.status == LessonStatus.RETIRED
        assert "slack moderator UMOD" in (retired.why_retired or "")
        assert [a.actor for a in await app.memory.store.audit(lesson.id or 0)][-2:] == [
            "slack:UMOD",
            "slack:UMOD",
        ]


async def test_approving_reads_the_moderator_group_again_at_once(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    """Votes may use the group as read within the TTL; Approve and Submit publish, so a user
    removed from the group cannot approve even a second after the group was read."""
    await slack.app.async_dispatch(command("The MMR vaccine causes autism."))
    await slack.background.drain()
    [episode] = await slack.desk.book.recent()
    await slack.app.async_dispatch(button("evonote_vote_up", episode.id, user="UMOD"))
    assert await slack.moderators.is_moderator("UMOD")  # the group, read for the vote
    slack_api.group_members["SMODS"] = []  # an admin removes UMOD from the group
    await slack.app.async_dispatch(button("evonote_approve", episode.id, user="UMOD"))
    await slack.background.drain()
    assert (await slack.desk.episode(episode.id)).approved_by is None  # type: ignore[union-attr]
    told = slack_api.called("chat.postEphemeral")[-1]["text"]
    assert told.startswith("Only moderators can approve notes")


async def test_the_home_tab_shows_the_standing_with_x(
    app_env: ScriptedModelServer, slack_api: MockSlackApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With submitting set, the App Home opens on admission and the writing limit."""
    for name in ("CONSUMER_KEY", "CONSUMER_SECRET", "ACCESS_TOKEN", "ACCESS_TOKEN_SECRET"):
        monkeypatch.setenv(f"EVONOTE_X__{name}", "secret-" + name.lower())
    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", SECRET)
    settings = Settings()
    async with build(settings) as app:
        client = AsyncWebClient(token="x", base_url=f"http://127.0.0.1:{slack_api.port}/api/")
        slack = SlackFrontend(app.cards, settings.slack, client, process_before_response=True)
        event = {"type": "app_home_opened", "user": "U1", "tab": "home", "channel": "D1"}
        body = {"type": "event_callback", "team_id": "T1", "event_id": "E-1", "event": event}
        await slack.app.async_dispatch(signed(json.dumps(body), "application/json"))
    blocks = slack_api.called("views.publish")[-1]["view"]["blocks"]
    assert blocks[0]["text"]["text"] == "EvoNote on X"
    shown = json.dumps(blocks, ensure_ascii=False)
    assert "Admission (last 0 of 50 test notes): not yet" in shown
    assert "Writing limit: 0 of 10 live notes written today" in shown
