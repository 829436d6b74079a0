"""Slack: moderators paste a post, watch it being checked, vote, and approve.

Every listener acknowledges first (Slack allows 3 s), then does the slow part in a task the
frontend keeps track of. A request is persisted as a queued episode before the model is
called; its idempotency key (the event id, or the episode a button belongs to) makes Slack's
retries and double clicks harmless.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.background import BackgroundTasks
from bot.cards import card_for, load_card
from bot.live_card import CardPlacer, CardView, attend, request_behind_card
from bot.settings import SlackSettings
from bot.slack.blocks import card_blocks, evidence_blocks, home_view, reason_modal
from bot.slack.events import (
    Click,
    MalformedSlackInput,
    ReasonSubmission,
    dig,
    episode_id,
    text_field,
)
from bot.slack.messages import CardMessage, fallback_text, plain_text
from bot.submit import NoteSubmitter
from memory.curation import LessonAction, LessonDesk
from pipeline.card import NoteCard
from pipeline.desk.episode import Episode
from pipeline.desk.moderation import Answer, ModeratorDesk, Voter
from pipeline.desk.notes import NoteService
from pipeline.desk.ports import EpisodeRepository
from pipeline.request import NoteRequest, ReplyTarget

log = logging.getLogger(__name__)


class SlackFrontend:
    def __init__(
        self,
        notes: NoteService,
        store: EpisodeRepository,
        settings: SlackSettings,
        client: AsyncWebClient,
        *,
        submitter: NoteSubmitter | None = None,
        process_before_response: bool = False,
        run_episodes: bool = True,
        desk: ModeratorDesk | None = None,
        lessons: LessonDesk | None = None,
    ) -> None:
        self.desk = desk or ModeratorDesk(store, submitter)
        self.lessons = lessons  # None when the memory is off: the App Home says so
        self.run_episodes = run_episodes
        self.notes = notes
        self.submitter = submitter
        self.store = store
        self.settings = settings
        self.client = client
        secret = settings.signing_secret.get_secret_value() if settings.signing_secret else None
        self.app = AsyncApp(
            client=client,
            signing_secret=secret,
            request_verification_enabled=secret is not None,
            raise_error_for_unhandled_request=False,
            process_before_response=process_before_response,
        )
        self.background = BackgroundTasks("slack")
        self._moderators: set[str] | None = None
        self._register()

    # ---- plumbing -----------------------------------------------------------------------

    def allowed_channel(self, channel: str) -> bool:
        return not self.settings.channel_ids or channel in self.settings.channel_ids

    async def is_moderator(self, user: str) -> bool:
        if self._moderators is None:
            ids: set[str] = set()
            for entry in self.settings.moderator_ids:
                if entry.startswith("S"):  # a user group: its members are moderators
                    response = await self.client.usergroups_users_list(usergroup=entry)
                    ids.update(response.get("users", []))
                else:
                    ids.add(entry)
            self._moderators = ids
        return user in self._moderators

    # ---- the episode --------------------------------------------------------------------

    async def start(
        self, text: str, *, channel: str, user: str, thread: str | None, key: str
    ) -> None:
        """Persist the request, post the card, run the episode, edit the card as it goes."""
        request = NoteRequest(
            post_ref=text,
            requester=user,
            source="slack",
            key=key,
            reply_to=ReplyTarget(platform="slack", channel=channel, thread=thread),
        )
        await request_behind_card(
            self.notes,
            self.store,
            request,
            self.placer(channel, thread),
            submitter=self.submitter,
            run_episodes=self.run_episodes,
        )

    async def follow(self, episode_id: int, channel: str, thread: str | None = None) -> None:
        """Post the card of a queued episode (a watchlist find), run it behind the card."""
        episode = await self.store.get(episode_id)
        if episode is not None:
            place = self.placer(channel, thread)
            await attend(
                self.notes,
                self.store,
                episode,
                place,
                submitter=self.submitter,
                run_episodes=self.run_episodes,
            )

    def placer(self, channel: str, thread: str | None) -> CardPlacer:
        async def place(card: NoteCard) -> tuple[CardView, str | None]:
            message = await self.post(card, channel, thread)
            return message, message.ts

        return place

    async def card(self, episode_id: int, progress: str | None = None) -> NoteCard | None:
        return await load_card(self.store, episode_id, submitter=self.submitter, progress=progress)

    async def post(self, card: NoteCard, channel: str, thread: str | None) -> CardMessage:
        posted = await self.client.chat_postMessage(
            channel=channel, thread_ts=thread, text=fallback_text(card), blocks=card_blocks(card)
        )
        return CardMessage(
            self.client, channel, str(posted["ts"]), self.settings.progress_interval_s
        )

    async def refresh(self, episode_id: int, channel: str, ts: str) -> None:
        card = await self.card(episode_id)
        if card is not None:
            await CardMessage(self.client, channel, ts, 0).show(card, force=True)

    # ---- listeners ----------------------------------------------------------------------

    def _register(self) -> None:
        app = self.app
        app.command("/note")(self.on_command)
        app.shortcut("draft_note")(self.on_shortcut)
        app.event("app_mention")(self.on_mention)
        app.action(re.compile("^evonote_(vote_up|approve|submit)$"))(self.on_desk_button)
        app.event("app_home_opened")(self.on_home_opened)
        app.action(re.compile("^evonote_lesson_(approve|retire|restore)$"))(self.on_lesson_button)
        app.action("evonote_vote_down")(self.on_vote_down)
        app.view("evonote_vote_reason")(self.on_vote_reason)
        app.action("evonote_regenerate")(self.on_regenerate)
        app.action("evonote_show_evidence")(self.on_show_evidence)

    async def on_command(
        self, ack: Callable[..., Awaitable[None]], command: dict[str, Any]
    ) -> None:
        try:
            channel, user = text_field(command, "channel_id"), text_field(command, "user_id")
        except MalformedSlackInput as e:
            await ack(f"That request could not be read ({e}); try `/note` again.")
            return
        text = plain_text(str(command.get("text") or ""))
        if not self.allowed_channel(channel):
            await ack(
                "EvoNote is not enabled in this channel; ask an admin to add it to "
                "EVONOTE_SLACK__CHANNELS."
            )
            return
        if not text:
            await ack(
                "Give a post to check: `/note https://x.com/user/status/123` or "
                "`/note <the post's text>`."
            )
            return
        await ack()
        key = f"slack:command:{command.get('trigger_id') or command.get('command_ts')}"
        self.background.spawn(self.start(text, channel=channel, user=user, thread=None, key=key))

    async def on_shortcut(self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]) -> None:
        await ack()
        try:
            channel, user = text_field(body, "channel", "id"), text_field(body, "user", "id")
        except MalformedSlackInput as e:
            log.warning("ignored a malformed Slack shortcut: %s", e)
            return
        text = plain_text(str(dig(body, "message", "text") or ""))
        thread = dig(body, "message", "ts")
        if not self.allowed_channel(channel):
            await self.client.chat_postEphemeral(
                channel=channel, user=user, text="EvoNote is not enabled in this channel."
            )
            return
        if not text:
            await self.client.chat_postEphemeral(
                channel=channel, user=user, text="That message has no text or link to check."
            )
            return
        self.background.spawn(
            self.start(
                text,
                channel=channel,
                user=user,
                thread=thread if isinstance(thread, str) else None,
                key=f"slack:shortcut:{body.get('trigger_id')}",
            )
        )

    async def on_mention(self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]) -> None:
        await ack()
        event = body.get("event")
        try:
            channel = text_field(event, "channel")
        except MalformedSlackInput as e:
            log.warning("ignored a malformed Slack mention: %s", e)
            return
        assert isinstance(event, dict)
        text = plain_text(str(event.get("text") or ""))
        thread = event.get("thread_ts") or event.get("ts")
        if not self.allowed_channel(channel):
            return
        if not text:
            await self.client.chat_postMessage(
                channel=channel,
                thread_ts=thread,
                text="Mention me with a post link or the post's text to check it.",
            )
            return
        self.background.spawn(
            self.start(
                text,
                channel=channel,
                user=str(event.get("user") or ""),
                thread=thread,
                key=f"slack:event:{body.get('event_id')}",
            )
        )

    async def _click(self, body: dict[str, Any]) -> Click | None:
        """The button's facts, or None after telling the person (when they can be told)."""
        try:
            return Click.parse(body)
        except MalformedSlackInput as e:
            log.warning("ignored a malformed Slack button: %s", e)
            channel, user = dig(body, "channel", "id"), dig(body, "user", "id")
            if isinstance(channel, str) and isinstance(user, str) and channel and user:
                await self.client.chat_postEphemeral(
                    channel=channel, user=user, text="That button does not point at a note."
                )
            return None

    async def _clicked_episode(self, body: dict[str, Any]) -> tuple[Click, Episode] | None:
        """The button's facts and its episode, or None after telling the person why not."""
        if (click := await self._click(body)) is None:
            return None
        row = await self.store.get(click.episode_id)
        if row is None:
            await self.client.chat_postEphemeral(
                channel=click.channel,
                user=click.user,
                text=f"Episode {click.episode_id} no longer exists.",
            )
            return None
        return click, row

    async def voter(self, user: str) -> Voter:
        return Voter("slack", user, await self.is_moderator(user), "EVONOTE_SLACK__MODERATORS")

    async def answer(
        self, answer: Answer, episode_id: int, user: str, channel: str, ts: str
    ) -> None:
        """The desk's answer, in Slack: the card edited again, or a message for the person."""
        if answer.message:
            await self.client.chat_postEphemeral(channel=channel, user=user, text=answer.message)
        if answer.refresh:
            await self.refresh(episode_id, channel, ts)

    async def on_desk_button(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        """👍, Approve, Submit to X: the desk decides; Slack shows its answer."""
        await ack()
        if (click := await self._click(body)) is None:
            return
        voter, episode_id = await self.voter(click.user), click.episode_id
        if click.action_id == "evonote_approve":
            answer = await self.desk.approve(voter, episode_id)
        elif click.action_id == "evonote_submit":
            answer = await self.desk.submit(voter, episode_id)
        else:
            answer = await self.desk.vote(voter, episode_id, 1)
        await self.answer(answer, episode_id, click.user, click.channel, click.ts)

    async def publish_home(self, user: str) -> None:
        """The App Home: this week's lessons, with buttons when the person moderates."""
        if self.lessons is None:
            view = {
                "type": "home",
                "blocks": [_home_note("The experience memory is off (EVONOTE_MEMORY__MODE).")],
            }
        else:
            board = await self.lessons.board(datetime.now(UTC))
            view = home_view(board, await self.is_moderator(user))
        try:
            await self.client.views_publish(user_id=user, view=view)
        except SlackApiError as e:
            log.warning("views.publish failed: %s", e.response.get("error"))

    async def on_home_opened(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        await ack()
        event = body.get("event") if isinstance(body.get("event"), dict) else {}
        user = event.get("user") if isinstance(event, dict) else None
        if isinstance(user, str) and user and (event or {}).get("tab", "home") == "home":
            await self.publish_home(user)

    async def on_lesson_button(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        """Approve / Retire / Restore in the App Home: the lesson desk decides."""
        await ack()
        user = dig(body, "user", "id")
        action = dig(body, "actions")
        if not isinstance(user, str) or not isinstance(action, list) or not action:
            log.warning("ignored a malformed lesson button")
            return
        try:
            lesson_id = episode_id(action[0].get("value"))
            verb = LessonAction(str(action[0].get("action_id", "")).rsplit("_", 1)[-1])
        except (MalformedSlackInput, ValueError, AttributeError):
            log.warning("ignored a malformed lesson button")
            return
        if self.lessons is not None:
            answer = await self.lessons.act(await self.voter(user), lesson_id, verb)
            if answer.message:
                log.info("lesson %s not changed for %s: %s", lesson_id, user, answer.message)
        await self.publish_home(user)

    async def on_vote_down(self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]) -> None:
        await ack()
        if (click := await self._click(body)) is None:
            return
        if click.trigger_id is None:
            log.warning("ignored a down-vote click without a trigger id")
            return
        await self.client.views_open(
            trigger_id=click.trigger_id,
            view=reason_modal(click.episode_id, click.channel, click.ts),
        )

    async def on_vote_reason(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        await ack()
        try:
            vote = ReasonSubmission.parse(body)
        except MalformedSlackInput as e:
            log.warning("ignored a malformed down-vote reason: %s", e)
            return
        voter = await self.voter(vote.user)
        answer = await self.desk.vote(voter, vote.episode_id, -1, vote.reason)
        await self.answer(answer, vote.episode_id, vote.user, vote.channel, vote.ts)

    async def on_regenerate(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        await ack()
        if (clicked := await self._clicked_episode(body)) is None:
            return
        click, row = clicked
        self.background.spawn(
            self.start(
                row.post_ref,
                channel=click.channel,
                user=click.user,
                thread=click.thread or click.ts,
                key=f"slack:regenerate:{click.episode_id}",
            )
        )

    async def on_show_evidence(
        self, ack: Callable[..., Awaitable[None]], body: dict[str, Any]
    ) -> None:
        await ack()
        if (clicked := await self._clicked_episode(body)) is None:
            return
        click, row = clicked
        await self.client.chat_postEphemeral(
            channel=click.channel,
            user=click.user,
            text=f"Evidence for episode {click.episode_id}",
            blocks=evidence_blocks(card_for(row), row.evidence),
        )


def _home_note(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}
