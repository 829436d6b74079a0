"""Post links pasted in Slack: signed `link_shared` events into the Bolt app, the unfurls
against the mock Web API, the embed answered by respx."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import respx
from syrupy.assertion import SnapshotAssertion

from adapters.x.oembed import OEMBED_URL
from bot.slack.frontend import SlackFrontend
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import SECRET, interaction, signed, slack_frontend
from tests.fakes.x_links import EMBED, GONE_ID, LINK


@pytest.fixture
async def slack(
    app_env: ScriptedModelServer, slack_api: MockSlackApi, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[SlackFrontend]:
    monkeypatch.setenv("EVONOTE_SLACK__SIGNING_SECRET", SECRET)
    monkeypatch.setenv("EVONOTE_SLACK__CHANNELS", "C1,C2")
    monkeypatch.setenv("EVONOTE_SLACK__AUTO_DRAFT_CHANNELS", "C2")
    monkeypatch.setenv("EVONOTE_SLACK__PROGRESS_INTERVAL_S", "0")
    with respx.mock(assert_all_called=False) as web:
        web.get(OEMBED_URL, params={"url": f"https://x.com/i/status/{GONE_ID}"}).respond(404)
        web.get(OEMBED_URL).respond(200, json=EMBED)
        web.route(host="127.0.0.1").pass_through()
        async with slack_frontend(slack_api) as frontend:
            yield frontend


def link_shared(
    *links: str, channel: str = "C1", ts: str = "1.5", event_id: str = "Ev1", **extra: Any
) -> Any:
    event = {
        "type": "link_shared",
        "channel": channel,
        "user": "U1",
        "message_ts": ts,
        "unfurl_id": "UF1",
        "source": "conversations_history",
        "links": [{"domain": "x.com", "url": u} for u in links],
        **extra,
    }
    body = {"type": "event_callback", "team_id": "T1", "event_id": event_id, "event": event}
    return signed(json.dumps(body), "application/json")


def draft_click(url: str, channel: str = "C1", user: str = "U2") -> Any:
    return interaction(
        {
            "type": "block_actions",
            "user": {"id": user},
            "channel": {"id": channel},
            "container": {"type": "message_attachment", "message_ts": "1.5", "is_app_unfurl": True},
            "trigger_id": "trig",
            "actions": [{"action_id": "evonote_draft_link", "value": url, "type": "button"}],
        }
    )


async def dispatch(slack: SlackFrontend, request: Any) -> int:
    status = (await slack.app.async_dispatch(request)).status
    await slack.background.drain()
    return int(status)


async def test_a_pasted_post_link_is_previewed_with_a_draft_button(
    slack: SlackFrontend, slack_api: MockSlackApi, snapshot: SnapshotAssertion
) -> None:
    assert await dispatch(slack, link_shared(LINK, "https://www.cdc.gov/vaccines")) == 200
    [unfurl] = slack_api.called("chat.unfurl")
    assert unfurl == snapshot  # the whole chat.unfurl payload
    assert (unfurl["channel"], unfurl["ts"]) == ("C1", "1.5")
    assert list(unfurl["unfurls"]) == [LINK]  # not the page that is no post
    blocks = unfurl["unfurls"][LINK]["blocks"]
    text = json.dumps(blocks, ensure_ascii=False)
    assert "*Post by drexample*: “The measles vaccine causes autism &lt;!channel&gt;”" in text
    assert "second line" not in text  # the first line only
    [button] = blocks[-1]["elements"]
    assert (button["action_id"], button["value"]) == ("evonote_draft_link", LINK)
    assert await slack.desk.book.recent() == []  # nothing runs until someone asks


async def test_draft_a_note_runs_once_per_post_and_channel(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    assert await dispatch(slack, draft_click(LINK)) == 200
    # the same post, spelt another way
    assert await dispatch(slack, draft_click("https://twitter.com/drexample/status/1890?s=20"))
    [episode] = await slack.desk.book.recent()
    assert episode.post_ref == LINK and episode.status == "noted"
    [card] = slack_api.called("chat.postMessage")
    assert card["thread_ts"] == "1.5"  # in the thread of the pasted link
    [told] = slack_api.called("chat.postEphemeral")
    assert f"already asked for in this channel (episode {episode.id})" in told["text"]
    # the link pasted again: its preview is now the note, with no second draft
    await dispatch(slack, link_shared(LINK, ts="1.9", event_id="Ev2"))
    again = json.dumps(slack_api.called("chat.unfurl")[-1]["unfurls"][LINK]["blocks"])
    assert f"a note is drafted for this post (episode {episode.id})" in again
    assert "evonote_draft_link" not in again


async def test_in_an_auto_draft_channel_the_draft_starts_at_once(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    await dispatch(slack, link_shared(LINK, channel="C2"))
    await dispatch(slack, link_shared(LINK, channel="C2", ts="1.6", event_id="Ev2"))
    [episode] = await slack.desk.book.recent()
    assert episode.status == "noted"
    first = json.dumps(slack_api.called("chat.unfurl")[0]["unfurls"][LINK]["blocks"])
    assert "Drafting a note: the card follows in the thread" in first
    assert "evonote_draft_link" not in first
    assert [c["thread_ts"] for c in slack_api.called("chat.postMessage")] == ["1.5"]


@pytest.mark.parametrize(
    "request_for",
    [
        lambda: link_shared(LINK, channel="C9"),  # a channel not enabled
        lambda: link_shared("https://www.cdc.gov/vaccines"),  # no post
        lambda: link_shared("https://x.com/home"),  # a post site's page that is no post
        lambda: signed(
            json.dumps(
                {
                    "type": "event_callback",
                    "event_id": "E",
                    "event": {"type": "link_shared", "channel": "C1", "links": "x"},
                }
            ),
            "application/json",
        ),
    ],
    ids=["other-channel", "not-a-post", "post-site-not-a-post", "malformed"],
)
async def test_links_that_are_not_for_the_bot_get_no_preview(
    slack: SlackFrontend, slack_api: MockSlackApi, request_for: Any
) -> None:
    assert await dispatch(slack, request_for()) == 200
    assert slack_api.called("chat.unfurl") == []
    assert await slack.desk.book.recent() == []


async def test_a_post_that_cannot_be_read_says_why_in_its_preview(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    gone = f"https://twitter.com/someone/status/{GONE_ID}"
    await dispatch(slack, link_shared(gone))
    blocks = json.dumps(slack_api.called("chat.unfurl")[0]["unfurls"][gone]["blocks"])
    assert "cannot read this post" in blocks and "does not exist on X" in blocks
    assert "evonote_draft_link" not in blocks


async def test_a_link_in_a_message_being_written_is_previewed_without_a_draft(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    await dispatch(slack, link_shared(LINK, channel="COMPOSER", source="composer"))
    [unfurl] = slack_api.called("chat.unfurl")
    assert (unfurl["source"], unfurl["unfurl_id"]) == ("composer", "UF1")
    assert "evonote_draft_link" in json.dumps(unfurl["unfurls"])
    assert await slack.desk.book.recent() == []


async def test_a_draft_button_without_a_post_link_is_refused(
    slack: SlackFrontend, slack_api: MockSlackApi
) -> None:
    await dispatch(slack, draft_click("javascript:alert(1)"))
    await dispatch(slack, draft_click("https://www.cdc.gov/vaccines"))
    assert await slack.desk.book.recent() == []
    [told] = slack_api.called("chat.postEphemeral")
    assert told["text"] == "That button does not point at a post."
