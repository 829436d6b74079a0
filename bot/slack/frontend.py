"""Slack: moderators paste a post, watch it being checked, vote, and approve.

A translator only: a Slack event → who and which episode → a call to the note service or
the desk → blocks. Every listener acknowledges first (Slack allows 3 s), then does the slow
part in a task the frontend keeps track of. A request is persisted as a queued episode before
the model is called; its key (the event id, or the episode a button belongs to) makes Slack's
retries and double clicks harmless.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot.background import BackgroundTasks
from bot.settings import SlackSettings
from bot.slack.blocks import FEEDBACK_ACTION, evidence_blocks, reason_modal
from bot.slack.events import (
    Ack,
    Asked,
    Click,
    MalformedSlackInput,
    ReasonSubmission,
    dig,
    parsed,
)
from bot.slack.guarded_app import GuardedApp
from bot.slack.home import LastScanOf, LessonsHome
from bot.slack.links import SlackLinks
from bot.slack.messages import NOT_ENABLED, NOTHING_TO_CHECK, CardMessage, card_placer
from bot.slack.moderators import SlackModerators
from memory.curation import LessonDesk
from pipeline.desk.moderation import Answer
from pipeline.desk.note_desk import NoteDesk
from pipeline.request import NoteRequest, ReplyTarget

log = logging.getLogger(__name__)


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
        last_scan: LastScanOf | None = None,
    ) -> None:
        self.cards = cards  # the one NoteDesk the app built
        self.desk = cards.moderation
        self.run_episodes = run_episodes  # False where workers in other processes run them
        self.settings = settings
        self.interval_s = settings.progress_interval_s
        self.client = client
        self.moderators = SlackModerators(settings, client)
        self.home = LessonsHome(
            client, self.moderators, lessons, self.desk.standing, last_scan=last_scan
        )
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
        app.action(re.compile("^evonote_(vote_up|approve|submit|submit_anyway)$"))(
            self.on_desk_button
        )
        app.action("evonote_vote_down")(self.on_vote_down)
        app.action(FEEDBACK_ACTION)(self.on_feedback)
        app.view("evonote_vote_reason")(self.on_vote_reason)
        app.action(re.compile("^evonote_(regenerate|show_evidence)$"))(self.on_episode_button)
        self.home.register(app)
        self.links = SlackLinks(
            cards, settings, client, start=self.start, tell=self.tell, allowed=self.allowed_channel
        )
        self.links.register(app)

    # ---- cards --------------------------------------------------------------------------

    def start(self, asked: Asked) -> None:
        """Persist the request, post the card, run the episode behind it (in the background)."""
        self.background.spawn(self._request(asked))

    async def _request(self, asked: Asked) -> None:
        vouched = await self.moderators.vouched(asked.user)
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
