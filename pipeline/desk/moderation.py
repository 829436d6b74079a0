"""What a moderator sees and does on a card — its card and episode, vote, approve, submit
to X — and what they are told.

The rules live here, once: who may approve and submit, one vote per person (the latest
counts), only a drafted note is approved, only an approved one is submitted, which buttons a
card offers (`NoteCard.actions()`). Front ends turn a platform event into a `Voter` and an
episode id, call the desk, and render the `Answer` (a message for that person alone, or the
card to show again) or the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pipeline.card import NoteCard
from pipeline.desk.card_facts import SubmissionFacts
from pipeline.desk.cards import card_for
from pipeline.desk.episode import Episode
from pipeline.desk.ports import VoteBook
from pipeline.desk.standing import WriterStanding
from pipeline.desk.submit_outcome import SubmissionOutcome
from pipeline.errors import EpisodeNotFound, EvoNoteError
from pipeline.moderation import VOTE_WINDOW_DAYS, ApprovalRefused, VoteOutcome, vote_message
from pipeline.redact import redact


@dataclass(frozen=True)
class Voter:
    """A person acting on a card: where, who, and whether the platform says they moderate."""

    platform: str
    user: str
    is_moderator: bool = False
    moderators_setting: str = "the moderator setting"  # named in a refusal


@dataclass(frozen=True)
class Answer:
    """`refresh`: show the card again (it changed); `message`: tell the person, privately."""

    refresh: bool = False
    message: str | None = None
    outcome: VoteOutcome | None = None  # what became of a vote
    # an approval: the notes destination that takes the post (None: no destination does, so
    # the note stays here, e.g. a post given as pasted text)
    destination: str | None = None


class Submitter(Protocol):
    """Submission of an approved note to a notes destination (`SubmissionDesk`)."""

    async def submit(
        self, episode_id: int, by: str, *, anyway: bool = False
    ) -> SubmissionOutcome: ...

    async def card_facts(self, episode: Episode) -> SubmissionFacts: ...

    async def standing(self) -> WriterStanding: ...

    async def live_outcome(self) -> str | None: ...

    async def destination_name(self, episode: Episode) -> str | None: ...


class ModeratorDesk:
    def __init__(
        self,
        book: VoteBook,
        submitter: Submitter | None = None,
        vote_window_s: float = VOTE_WINDOW_DAYS * 86_400,
    ) -> None:
        self.book = book
        self.submitter = submitter
        self.vote_window_s = vote_window_s

    async def episode(self, episode_id: int) -> Episode | None:
        return await self.book.get(episode_id)

    async def card(self, episode_id: int, progress: str | None = None) -> NoteCard | None:
        """The card of a stored episode, with its votes and what X has of it."""
        episode = await self.book.get(episode_id)
        if episode is None:
            return None
        return await self.card_of(episode, progress)

    async def card_of(self, episode: Episode, progress: str | None = None) -> NoteCard:
        """The card of an episode in hand: of a finished one, its votes and what submitting
        says of it are read, in one store call where submitting is set."""
        if not episode.status.finished:
            # queued or running: nothing voted, approved, evaluated or sent yet, no read
            return card_for(episode, [], progress)
        if self.submitter is None:
            return card_for(episode, await self.book.votes(episode.id), progress)
        facts = await self.submitter.card_facts(episode)  # one read, the votes with it
        return card_for(episode, facts.votes, progress, facts)

    async def standing(self) -> WriterStanding | None:
        """Where the writer stands with X (admission, writing limit), when submitting is set."""
        return await self.submitter.standing() if self.submitter is not None else None

    async def live_outcome(self) -> str | None:
        """What became of the live notes on X, in one line, when submitting is set."""
        return await self.submitter.live_outcome() if self.submitter is not None else None

    async def vote(
        self, voter: Voter, episode_id: int, vote: int, reason: str | None = None
    ) -> Answer:
        try:
            outcome = await self.book.record_vote(
                episode_id,
                platform=voter.platform,
                user=voter.user,
                vote=vote,
                reason=reason,
                moderator=voter.is_moderator,  # anyone's vote is shown; a moderator's teaches
            )
        except EpisodeNotFound:
            return Answer(message=f"Episode {episode_id} no longer exists.")
        if outcome is VoteOutcome.UNCHANGED:
            return Answer(message=vote_message(outcome, vote), outcome=outcome)
        # Every vote counts, whenever it comes: a judged episode is judged again with it.
        await self.book.reopen_for_judging(episode_id, self.vote_window_s)
        return Answer(refresh=True, outcome=outcome)

    async def approve(self, voter: Voter, episode_id: int) -> Answer:
        if not voter.is_moderator:
            return Answer(
                message=f"Only moderators can approve notes ({voter.moderators_setting})."
            )
        try:
            await self.book.approve(episode_id, voter.user)
        except ApprovalRefused as e:
            return Answer(message=f"Not approved: {e}")
        episode = await self.book.get(episode_id)
        where = (
            await self.submitter.destination_name(episode)
            if self.submitter is not None and episode is not None
            else None
        )
        return Answer(refresh=True, destination=where)

    async def submit(self, voter: Voter, episode_id: int, *, anyway: bool = False) -> Answer:
        """Submit to X; `anyway`: a moderator overrides the evaluator's or the forecast's bar
        for a held note."""
        if self.submitter is None:
            return Answer(
                message="Submitting notes is not configured (EVONOTE_X__CONSUMER_KEY …, or "
                "EVONOTE_BLUESKY__HANDLE and __APP_PASSWORD)."
            )
        if not voter.is_moderator:
            return Answer(message=f"Only moderators can submit notes ({voter.moderators_setting}).")
        try:
            outcome = await self.submitter.submit(episode_id, voter.user, anyway=anyway)
        except EvoNoteError as e:
            return Answer(message=f"Not submitted: {redact(str(e))}")
        return Answer(refresh=True, message=outcome.message)
