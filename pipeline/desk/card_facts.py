"""What a card says of an episode's way to its notes destination, and whether it offers
Submit, read in one store call and decided by the rules `submit` applies (`SendRules`), so
the card never offers what would be refused."""

from __future__ import annotations

import dataclasses

from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.revision_log import LateRevision
from pipeline.desk.send_rules import SendRules
from pipeline.desk.submission_log import NoteEvaluation, SubmissionLog
from pipeline.desk.submit_outcome import SubmissionRefused


def sent_line(submission: Submission, to: str) -> str:
    """Where a note went, as cards and answers say it."""
    mode = "test mode" if submission.test_mode else "live"
    return f"Submitted to {to} as note {submission.note_id} ({mode})"


@dataclasses.dataclass(frozen=True)
class SubmissionFacts:
    """What a card says of an episode's way to its notes destination, read at once
    (`SubmissionDesk.card_facts`): where it would go, what was sent, the evaluator's scores,
    why it waits or is held, and whether Submit is offered — decided where submitting is —
    with the votes the card counts and the note's revisions after it went out, read in the
    same call."""

    votes: list[Vote] = dataclasses.field(default_factory=list)
    destination: str | None = None
    submission: Submission | None = None
    evaluations: list[NoteEvaluation] = dataclasses.field(default_factory=list)
    queued: str | None = None
    held_by: str | None = None
    can_submit: bool = False
    revisions: list[LateRevision] = dataclasses.field(default_factory=list)


async def card_facts(rules: SendRules, log: SubmissionLog, episode: Episode) -> SubmissionFacts:
    """Everything a card says of submitting the episode's note, and whether Submit is
    offered, in one store read: by the same rules `submit` applies (`submittable_with`: a
    post another episode's note went to offers none)."""
    found = rules.destination_for(episode)
    records = await log.card_records(episode.id, found[1] if found else None)
    can_submit = records.submission is None and records.queued is None
    if can_submit:
        try:
            rules.submittable_with(episode, found, records.post_noted)
        except SubmissionRefused:
            can_submit = False
    return SubmissionFacts(
        votes=records.votes,
        destination=found[0].name if found is not None else None,
        submission=records.submission,
        evaluations=records.evaluations,
        queued=records.queued,
        held_by=rules.forecast_hold(episode),
        can_submit=can_submit,
        # of this episode's own note: another episode's on the same post is not its
        revisions=[r for r in records.revisions if r.episode_id == episode.id],
    )
