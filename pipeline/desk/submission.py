"""Submitting an approved note to a notes destination, written once: X's Community Notes API
for posts on X, Open Community Notes for posts on Bluesky (`NotesDestination`).

The use case, in order: what may be sent and where (`SendRules`), the destination's
evaluator and the writer's revisions (`EvaluationBar`: a gate in test mode, a score recorded
live), each cited link opened through the guarded reader just before sending, the forecast's
order and the daily limits (`SendRules` again). Over the writing limit, the submission waits
for the next day (`SubmissionQueue`), never refused at X. What a card says of it is `card_facts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pipeline.desk.card_facts import SubmissionFacts, card_facts, sent_line
from pipeline.desk.destination import NotesDestination, WithdrawsNotes, WritingLimitReached
from pipeline.desk.episode import Episode, Submission
from pipeline.desk.evaluation_bar import EvaluationBar, NoteReviser
from pipeline.desk.outcomes import live_outcome
from pipeline.desk.send_order import SendPolicy
from pipeline.desk.send_rules import SendRules, WritingRoom
from pipeline.desk.standing import WriterStanding
from pipeline.desk.submission_log import NoteBook, NoteEvaluation, SubmissionLog
from pipeline.desk.submit_outcome import OutcomeKind, SubmissionOutcome, SubmissionRefused
from pipeline.desk.withdrawal import to_withdraw
from pipeline.ports import ChatModel
from pipeline.prompts import NoteClassification, classify_messages


class LinkChecker(Protocol):
    async def opens(self, url: str) -> str | None:
        """None when the link answers HTTP 200 (through the guarded reader), else why not."""
        ...


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
        self.model = model
        self.links = links
        self.busy: set[int] = set()  # episodes being submitted here: a double click waits
        self.timeout_s = timeout_s
        self.rules = SendRules(episodes, log, destinations, send_policy or SendPolicy())
        self.bar = EvaluationBar(episodes, log, reviser, min_claim_opinion, max_revisions)

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
        rules = self.rules
        episode, destination, post_id = await rules.submittable(episode_id)
        test_mode = destination.test_mode if test_mode is None else test_mode
        to = destination.name
        if not from_queue and (why := await self.log.queued_for(episode_id)) is not None:
            return SubmissionOutcome(
                kind=OutcomeKind.QUEUED,
                message=f"Already queued for {to}: {why}. It is sent when a slot opens.",
            )
        note = episode.note_text
        assert note is not None
        # live after admission: the forecast's order and bar; None in test mode (and where no
        # writing limit orders notes), where X's evaluator's bar decides admission
        order = rules.send_decision(episode, destination, test_mode)
        if destination.evaluates and not (anyway or from_queue):
            if order is not None:
                await self.bar.recorded(episode, destination, post_id)  # shown, never a gate
            elif (gate := await self.bar.evaluated(episode, destination, post_id)) is not None:
                return gate
        rules.publishable(episode)
        for url in episode.cited_urls:
            if (why := await self.links.opens(url)) is not None:
                raise SubmissionRefused(
                    f"the source {url} does not open ({why}); a note must cite links that open "
                    "(X's own check fails it). Regenerate the note, or try again when the page "
                    "is back"
                )
        if order is not None and order.held and not anyway:
            return SubmissionOutcome(
                kind=OutcomeKind.HELD,
                message=f"Held, not sent: {order.why}. A moderator may Submit anyway.",
            )
        if not from_queue and (
            why := await rules.over_a_limit(destination, test_mode)
            or await rules.outranked(order, destination)
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
                policy=rules.policy_record(episode, order, anyway, scores),
            )
        )
        await self.log.unqueue(episode_id)
        return SubmissionOutcome(
            kind=OutcomeKind.SUBMITTED, message=f"{sent_line(row, to)}.", submission=row
        )

    async def send_queued(self) -> list[SubmissionOutcome]:
        """The queued submissions while the limits allow (the scheduler's `submit_queued`
        job): those X's writing limit orders in forecast order (`SendDecision.rank`), the
        rest oldest first."""
        rules = self.rules
        waiting = []
        for position, (episode_id, by, test_mode) in enumerate(await self.log.queued()):
            episode = await self.episodes.get(episode_id)
            found = rules.destination_for(episode) if episode is not None else None
            order = (
                rules.send_decision(episode, found[0], test_mode)
                if episode is not None and found is not None
                else None
            )
            rank = order.rank() if order is not None else (2, 0.0)
            waiting.append((rank, position, episode_id, by, test_mode, found))
        sent = []
        for _, _, episode_id, by, test_mode, found in sorted(waiting, key=lambda w: w[:2]):
            if found is not None and await rules.over_a_limit(found[0], test_mode) is not None:
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

    # ---- what the destinations have of the notes -----------------------------------------

    async def card_facts(self, episode: Episode) -> SubmissionFacts:
        """Everything a card says of submitting the episode's note (`card_facts`)."""
        return await card_facts(self.rules, self.log, episode)

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
        for destination in self.rules.destinations:
            for note in await destination.notes_written(test_mode=destination.test_mode):
                evaluations = [e.model_dump() for e in note.evaluations]
                ratings = note.ratings.model_dump() if note.ratings is not None else None
                changed += await self.log.record_status(
                    note.id, note.status, evaluations, note.not_helpful_tags, ratings
                )
        return changed

    async def withdraw_failing(self) -> list[str]:
        """Withdraw our live notes whose early ratings predict Not Helpful, by X's own
        writer's rules (`pipeline.desk.withdrawal`): a line for each note withdrawn and each
        safeguard that tripped. Safe to run again after a kill: a note deleted at X but not
        yet recorded here is asked again, and X's "not found" counts as withdrawn."""
        decided = to_withdraw(await self.log.all())
        lines = list(decided.tripped)
        for submission, why in decided.notes:
            destination = next(
                (d for d in self.rules.destinations if d.key == submission.destination), None
            )
            if not isinstance(destination, WithdrawsNotes):
                continue
            await destination.withdraw(submission.note_id)
            await self.log.mark_withdrawn(submission.note_id)
            lines.append(
                f"withdrew {destination.name} note {submission.note_id} (episode "
                f"{submission.episode_id}): early ratings predict Not Helpful ({why})"
            )
        return lines

    async def live_outcome(self) -> str | None:
        """What became of the live notes on X, in one line (`pipeline.desk.outcomes`)."""
        return live_outcome(await self.log.all())

    async def standing(self) -> WriterStanding:
        """Where the writer stands with X (admission, the writing limit)."""
        return await self.rules.standing()

    async def writing_room(self) -> WritingRoom | None:
        """Today's writing limit live on X and how much is spent; None in test mode."""
        return await self.rules.writing_room()

    async def destination_name(self, episode: Episode) -> str | None:
        """Where the episode's note would go (the card's Submit button names it)."""
        found = self.rules.destination_for(episode)
        return found[0].name if found is not None else None
