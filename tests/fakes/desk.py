"""The moderator desk's doubles: a book of votes in memory and a submitter that says what it
sent (the rest of the tests use the real store, on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

from pipeline.desk.card_facts import SubmissionFacts
from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.standing import WriterStanding, standing_of
from pipeline.desk.submit_outcome import SubmissionOutcome
from pipeline.errors import EpisodeNotFound, EvoNoteError
from pipeline.moderation import ApprovalRefused, VoteOutcome
from pipeline.post import Post
from pipeline.trajectory import EpisodeStatus

NOW = datetime(2026, 11, 30, tzinfo=UTC)


class InMemoryVoteBook:
    """A `VoteBook` in memory: episode 1 is a note (on post 1357); every other id is gone."""

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


class FakeSubmitter:
    """Submits to "X" (a post with an id) by saying so; `fails`: X refuses, with a secret in
    the error. Its card facts carry the book's votes, read with them as the real one does."""

    def __init__(self, book: InMemoryVoteBook | None = None, fails: bool = False) -> None:
        self.book = book or InMemoryVoteBook()
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
        votes = await self.book.votes(episode.id)
        if episode.id not in self.sent:
            submittable = to is not None and episode.approved_by is not None
            return SubmissionFacts(votes=votes, destination=to, can_submit=submittable)
        sent = Submission(
            episode_id=episode.id,
            post_id="1357",
            note_id="99",
            classification="misinformed_or_potentially_misleading",
            submitted_by="42",
        )
        return SubmissionFacts(votes=votes, destination=to, submission=sent)
