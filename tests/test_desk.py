"""The moderators' rules, once for every platform (the desk over a book of votes)."""

from __future__ import annotations

import pytest

from pipeline.desk.moderation import ModeratorDesk, Voter
from pipeline.errors import EvoNoteError
from pipeline.moderation import ApprovalRefused, VoteOutcome


class Book:
    def __init__(self) -> None:
        self.votes: dict[tuple[int, str, str], int] = {}
        self.approved: dict[int, str] = {}
        self.noted = {1}
        self.reopened: list[int] = []

    async def record_vote(
        self, episode_id: int, *, platform: str, user: str, vote: int, reason: str | None = None
    ) -> VoteOutcome:
        if episode_id not in self.noted:
            raise KeyError(episode_id)
        key = (episode_id, platform, user)
        before = self.votes.get(key)
        self.votes[key] = vote
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


class Submitter:
    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.sent: list[int] = []

    async def submit(self, episode_id: int, user: str) -> None:
        if self.fails:
            raise EvoNoteError("X refused https://api.x.com/2/notes?token=abc123secret")
        self.sent.append(episode_id)


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
        (ANA, Submitter(), "Only moderators can submit notes to X (the moderator setting)."),
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
    assert (await ModeratorDesk(Book(), submitter).submit(MOD, 1)).refresh
    assert submitter.sent == [1]
