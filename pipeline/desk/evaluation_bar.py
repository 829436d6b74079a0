"""The destination's evaluator before anything is sent: it scores the note; under the bar
(`min_claim_opinion`) the writer revises it with the score as feedback, at most
`max_revisions` times, each revision through every check a draft passes
(`pipeline.revision`). A revision that clears the bar replaces the note on the card and waits
for a moderator's approval (nobody approved its words yet); when none clears, the note is
held and the card says why — a moderator may still submit it anyway.

That bar is X's admission test, so it gates in test mode only. Live, after admission, the
evaluator's score is recorded (`recorded`) and never holds a note: the forecast decides
(`send_order`) — a gate on it "neither cost nor protected" for a live writer (AUC 0.67 for
helpful-if-rated, cn-return-bot; REFERENCE.md)."""

from __future__ import annotations

import dataclasses
from typing import Protocol

from pipeline.desk.destination import NotesDestination
from pipeline.desk.episode import Episode
from pipeline.desk.submission_log import (
    EvaluationVerdict,
    NoteBook,
    NoteEvaluation,
    SubmissionLog,
)
from pipeline.desk.submit_outcome import OutcomeKind, SubmissionOutcome
from pipeline.revision import NoteDraft, Revision, claim_opinion_feedback


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


class EvaluationBar:
    def __init__(
        self,
        episodes: NoteBook,
        log: SubmissionLog,
        reviser: NoteReviser,
        min_claim_opinion: float,
        max_revisions: int,
    ) -> None:
        self.episodes = episodes
        self.log = log
        self.reviser = reviser
        self.min_claim_opinion = min_claim_opinion
        self.max_revisions = max_revisions

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

    async def recorded(
        self, episode: Episode, destination: NotesDestination, post_id: str
    ) -> float:
        """Live, after admission: X's evaluator's score of the note as it stands, asked once
        per text and kept with the verdict `recorded` (the card shows it, the submission keeps
        it for `x report`); it holds nothing and asks for no revision."""
        note = episode.note_text
        assert note is not None
        earlier = [e for e in await self.log.evaluations(episode.id) if e.note_text == note]
        if earlier and earlier[-1].verdict != EvaluationVerdict.HELD:
            return earlier[-1].claim_opinion_score  # asked again: X is not asked again
        # held by the bar in test mode: the score stands, kept as recorded (the card no longer
        # says held), without asking X again
        score = (
            earlier[0].claim_opinion_score if earlier else await destination.evaluate(post_id, note)
        )
        await self.log.add_evaluation(
            NoteEvaluation(
                episode_id=episode.id,
                note_text=note,
                claim_opinion_score=score,
                verdict=EvaluationVerdict.RECORDED,
            )
        )
        return score

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
