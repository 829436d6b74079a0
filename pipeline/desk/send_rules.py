"""What may be sent, where and when: approved, a note on a post a destination takes, one note
per post, no stray link X would check, the account's daily caps (counted from the database,
so every process shares them) and, live on X after admission, the forecast's order within
the writing limit (`SendPolicy`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from pipeline.desk.destination import NotesDestination
from pipeline.desk.episode import Episode, Submission
from pipeline.desk.send_order import SendDecision, SendPolicy
from pipeline.desk.standing import WriterStanding, standing_of
from pipeline.desk.submission_log import NoteBook, NoteEvaluation, SubmissionLog
from pipeline.desk.submit_outcome import SubmissionRefused
from pipeline.drafting.note import link_like_tokens
from pipeline.post_choice import age_h, engagement_per_hour
from pipeline.trajectory import EpisodeStatus

DAY_S = 24 * 3600


@dataclass(frozen=True)
class WritingRoom:
    """Today's writing limit on X and how much of it is spent: live notes sent in the last
    24 h and those waiting in the queue for it."""

    limit: int
    used: int


class SendRules:
    def __init__(
        self,
        episodes: NoteBook,
        log: SubmissionLog,
        destinations: Sequence[NotesDestination],
        send_policy: SendPolicy,
    ) -> None:
        self.episodes = episodes
        self.log = log
        self.destinations = list(destinations)
        self.send_policy = send_policy

    # ---- whether the note may go, and where ------------------------------------------------

    def destination_for(self, episode: Episode) -> tuple[NotesDestination, str] | None:
        """The destination that takes the episode's post, and the post's id there."""
        for destination in self.destinations:
            if (post_id := destination.takes(episode.post)) is not None:
                return destination, post_id
        return None

    async def submittable(self, episode_id: int) -> tuple[Episode, NotesDestination, str]:
        """The episode, where its note may go and the post's id there; else why not."""
        episode = await self.episodes.get(episode_id)
        if episode is None:
            raise SubmissionRefused(f"there is no episode {episode_id}")
        destination, post_id = await self.submittable_episode(episode)
        return episode, destination, post_id

    async def submittable_episode(self, episode: Episode) -> tuple[NotesDestination, str]:
        """Where an episode in hand's note may go and the post's id there; else why not."""
        found = self.destination_for(episode)
        earlier = await self.log.for_post(found[1]) if found is not None else None
        return self.submittable_with(episode, found, earlier)

    def submittable_with(
        self,
        episode: Episode,
        found: tuple[NotesDestination, str] | None,
        earlier: Submission | None,
    ) -> tuple[NotesDestination, str]:
        """`submittable_episode` with what it reads in hand: the destination that takes the
        post (and the post's id there), and a note already sent on that post."""
        episode_id = episode.id
        if episode.status != EpisodeStatus.NOTED or not episode.note_text:
            raise SubmissionRefused(f"episode {episode_id} has no note ({episode.status})")
        if not episode.approved_by:
            raise SubmissionRefused(
                f"episode {episode_id} is not approved: a moderator must "
                "approve the note before it is submitted"
            )
        if found is None:
            where = " or ".join(d.name for d in self.destinations)
            raise SubmissionRefused(
                f"episode {episode_id} is not about a post that {where} takes notes on"
            )
        destination, post_id = found
        if earlier is not None:
            raise SubmissionRefused(
                f"post {post_id} already has a note from EvoNote ({destination.name} note "
                f"{earlier.note_id})"
            )
        return destination, post_id

    @staticmethod
    def publishable(episode: Episode) -> None:
        """X's URL evaluator takes every domain-like token for a link that must open: the
        note's text may hold none but its cited URLs."""
        assert episode.note_text is not None
        cited = set(episode.cited_urls)
        tokens = link_like_tokens(episode.note_text)
        stray = [t for t in tokens if t.rstrip(".,;:!?)]}\"'") not in cited]
        if stray:
            raise SubmissionRefused(
                "X would check " + ", ".join(repr(t) for t in stray[:3]) + " as links: "
                "the note may hold no link but its cited sources. Regenerate the note"
            )

    # ---- when it goes ----------------------------------------------------------------------

    def send_decision(
        self, episode: Episode, destination: NotesDestination, test_mode: bool
    ) -> SendDecision | None:
        """Where the forecast puts the note among those waiting for X's writing limit (live,
        after admission); None where no such limit orders notes (test mode, Bluesky)."""
        if test_mode or not destination.has_writing_limit:
            return None
        net = episode.forecast.net_helpful() if episode.forecast is not None else None
        return self.send_policy.decide(episode.id or 0, net)

    def forecast_hold(self, episode: Episode) -> str | None:
        """Why the forecast holds this note back from X (live, after admission), or None: the
        card then offers Submit anyway, as for a note the evaluator held. No store read."""
        found = self.destination_for(episode)
        if found is None:
            return None
        order = self.send_decision(episode, found[0], found[0].test_mode)
        return order.why if order is not None and order.held else None

    async def outranked(
        self, order: SendDecision | None, destination: NotesDestination
    ) -> str | None:
        """Why the note waits although a slot is open: queued notes the forecast ranks higher
        go first."""
        if order is None:
            return None
        ahead = 0
        for episode_id, _, test_mode in await self.log.queued():
            waiting = await self.episodes.get(episode_id)
            if waiting is None:
                continue
            theirs = self.send_decision(waiting, destination, test_mode)
            ahead += theirs is not None and theirs.rank() < order.rank()
        if not ahead:
            return None
        return f"{ahead} note(s) the forecast ranks higher wait for {destination.name} first"

    async def over_a_limit(self, destination: NotesDestination, test_mode: bool) -> str | None:
        """Why no submission to `destination` may go today (its daily cap; live on X, the
        writing limit X sets from the notes' ratings), counted over the last 24 h across every
        EvoNote process."""
        cap, to = destination.daily_cap, destination.key
        if await self.log.submitted_since(DAY_S, destination=to) >= cap:
            return (
                f"{destination.name}'s {cap} submissions a day are used up (the last 24 h, "
                "every process)"
            )
        if test_mode or not destination.has_writing_limit:
            return None  # X's writing limit applies to notes that are shown, after admission
        standing = await self.standing()
        live_today = await self.log.submitted_since(DAY_S, test_mode=False, destination=to)
        if live_today >= standing.writing_limit:
            return (
                f"today's writing limit is reached ({live_today} of {standing.writing_limit} "
                f"notes: {standing.limit_reason})"
            )
        return None

    async def standing(self) -> WriterStanding:
        """Where the writer stands with X (admission, the writing limit)."""
        return await writer_standing(self.log)

    async def writing_room(self) -> WritingRoom | None:
        """Today's writing limit and the live notes already sent (the last 24 h) or queued
        for it, where a destination sets one and is live; None otherwise (test mode: X's 250
        submissions a day are the only cap)."""
        for destination in self.destinations:
            if destination.has_writing_limit and not destination.test_mode:
                standing = await self.standing()
                queued = sum(not test_mode for _, _, test_mode in await self.log.queued())
                return WritingRoom(standing.writing_limit, standing.written_today + queued)
        return None

    def policy_record(
        self,
        episode: Episode,
        order: SendDecision | None,
        anyway: bool,
        scores: list[NoteEvaluation],
    ) -> dict[str, object]:
        """Why this note went when it did: kept with the submission, so outcomes on X can
        judge the policy (`x report`)."""
        now = datetime.now(UTC)
        age = age_h(episode.post, now)
        velocity = engagement_per_hour(episode.post, now)
        return {
            "order": "forecast" if order is not None else "first_come",
            "net_helpful": order.net if order is not None else None,
            # X's second aggregation on the same panel, for `x report` to judge beside it
            "gaussian_intercept": (
                episode.forecast.features.get("gaussian_intercept")
                if episode.forecast is not None
                else None
            ),
            "bar": self.send_policy.min_net_helpful if order is not None else None,
            "explore": bool(order is not None and order.explore),
            "anyway": anyway,
            "evaluator_score": scores[-1].claim_opinion_score if scores else None,
            "post_age_h": round(age, 2) if age is not None else None,
            "engagement_per_h": round(velocity, 2) if velocity is not None else None,
        }


async def writer_standing(log: SubmissionLog) -> WriterStanding:
    """Where the writer stands with X, today's notes counted as X counts them: the revisions
    sent after a note went out too (each a new note to X; without them the App Home and the
    cycle's room read one note low per revision)."""
    on_x = [s for s in await log.all() if s.destination == "x"]
    today = await log.submitted_since(DAY_S, test_mode=False, destination="x")
    return standing_of(on_x, written_today=today)
