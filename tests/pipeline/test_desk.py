"""The moderators' rules, once for every platform (the desk over a book of votes)."""

from __future__ import annotations

import pytest

from pipeline.card import CardAction
from pipeline.desk.moderation import ModeratorDesk, Voter
from tests.fakes.desk import FakeSubmitter, InMemoryVoteBook

ANA = Voter("slack", "U1")
MOD = Voter("discord", "42", is_moderator=True, moderators_setting="EVONOTE_X_ROLES")


async def test_votes_count_once_per_person_and_may_change() -> None:
    book = InMemoryVoteBook()
    desk = ModeratorDesk(book)
    assert (await desk.vote(ANA, 1, 1)).refresh
    again = await desk.vote(ANA, 1, 1)
    assert not again.refresh and again.message == "You have already voted 👍 on this note."
    assert (await desk.vote(ANA, 1, -1)).refresh  # changed their mind
    assert book.reopened == [1, 1]  # each new or changed vote has the episode judged again
    gone = await desk.vote(ANA, 7, 1)
    assert gone.message == "Episode 7 no longer exists."


async def test_only_moderators_approve_and_only_notes() -> None:
    book = InMemoryVoteBook()
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
        (ANA, FakeSubmitter(), "Only moderators can submit notes (the moderator setting)."),
        (
            MOD,
            FakeSubmitter(fails=True),
            "Not submitted: X refused https://api.x.com/2/notes?token=***",
        ),
    ],
)
async def test_submission_is_for_moderators_and_says_why_not(
    voter: Voter, submitter: FakeSubmitter | None, says: str
) -> None:
    answer = await ModeratorDesk(InMemoryVoteBook(), submitter).submit(voter, 1)
    assert not answer.refresh and answer.message is not None and says in answer.message


async def test_a_moderator_submits() -> None:
    submitter = FakeSubmitter()
    answer = await ModeratorDesk(InMemoryVoteBook(), submitter).submit(MOD, 1)
    assert answer.refresh and answer.message == "Submitted to X as note 99."
    assert submitter.sent == [1]


async def test_the_card_is_decided_once_from_the_episode_its_votes_and_x() -> None:
    book = InMemoryVoteBook()
    submitter = FakeSubmitter(book)
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
