"""Submitting an approved note to a notes destination, written once: X's Community Notes API
for posts on X, Open Community Notes for posts on Bluesky (`NotesDestination`).

What makes a note submittable lives here: approved, a note on a post a destination takes,
one note per post, the account's daily caps (counted from the database, so every process
shares them), a note X's own checks will pass. Before anything is sent the destination's
evaluator scores the note; under the bar (`min_claim_opinion`) the writer revises it with the
score as feedback, at most `max_revisions` times, each revision through every check a draft
passes (`pipeline.revision`). A revision that clears the bar replaces the note on the card
and waits for a moderator's approval (nobody approved its words yet); when none clears, the
note is held and the card says why — a moderator may still submit it anyway. Just before
sending, each link X would check is opened through the guarded reader. Over the writing
limit, the submission waits for the next day (`SubmissionQueue`), never refused at X.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, Field

from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.outcomes import live_outcome
from pipeline.desk.send_order import SendDecision, SendPolicy
from pipeline.desk.standing import WriterStanding, standing_of
from pipeline.drafting.note import link_like_tokens
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.post import Post
from pipeline.post_choice import age_h, engagement_per_hour
from pipeline.prompts import NoteClassification, classify_messages
from pipeline.revision import NoteDraft, Revision, claim_opinion_feedback
from pipeline.trajectory import EpisodeStatus

DAY_S = 24 * 3600


class SubmissionRefused(EvoNoteError):
    """The note may not be submitted (yet): the message says why and what to do."""


class WritingLimitReached(EvoNoteError):
    """The destination says today's writing limit is reached (X: HTTP 403
    `UsageCapExceeded`), whatever the desk's own count of it said: the note waits in the
    queue for the next slot."""


class EvaluatorOutcome(BaseModel):
    """One of X's evaluators on a written note (`test_result.evaluation_outcome`)."""

    evaluator_type: str
    evaluator_score_bucket: str


class WrittenNote(BaseModel):
    """A note the account wrote, as the destination lists it."""

    id: str
    post_id: str | None = None
    status: str | None = None
    evaluations: list[EvaluatorOutcome] = Field(default_factory=list)
    # raters' top Not Helpful tag per rater-factor bucket ("left: sources_missing_or_unreliable")
    not_helpful_tags: list[str] = Field(default_factory=list)


class EvaluationVerdict(StrEnum):
    """What the desk did with a note the destination's evaluator scored."""

    CLEARED = "cleared"
    REVISED = "revised"
    HELD = "held"


class OutcomeKind(StrEnum):
    """What became of a press of Submit."""

    SUBMITTED = "submitted"
    REVISED = "revised"
    HELD = "held"
    QUEUED = "queued"
    BUSY = "busy"


class NoteEvaluation(BaseModel):
    """One score of the destination's evaluator for one text of an episode's note."""

    episode_id: int
    note_text: str
    claim_opinion_score: float
    revision: int = 0  # 0: the note as approved; n: the writer's n-th revision
    verdict: EvaluationVerdict = EvaluationVerdict.CLEARED
    evaluated_at: datetime | None = None


class NotesDestination(Protocol):
    """Where approved notes go: X's Community Notes API, Open Community Notes on Bluesky."""

    key: str  # stored with each submission: "x", "bluesky"
    name: str  # for people: "X", "Open Community Notes"
    daily_cap: int  # submissions a day the destination takes from one account
    evaluates: bool  # it scores a note first, and a note must clear the bar
    has_writing_limit: bool  # live notes count against a daily limit set from their ratings
    test_mode: bool  # the configured mode (X's test mode; Bluesky's dry run)

    def takes(self, post: Post) -> str | None:
        """The id this destination knows the post by; None when the post is not its own."""
        ...

    async def evaluate(self, post_id: str, text: str) -> float: ...

    async def submit(
        self,
        post_id: str,
        text: str,
        *,
        classification: str,
        misleading_tags: list[str],
        sources: bool,
        test_mode: bool,
    ) -> str: ...

    async def notes_written(self, *, test_mode: bool) -> list[WrittenNote]: ...

    async def whoami(self) -> str:
        """Who the destination takes us for: one call that proves the credentials (doctor)."""
        ...


class LinkChecker(Protocol):
    async def opens(self, url: str) -> str | None:
        """None when the link answers HTTP 200 (through the guarded reader), else why not."""
        ...


class NoteReviser(Protocol):
    async def revise(self, draft: NoteDraft, feedback: str) -> Revision: ...


def note_draft(episode: Episode) -> NoteDraft:
    """A stored note as the reviser takes it: its prose (the URLs after it are its sources)."""
    return NoteDraft(
        post=episode.post,
        brief=episode.brief,
        evidence=list(episode.evidence),
        prose=(episode.note_text or "").split("\n\n")[0],
        cited_urls=list(episode.cited_urls),
    )


class SubmissionLog(Protocol):
    """Submissions, evaluations and the queue, in the database every process shares."""

    async def for_post(self, post_id: str) -> Submission | None: ...

    async def for_episode(self, episode_id: int) -> Submission | None: ...

    async def add(self, submission: Submission) -> Submission: ...

    async def all(self) -> list[Submission]: ...

    async def submitted_since(
        self, seconds: float, *, test_mode: bool | None = None, destination: str | None = None
    ) -> int: ...

    async def record_status(
        self,
        note_id: str,
        status: str | None,
        evaluations: list[dict[str, str]],
        not_helpful_tags: list[str] | None = None,
    ) -> bool: ...

    async def add_evaluation(self, evaluation: NoteEvaluation) -> None: ...

    async def evaluations(self, episode_id: int) -> list[NoteEvaluation]: ...

    async def queue(self, episode_id: int, by: str, test_mode: bool, why: str) -> None: ...

    async def queued(self) -> list[tuple[int, str, bool]]: ...

    async def queued_for(self, episode_id: int) -> str | None: ...

    async def card_records(self, episode_id: int, post_id: str | None) -> CardRecords: ...

    async def unqueue(self, episode_id: int) -> None: ...


class NoteBook(Protocol):
    """What the desk reads and changes of an episode (the `EpisodeRepository` has it)."""

    async def get(self, episode_id: int) -> Episode | None: ...

    async def revise_note(
        self, episode_id: int, note: str, urls: list[str], char_count: int
    ) -> Episode: ...


def sent_line(submission: Submission, to: str) -> str:
    """Where a note went, as cards and answers say it."""
    mode = "test mode" if submission.test_mode else "live"
    return f"Submitted to {to} as note {submission.note_id} ({mode})"


@dataclasses.dataclass(frozen=True)
class CardRecords:
    """What is stored of an episode that its card shows, read in one store call
    (`SubmissionLog.card_records`): its votes (X's raters' verdict among them), what was sent,
    why it waits, the evaluator's scores, and a note another episode sent on the same post."""

    votes: list[Vote] = dataclasses.field(default_factory=list)
    submission: Submission | None = None
    queued: str | None = None
    evaluations: list[NoteEvaluation] = dataclasses.field(default_factory=list)
    post_noted: Submission | None = None


@dataclasses.dataclass(frozen=True)
class SubmissionFacts:
    """What a card says of an episode's way to its notes destination, read at once
    (`SubmissionDesk.card_facts`): where it would go, what was sent, the evaluator's scores,
    why it waits or is held, and whether Submit is offered — decided where submitting is —
    with the votes the card counts, read in the same call."""

    votes: list[Vote] = dataclasses.field(default_factory=list)
    destination: str | None = None
    submission: Submission | None = None
    evaluations: list[NoteEvaluation] = dataclasses.field(default_factory=list)
    queued: str | None = None
    held_by: str | None = None
    can_submit: bool = False


class SubmissionOutcome(BaseModel):
    """What became of a press of Submit: sent, revised (approve the revision), held, or
    queued for the next day."""

    kind: OutcomeKind
    message: str
    submission: Submission | None = None


class SubmissionDesk:
    def __init__(
        self,
        episodes: NoteBook,
        log: SubmissionLog,
        destinations: Sequence[NotesDestination],
        model: ChatModel,
        reviser: NoteReviser,
        links: LinkChecker,
        *,
        min_claim_opinion: float = 0.7,
        max_revisions: int = 3,
        timeout_s: float = 60.0,
        send_policy: SendPolicy | None = None,
    ) -> None:
        self.episodes = episodes
        self.log = log
        self.destinations = list(destinations)
        self.model = model
        self.reviser = reviser
        self.links = links
        self.busy: set[int] = set()  # episodes being submitted here: a double click waits
        self.min_claim_opinion = min_claim_opinion
        self.max_revisions = max_revisions
        self.timeout_s = timeout_s
        self.send_policy = send_policy or SendPolicy()

    # ---- the use case ----------------------------------------------------------------------

    async def submit(
        self,
        episode_id: int,
        by: str,
        *,
        test_mode: bool | None = None,
        anyway: bool = False,
        from_queue: bool = False,
    ) -> SubmissionOutcome:
        """`test_mode` None: the destination's configured mode (EVONOTE_X__TEST_MODE,
        EVONOTE_BLUESKY__TEST_MODE), whatever front end submits; the CLI's `--live` passes
        False. `anyway`: a moderator overrides the evaluator's or the forecast's bar for a held
        note.
        `from_queue`: it passed the bar (or was overridden) when it was queued."""
        if episode_id in self.busy:  # a double click while X is asked: one submission
            return SubmissionOutcome(
                kind=OutcomeKind.BUSY,
                message="This note is being submitted already; wait for its card.",
            )
        self.busy.add(episode_id)
        try:
            return await self._submit(episode_id, by, test_mode, anyway, from_queue)
        finally:
            self.busy.discard(episode_id)

    async def _submit(
        self,
        episode_id: int,
        by: str,
        test_mode: bool | None,
        anyway: bool,
        from_queue: bool,
    ) -> SubmissionOutcome:
        episode, destination, post_id = await self.submittable(episode_id)
        test_mode = destination.test_mode if test_mode is None else test_mode
        to = destination.name
        if not from_queue and (why := await self.log.queued_for(episode_id)) is not None:
            return SubmissionOutcome(
                kind=OutcomeKind.QUEUED,
                message=f"Already queued for {to}: {why}. It is sent when a slot opens.",
            )
        note = episode.note_text
        assert note is not None
        if (
            destination.evaluates
            and not (anyway or from_queue)
            and (gate := await self.evaluated(episode, destination, post_id)) is not None
        ):
            return gate
        self.publishable(episode)
        for url in episode.cited_urls:
            if (why := await self.links.opens(url)) is not None:
                raise SubmissionRefused(
                    f"the source {url} does not open ({why}); a note must cite links that open "
                    "(X's own check fails it). Regenerate the note, or try again when the page "
                    "is back"
                )
        order = self.send_decision(episode, destination, test_mode)
        if order is not None and order.held and not anyway:
            return SubmissionOutcome(
                kind=OutcomeKind.HELD,
                message=f"Held, not sent: {order.why}. A moderator may Submit anyway.",
            )
        if not from_queue and (
            why := await self.over_a_limit(destination, test_mode)
            or await self.outranked(order, destination)
        ):
            await self.log.queue(episode_id, by, test_mode, why)
            return SubmissionOutcome(
                kind=OutcomeKind.QUEUED,
                message=f"Queued for {to}: {why}. It is sent when a slot opens.",
            )
        label = (
            await self.model.structured(
                classify_messages(episode.post.all_text(), note),
                NoteClassification,
                timeout_s=self.timeout_s,
            )
        ).value
        scores = [e for e in await self.log.evaluations(episode_id) if e.note_text == note]
        try:
            note_id = await destination.submit(
                post_id,
                note,
                classification=label.classification,
                misleading_tags=list(label.misleading_tags),
                sources=bool(episode.cited_urls),
                test_mode=test_mode,
            )
        except WritingLimitReached as e:
            await self.log.queue(episode_id, by, test_mode, str(e))
            return SubmissionOutcome(
                kind=OutcomeKind.QUEUED,
                message=f"Queued for {to}: {e}. It is sent when a slot opens.",
            )
        row = await self.log.add(
            Submission(
                episode_id=episode_id,
                post_id=post_id,
                note_id=note_id,
                test_mode=test_mode,
                classification=label.classification,
                misleading_tags=list(label.misleading_tags),
                claim_opinion_score=scores[-1].claim_opinion_score if scores else None,
                submitted_by=by,
                destination=destination.key,
                policy=self.policy_record(episode, order, anyway, scores),
            )
        )
        await self.log.unqueue(episode_id)
        return SubmissionOutcome(
            kind=OutcomeKind.SUBMITTED, message=f"{sent_line(row, to)}.", submission=row
        )

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

    async def card_facts(self, episode: Episode) -> SubmissionFacts:
        """Everything a card says of submitting the episode's note, and whether Submit is
        offered, in one store read: by the same rules `submit` applies (`submittable_with`: a
        post another episode's note went to offers none), so the card never offers what would
        be refused."""
        found = self.destination_for(episode)
        records = await self.log.card_records(episode.id, found[1] if found else None)
        can_submit = records.submission is None and records.queued is None
        if can_submit:
            try:
                self.submittable_with(episode, found, records.post_noted)
            except SubmissionRefused:
                can_submit = False
        return SubmissionFacts(
            votes=records.votes,
            destination=found[0].name if found is not None else None,
            submission=records.submission,
            evaluations=records.evaluations,
            queued=records.queued,
            held_by=self.forecast_hold(episode),
            can_submit=can_submit,
        )

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

    async def evaluated(
        self, episode: Episode, destination: NotesDestination, post_id: str
    ) -> SubmissionOutcome | None:
        """None when the note clears the evaluator's bar (scored now, or earlier for the same
        text); else what the desk did: a revision that clears it, or the note held."""
        note = episode.note_text
        assert note is not None
        history = await self.log.evaluations(episode.id)
        earlier = [e for e in history if e.note_text == note]
        if earlier and earlier[-1].claim_opinion_score >= self.min_claim_opinion:
            return None  # this text was scored already (a revision, now approved)
        if (
            earlier and earlier[-1].verdict == EvaluationVerdict.HELD
        ):  # asked again: X is not asked again
            return self.held(earlier[0].claim_opinion_score, earlier[-1].claim_opinion_score)
        revisions = sum(1 for e in history if e.revision > 0)
        first = best = await self.score(destination, episode.id, post_id, note, revisions)
        if first >= self.min_claim_opinion:
            return None
        tried, last, draft = 0, first, note_draft(episode)
        while tried < self.max_revisions:
            tried += 1
            revision = await self.reviser.revise(
                draft, claim_opinion_feedback(last, self.min_claim_opinion)
            )
            if revision.note is None:
                continue  # a revision that failed a check is never scored or shown
            last = await self.score(
                destination, episode.id, post_id, revision.note, revisions + tried
            )
            score, best = last, max(best, last)
            # the next revision starts from this one, as a writer revises its own draft
            draft = dataclasses.replace(
                draft, prose=revision.note.split("\n\n")[0], cited_urls=revision.urls
            )
            if score >= self.min_claim_opinion:
                await self.episodes.revise_note(
                    episode.id,
                    revision.note,
                    revision.urls,
                    revision.char_count,
                )
                return SubmissionOutcome(
                    kind=OutcomeKind.REVISED,
                    message=(
                        f"X's evaluator scored the approved note {first:.2f}, under the bar of "
                        f"{self.min_claim_opinion:.2f}; revision "
                        f"{tried} scored {score:.2f} and is now the card's note. Approve it to "
                        "submit it."
                    ),
                )
        await self.log.add_evaluation(
            NoteEvaluation(
                episode_id=episode.id,
                note_text=note,
                claim_opinion_score=best,
                revision=0,
                verdict=EvaluationVerdict.HELD,
            )
        )
        return self.held(first, best)

    def held(self, first: float, best: float) -> SubmissionOutcome:
        return SubmissionOutcome(
            kind=OutcomeKind.HELD,
            message=(
                f"Held, not sent: X's evaluator scores the note {first:.2f}, under the bar of "
                f"{self.min_claim_opinion:.2f} (EVONOTE_X__MIN_CLAIM_OPINION), and "
                f"{self.max_revisions} revision(s) did not clear it (best {best:.2f}). A "
                "moderator may Submit anyway."
            ),
        )

    async def score(
        self, destination: NotesDestination, episode_id: int, post_id: str, text: str, revision: int
    ) -> float:
        score = await destination.evaluate(post_id, text)
        cleared = score >= self.min_claim_opinion
        await self.log.add_evaluation(
            NoteEvaluation(
                episode_id=episode_id,
                note_text=text,
                claim_opinion_score=score,
                revision=revision,
                verdict=EvaluationVerdict.CLEARED if cleared else EvaluationVerdict.REVISED,
            )
        )
        return score

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

    # ---- what X has of the notes ---------------------------------------------------------

    async def submission(self, episode_id: int) -> Submission | None:
        return await self.log.for_episode(episode_id)

    async def evaluations(self, episode_id: int) -> list[NoteEvaluation]:
        return await self.log.evaluations(episode_id)

    async def waiting(self, episode_id: int) -> str | None:
        """Why the episode's submission waits in the queue, when it does."""
        return await self.log.queued_for(episode_id)

    async def sync(self) -> int:
        """Store every status change of the notes written; returns how many changed."""
        changed = 0
        for destination in self.destinations:
            for note in await destination.notes_written(test_mode=destination.test_mode):
                evaluations = [e.model_dump() for e in note.evaluations]
                changed += await self.log.record_status(
                    note.id, note.status, evaluations, note.not_helpful_tags
                )
        return changed

    async def live_outcome(self) -> str | None:
        """What became of the live notes on X, in one line (`pipeline.desk.outcomes`)."""
        return live_outcome(await self.log.all())

    async def standing(self) -> WriterStanding:
        """Where the writer stands with X (admission, the writing limit)."""
        return standing_of([s for s in await self.log.all() if s.destination == "x"])

    async def destination_name(self, episode: Episode) -> str | None:
        """Where the episode's note would go (the card's Submit button names it)."""
        found = self.destination_for(episode)
        return found[0].name if found is not None else None

    async def send_queued(self) -> list[SubmissionOutcome]:
        """The queued submissions while the limits allow (the scheduler's `submit_queued`
        job): those X's writing limit orders in forecast order (`SendDecision.rank`), the
        rest oldest first."""
        waiting = []
        for position, (episode_id, by, test_mode) in enumerate(await self.log.queued()):
            episode = await self.episodes.get(episode_id)
            found = self.destination_for(episode) if episode is not None else None
            order = (
                self.send_decision(episode, found[0], test_mode)
                if episode is not None and found is not None
                else None
            )
            rank = order.rank() if order is not None else (2, 0.0)
            waiting.append((rank, position, episode_id, by, test_mode, found))
        sent = []
        for _, _, episode_id, by, test_mode, found in sorted(waiting, key=lambda w: w[:2]):
            if found is not None and await self.over_a_limit(found[0], test_mode) is not None:
                continue  # its destination's slot is not open yet
            try:
                outcome = await self.submit(episode_id, by, test_mode=test_mode, from_queue=True)
            except SubmissionRefused:  # no longer submittable (or its source is down)
                outcome = None
            if outcome is not None and outcome.kind == OutcomeKind.QUEUED:
                break  # the destination says its limit is reached: these wait for a later run
            if outcome is not None:
                sent.append(outcome)
            await self.log.unqueue(episode_id)
        return sent
