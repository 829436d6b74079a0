"""The moderators' rules, once for every platform (the desk over a book of votes)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pipeline.card import CardAction
from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.moderation import ModeratorDesk, Voter
from pipeline.desk.standing import WriterStanding, standing_of
from pipeline.desk.submission import SubmissionFacts, SubmissionOutcome
from pipeline.errors import EpisodeNotFound, EvoNoteError
from pipeline.moderation import ApprovalRefused, VoteOutcome
from pipeline.post import Post
from pipeline.trajectory import EpisodeStatus

NOW = datetime(2026, 11, 30, tzinfo=UTC)


class Book:
    def __init__(self) -> None:
        self.ballots: dict[tuple[int, str, str], int] = {}
        self.approved: dict[int, str] = {}
        self.noted = {1}
        self.reopened: list[int] = []

    async def record_vote(
        self,
        episode_id: int,
        *,
        platform: str,
        user: str,
        vote: int,
        reason: str | None = None,
        moderator: bool = False,
    ) -> VoteOutcome:
        if episode_id not in self.noted:
            raise EpisodeNotFound(f"there is no episode {episode_id}")
        key = (episode_id, platform, user)
        before = self.ballots.get(key)
        self.ballots[key] = vote
        if before is None:
            return VoteOutcome.COUNTED
        return VoteOutcome.UNCHANGED if before == vote else VoteOutcome.CHANGED

    async def reopen_for_judging(self, episode_id: int, within_s: float) -> bool:
        self.reopened.append(episode_id)
        return True

    async def approve(self, episode_id: int, user: str) -> None:
        if episode_id not in self.noted:
            raise ApprovalRefused("there is no note to approve (the episode failed)")
        self.approved[episode_id] = user

    async def get(self, episode_id: int) -> Episode | None:
        if episode_id not in self.noted:
            return None
        return Episode(
            id=episode_id,
            source="slack",
            requester="U1",
            post=Post(text="Vaccines cause autism.", post_id="1357"),
            status=EpisodeStatus.NOTED,
            created_at=NOW,
            note_text="Large studies found no link between vaccines and autism.",
            approved_by=self.approved.get(episode_id),
        )

    async def votes(self, episode_id: int) -> list[Vote]:
        return [
            Vote(episode_id=e, platform=p, user=u, vote=v, created_at=NOW)
            for (e, p, u), v in self.ballots.items()
            if e == episode_id
        ]


class Submitter:
    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.sent: list[int] = []

    async def submit(
        self, episode_id: int, user: str, *, anyway: bool = False
    ) -> SubmissionOutcome:
        if self.fails:
            raise EvoNoteError("X refused https://api.x.com/2/notes?token=abc123secret")
        self.sent.append(episode_id)
        return SubmissionOutcome(kind="submitted", message="Submitted to X as note 99.")

    async def standing(self) -> WriterStanding:
        return standing_of([])

    async def destination_name(self, episode: Episode) -> str | None:
        return "X" if episode.post.post_id else None

    async def live_outcome(self) -> str | None:
        return None

    async def card_facts(self, episode: Episode) -> SubmissionFacts:
        to = await self.destination_name(episode)
        if episode.id not in self.sent:
            submittable = to is not None and episode.approved_by is not None
            return SubmissionFacts(destination=to, can_submit=submittable)
        sent = Submission(
            episode_id=episode.id,
            post_id="1357",
            note_id="99",
            classification="misinformed_or_potentially_misleading",
            submitted_by="42",
        )
        return SubmissionFacts(destination=to, submission=sent)


ANA = Voter("slack", "U1")
MOD = Voter("discord", "42", is_moderator=True, moderators_setting="EVONOTE_X_ROLES")


async def test_votes_count_once_per_person_and_may_change() -> None:
    book = Book()
    desk = ModeratorDesk(book)
    assert (await desk.vote(ANA, 1, 1)).refresh
    again = await desk.vote(ANA, 1, 1)
    assert not again.refresh and again.message == "You have already voted 👍 on this note."
    assert (await desk.vote(ANA, 1, -1)).refresh  # changed their mind
    assert book.reopened == [1, 1]  # each new or changed vote has the episode judged again
    gone = await desk.vote(ANA, 7, 1)
    assert gone.message == "Episode 7 no longer exists."


async def test_only_moderators_approve_and_only_notes() -> None:
    book = Book()
    desk = ModeratorDesk(book)
    refused = await desk.approve(ANA, 1)
    assert refused.message is not None and refused.message.startswith("Only moderators")
    assert book.approved == {}
    assert (await desk.approve(MOD, 1)).refresh and book.approved == {1: "42"}
    nothing = await desk.approve(MOD, 2)
    assert nothing.message == "Not approved: there is no note to approve (the episode failed)"


@pytest.mark.parametrize(
    ("voter", "submitter", "says"),
    [
        (MOD, None, "not configured"),
        (ANA, Submitter(), "Only moderators can submit notes (the moderator setting)."),
        (
            MOD,
            Submitter(fails=True),
            "Not submitted: X refused https://api.x.com/2/notes?token=***",
        ),
    ],
)
async def test_submission_is_for_moderators_and_says_why_not(
    voter: Voter, submitter: Submitter | None, says: str
) -> None:
    answer = await ModeratorDesk(Book(), submitter).submit(voter, 1)
    assert not answer.refresh and answer.message is not None and says in answer.message


async def test_a_moderator_submits() -> None:
    submitter = Submitter()
    answer = await ModeratorDesk(Book(), submitter).submit(MOD, 1)
    assert answer.refresh and answer.message == "Submitted to X as note 99."
    assert submitter.sent == [1]


async def test_the_card_is_decided_once_from_the_episode_its_votes_and_x() -> None:
    book, submitter = Book(), Submitter()
    desk = ModeratorDesk(book, submitter)
    assert await desk.card(7) is None  # no such episode
    await desk.vote(ANA, 1, 1)
    await desk.vote(MOD, 1, -1)
    card = await desk.card(1)
    assert card is not None
    assert (card.votes_up, card.votes_down, card.voters) == (1, 1, ["U1", "42"])
    assert CardAction.APPROVE in card.actions() and CardAction.SUBMIT not in card.actions()
    await desk.approve(MOD, 1)
    approved = await desk.card(1)
    assert approved is not None and approved.approved_by == "42"
    assert CardAction.APPROVE not in approved.actions()
    assert CardAction.SUBMIT in approved.actions()  # approved, a post id, and X configured
    await desk.submit(MOD, 1)
    sent = await desk.card(1, progress="ignored once final")
    assert sent is not None and sent.submission is not None and "note 99" in sent.submission
    assert CardAction.SUBMIT not in sent.actions()  # one note per post
    without_x = await ModeratorDesk(book).card(1)
    assert without_x is not None and CardAction.SUBMIT not in without_x.actions()
