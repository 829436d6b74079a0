"""Slack: moderators paste a post, watch it being checked, vote, and approve.

A translator only: a Slack event → who and which episode → a call to the note service or
the desk → blocks. Every listener acknowledges first (Slack allows 3 s), then does the slow
part in a task the frontend keeps track of. A request is persisted as a queued episode before
the model is called; its key (the event id, or the episode a button belongs to) makes Slack's
retries and double clicks harmless.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from slack_bolt import BoltResponse
from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from bot.background import BackgroundTasks
from bot.settings import SlackSettings
from bot.slack.blocks import FEEDBACK_ACTION, evidence_blocks, reason_modal
from bot.slack.events import (
    Asked,
    Click,
    DraftClick,
    LinksShared,
    MalformedSlackInput,
    ReasonSubmission,
    dig,
)
from bot.slack.home import LessonsHome
from bot.slack.messages import NOT_ENABLED, NOTHING_TO_CHECK, CardMessage, card_placer
from bot.slack.moderators import SlackModerators
from bot.slack.unfurls import DRAFT_ACTION, preview_blocks
from memory.curation import LessonDesk
from pipeline.desk.moderation import Answer
from pipeline.desk.note_desk import NoteDesk
from pipeline.request import NoteRequest, ReplyTarget

log = logging.getLogger(__name__)
VOUCH_WAIT_S = 2.0
Ack = Callable[..., Awaitable[None]]
T = TypeVar("T")


def parsed(read: Callable[[dict[str, Any]], T], body: dict[str, Any], what: str) -> T | None:
    """A payload's facts, or None after logging why it was ignored (it was acked already)."""
    try:
        return read(body)
    except MalformedSlackInput as e:
        log.warning("ignored a malformed %s: %s", what, e)
        return None


class GuardedApp(AsyncApp):
    """Bolt's app, refusing with a 400 the payloads Bolt itself cannot read: a signed
    `view_submission` without `view.type` logged a KeyError traceback and answered 500, a
    `block_actions` without actions an IndexError."""

    async def async_dispatch(self, req: AsyncBoltRequest) -> BoltResponse:
        if (why := unreadable_by_bolt(req.body)) is not None:
            return BoltResponse(status=400, body=why)
        return await super().async_dispatch(req)


def unreadable_by_bolt(body: object) -> str | None:
    """Why Bolt would crash on a payload (its argument injection indexes these unguarded),
    else None."""
    if not isinstance(body, dict):
        return None
    kind = body.get("type")
    if kind in ("view_submission", "view_closed"):
        view = body.get("view")
        if not isinstance(view, dict) or not isinstance(view.get("type"), str):
            return "a view payload needs its view's type"
    if kind == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions or not isinstance(actions[0], dict):
            return "a block action needs its actions"
    return None


class SlackFrontend:
    def __init__(
        self,
        cards: NoteDesk,
        settings: SlackSettings,
        client: AsyncWebClient,
        *,
        process_before_response: bool = False,
        run_episodes: bool = True,
        lessons: LessonDesk | None = None,
    ) -> None:
        self.cards = cards  # the one NoteDesk the app built
        self.desk = cards.moderation
        self.run_episodes = run_episodes  # False where workers in other processes run them
        self.settings = settings
        self.interval_s = settings.progress_interval_s
        self.client = client
        self.moderators = SlackModerators(settings, client)
        self.home = LessonsHome(client, self.moderators, lessons, self.desk.standing)
        secret = settings.signing_secret.get_secret_value() if settings.signing_secret else None
        self.app = GuardedApp(
            client=client,
            signing_secret=secret,
            request_verification_enabled=secret is not None,
            raise_error_for_unhandled_request=False,
            process_before_response=process_before_response,
        )
        self.background = BackgroundTasks("slack")
        app = self.app
        app.command("/note")(self.on_command)
        app.shortcut("draft_note")(self.on_asked)
        app.event("app_mention")(self.on_asked)
        app.event("link_shared")(self.on_link_shared)
        app.action(DRAFT_ACTION)(self.on_draft_link)
        app.action(re.compile("^evonote_(vote_up|approve|submit|submit_anyway)$"))(
            self.on_desk_button
        )
        app.action("evonote_vote_down")(self.on_vote_down)
        app.action(FEEDBACK_ACTION)(self.on_feedback)
        app.view("evonote_vote_reason")(self.on_vote_reason)
        app.action(re.compile("^evonote_(regenerate|show_evidence)$"))(self.on_episode_button)
        self.home.register(app)

    # ---- cards --------------------------------------------------------------------------

    def start(self, asked: Asked) -> None:
        """Persist the request, post the card, run the episode behind it (in the background)."""
        self.background.spawn(self._request(asked))

    async def vouched(self, user: str) -> bool:
        """Whether a moderator vouches for the requester (a moderator, or a member of a
        moderators' user group): their episodes' lessons count as support. Asked of Slack at
        most `VOUCH_WAIT_S`: a slow or failing Slack delays no request, whose lessons then
        count as a plain account's (the safe side)."""
        try:
            async with asyncio.timeout(VOUCH_WAIT_S):
                return await self.moderators.is_moderator(user)
        except TimeoutError:
            log.warning("moderator groups not read in %s s: %s asks unvouched", VOUCH_WAIT_S, user)
            return False

    async def _request(self, asked: Asked) -> None:
        vouched = await self.vouched(asked.user)
        request = NoteRequest(
            post_ref=asked.text,
            requester=asked.user,
            source="slack",
            key=asked.key,
            reply_to=ReplyTarget(platform="slack", channel=asked.channel, thread=asked.thread),
            vouched=vouched,
        )
        place = card_placer(self.client, asked.channel, asked.thread, self.interval_s)
        await self.cards.request(request, place, run=self.run_episodes)

    async def follow(self, episode_id: int, channel: str, thread: str | None = None) -> None:
        """Post the card of a queued episode (a watchlist find), run it behind the card."""
        episode = await self.desk.episode(episode_id)
        if episode is not None:
            place = card_placer(self.client, channel, thread, self.interval_s)
            await self.cards.attend(episode, place, run=self.run_episodes)

    async def tell(self, channel: str, user: str, text: str, **blocks: Any) -> None:
        await self.client.chat_postEphemeral(channel=channel, user=user, text=text, **blocks)

    async def answer(
        self, answer: Answer, episode_id: int, user: str, channel: str, ts: str
    ) -> None:
        """The desk's answer, in Slack: the card edited again, or a message for the person."""
        if answer.message:
            await self.tell(channel, user, answer.message)
        if answer.refresh and (card := await self.desk.card(episode_id)) is not None:
            await CardMessage(self.client, channel, ts, 0).show(card, force=True)

    # ---- asking for a note ---------------------------------------------------------------

    async def on_command(self, ack: Ack, command: dict[str, Any]) -> None:
        try:
            asked = Asked.from_command(command)
        except MalformedSlackInput as e:
            await ack(f"That request could not be read ({e}); try `/note` again.")
            return
        if not self.allowed_channel(asked.channel):
            await ack(NOT_ENABLED)
        elif not asked.text:
            await ack(NOTHING_TO_CHECK["command"])
        else:
            await ack()
            self.start(asked)

    async def on_asked(self, ack: Ack, body: dict[str, Any]) -> None:
        """The message shortcut and mentions: the answer goes to the channel or the person."""
        await ack()
        read = Asked.from_mention if "event" in body else Asked.from_shortcut
        if (asked := parsed(read, body, "Slack request")) is None:
            return
        shortcut = asked.entry == "shortcut"
        if not self.allowed_channel(asked.channel):
            if shortcut:  # a mention elsewhere is not for us: no reply
                await self.tell(asked.channel, asked.user, NOT_ENABLED)
        elif not asked.text and shortcut:
            await self.tell(asked.channel, asked.user, NOTHING_TO_CHECK["shortcut"])
        elif not asked.text:
            await self.client.chat_postMessage(
                channel=asked.channel, thread_ts=asked.thread, text=NOTHING_TO_CHECK["mention"]
            )
        else:
            self.start(asked)

    async def on_link_shared(self, ack: Ack, body: dict[str, Any]) -> None:
        """Post links pasted (or being written: the composer) get a preview each; in an
        auto-draft channel a sent post link starts its draft, once per post and channel."""
        await ack()
        if (shared := parsed(LinksShared.parse, body, "link_shared event")) is None:
            return
        if not shared.composing and not self.allowed_channel(shared.channel):
            return
        drafting = not shared.composing and shared.channel in self.settings.auto_draft_ids
        unfurls: dict[str, Any] = {}
        for url in shared.urls:
            key = self.cards.previews.request_key("slack", shared.channel, url)
            if key is None:  # a link of those domains that is no post (x.com/home)
                continue
            preview = await self.cards.previews.preview(url, key)
            starts = drafting and preview.episode is None and preview.post is not None
            if starts:
                thread = shared.thread or shared.message_ts
                self.start(Asked("link", url, shared.channel, shared.user, thread, key))
            unfurls[url] = {"blocks": preview_blocks(preview, drafting=starts)}
        if not unfurls:
            return
        if shared.composing:
            await self.client.chat_unfurl(
                source="composer", unfurl_id=shared.unfurl_id, unfurls=unfurls
            )
        else:
            await self.client.chat_unfurl(
                channel=shared.channel, ts=shared.message_ts, unfurls=unfurls
            )

    async def on_draft_link(self, ack: Ack, body: dict[str, Any]) -> None:
        """Draft a note, on a link's preview: the draft of that post in this channel, once."""
        await ack()
        if (click := parsed(DraftClick.parse, body, "Draft a note click")) is None:
            return
        if not self.allowed_channel(click.channel):
            await self.tell(click.channel, click.user, NOT_ENABLED)
            return
        key = self.cards.previews.request_key("slack", click.channel, click.url)
        if key is None:
            await self.tell(click.channel, click.user, "That button does not point at a post.")
            return
        if (seen := await self.cards.asked_before(key)) is not None:
            await self.tell(
                click.channel,
                click.user,
                f"A note for this post was already asked for in this channel (episode {seen.id}).",
            )
            return
        self.start(Asked("link", click.url, click.channel, click.user, click.message_ts, key))

    def allowed_channel(self, channel: str) -> bool:
        return not self.settings.channel_ids or channel in self.settings.channel_ids

    # ---- buttons on a card ---------------------------------------------------------------

    async def _click(self, body: dict[str, Any]) -> Click | None:
        """The button's facts, or None after telling the person (when they can be told)."""
        try:
            return Click.parse(body)
        except MalformedSlackInput as e:
            log.warning("ignored a malformed Slack button: %s", e)
            channel, user = dig(body, "channel", "id"), dig(body, "user", "id")
            if isinstance(channel, str) and isinstance(user, str) and channel and user:
                await self.tell(channel, user, "That button does not point at a note.")
            return None

    async def on_desk_button(self, ack: Ack, body: dict[str, Any]) -> None:
        """👍, Approve, Submit to X: the desk decides; Slack shows its answer."""
        await ack()
        if (click := await self._click(body)) is None:
            return
        # Approving and submitting publish: who moderates is read again for them, not cached.
        publishing = click.action_id in (
            "evonote_approve",
            "evonote_submit",
            "evonote_submit_anyway",
        )
        voter = await self.moderators.voter(click.user, fresh=publishing)
        episode_id = click.episode_id
        if click.action_id == "evonote_approve":
            answer = await self.desk.approve(voter, episode_id)
        elif click.action_id in ("evonote_submit", "evonote_submit_anyway"):
            anyway = click.action_id == "evonote_submit_anyway"
            answer = await self.desk.submit(voter, episode_id, anyway=anyway)
        else:
            answer = await self.desk.vote(voter, episode_id, 1)
        await self.answer(answer, episode_id, click.user, click.channel, click.ts)

    async def on_feedback(self, ack: Ack, body: dict[str, Any]) -> None:
        """The card's feedback buttons: 👍 votes at once, 👎 asks for the reason first."""
        try:
            down = Click.parse(body).action_id == "evonote_vote_down"
        except MalformedSlackInput:
            down = False  # the desk button's own parse tells the person
        await (self.on_vote_down if down else self.on_desk_button)(ack, body)

    async def on_vote_down(self, ack: Ack, body: dict[str, Any]) -> None:
        await ack()
        if (click := await self._click(body)) is None:
            return
        if click.trigger_id is None:
            log.warning("ignored a down-vote click without a trigger id")
            return
        view = reason_modal(click.episode_id, click.channel, click.ts)
        await self.client.views_open(trigger_id=click.trigger_id, view=view)

    async def on_vote_reason(self, ack: Ack, body: dict[str, Any]) -> None:
        await ack()
        if (vote := parsed(ReasonSubmission.parse, body, "down-vote reason")) is None:
            return
        voter = await self.moderators.voter(vote.user)
        answer = await self.desk.vote(voter, vote.episode_id, -1, vote.reason)
        await self.answer(answer, vote.episode_id, vote.user, vote.channel, vote.ts)

    async def on_episode_button(self, ack: Ack, body: dict[str, Any]) -> None:
        """Regenerate (a new request for the same post) and Show evidence."""
        await ack()
        if (click := await self._click(body)) is None:
            return
        where, who, episode_id = click.channel, click.user, click.episode_id
        if (episode := await self.desk.episode(episode_id)) is None:
            await self.tell(where, who, f"Episode {episode_id} no longer exists.")
        elif click.action_id == "evonote_regenerate":
            key, thread = f"slack:regenerate:{episode_id}", click.thread or click.ts
            self.start(Asked("button", episode.post_ref, where, who, thread, key))
        else:
            blocks = evidence_blocks(episode_id, episode.evidence)
            await self.tell(where, who, f"Evidence for episode {episode_id}", blocks=blocks)
