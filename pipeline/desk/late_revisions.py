"""Our notes looked at again after they went out: at about 1 h and 3 h after submission, the
post is researched again by the episode's own pipeline (its budget and deadline), and the new
draft is kept only when it adds evidence (`late_revision_rules`), as X's own writer does.

X's API cannot edit a note: `POST /2/notes` writes one, `DELETE /2/notes/{id}` withdraws one,
and an account writes one note per post (REFERENCE.md). X's writer sends a revision as a new
note from another of its enrolled accounts, beside the first; one phone number makes one AI
Note Writer, so ours withdraws the note it replaces, then writes the revision as a new note.
The revision is a new note to X: it costs a slot of the day's writing limit (a withdrawn note
still counts, X's `community-writer.md`), and its ratings start again. Where there is no room
today, the revision is dropped: a new post's note comes first.

Kill-safe and idempotent: the decision is stored before anything is sent, one per note and
window (`RevisionLog.decide_revision`); a kept revision is marked `replacing` before the old
note is withdrawn, and from then on every run finishes it: it asks X which notes we have on the
post first, adopts a new one it finds (sent before a kill, not yet recorded), else withdraws
the old note (asked twice it is withdrawn once) and writes the new one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

from pipeline.desk.destination import NotesDestination, WithdrawsNotes, WritingLimitReached
from pipeline.desk.episode import Episode, Submission
from pipeline.desk.late_revision_rules import (
    RevisionWindow,
    adds_evidence,
    due_window,
    revisable,
)
from pipeline.desk.revision_log import LateRevision, RevisionLog, RevisionState
from pipeline.desk.send_rules import SendRules
from pipeline.desk.submission_log import NoteBook, SubmissionLog
from pipeline.desk.submit_outcome import SubmissionRefused
from pipeline.errors import EvoNoteError, ModelTimeout, ModelUnavailable, StorageUnavailable
from pipeline.post import Post
from pipeline.trajectory import EpisodeOutcome

log = logging.getLogger(__name__)

# A revision X refused this many times is given up (its reason kept): a refusal that lasts
# is X's word on the post, not a hiccup.
MAX_REFUSALS = 3


class Researcher(Protocol):
    """The episode's pipeline (`pipeline.episode.EpisodeRunner`): research and draft a post."""

    async def run(self, post: Post) -> EpisodeOutcome: ...


class LinkChecker(Protocol):
    async def opens(self, url: str) -> str | None: ...


class LateRevisions:
    def __init__(
        self,
        episodes: NoteBook,
        log: SubmissionLog,
        revisions: RevisionLog,
        rules: SendRules,
        links: LinkChecker,
        research: Researcher,
        windows: tuple[RevisionWindow, ...],
        *,
        research_timeout_s: float,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """`research_timeout_s`: the most one post's research may take (the episode's own
        deadline is kept inside it; this bounds a hung run)."""
        self.episodes = episodes
        self.log = log
        self.revisions = revisions
        self.rules = rules
        self.links = links
        self.research = research
        self.windows = windows
        self.research_timeout_s = research_timeout_s
        self.clock = clock

    async def run(self) -> list[str]:
        """One pass (the scheduler's `revise_sent_notes` job): first the revisions a kill left
        on the way, then each note of ours in a window it was not looked at in. A line for
        each revision sent, dropped, failed or waiting."""
        lines = await self._finish_pending()
        now = self.clock()
        for submission in await self.log.all():
            if revisable(submission) and (window := due_window(submission, self.windows, now)):
                lines += await self._look_again(submission, window, now)
        return lines

    # ---- deciding ------------------------------------------------------------------------

    async def _look_again(
        self, submission: Submission, window: RevisionWindow, now: datetime
    ) -> list[str]:
        earlier = await self.revisions.late_revisions(submission.post_id)
        if any(r.window == window.name for r in earlier):
            return []  # looked at in this window already: one revision per window
        destination = self._destination(submission)
        episode = await self.episodes.get(submission.episode_id)
        if destination is None or episode is None or episode.note_text is None:
            return []
        sent = [r for r in earlier if r.state == RevisionState.SENT]
        cited_before = sent[-1].cited_urls if sent else episode.cited_urls
        what = f"note {submission.note_id} (episode {episode.id}) at {window.name}"
        try:
            async with asyncio.timeout(self.research_timeout_s):
                outcome: EpisodeOutcome | None = await self.research.run(episode.post)
        except (ModelUnavailable, ModelTimeout, StorageUnavailable, TimeoutError) as e:
            # nothing stored: the next run tries again while the window is open
            return [f"revision of {what} waits: {str(e) or 'the research ran out of time'}"]
        except EvoNoteError as e:
            outcome, why = None, f"the new research failed: {e}"
        added: list[str] = []
        if outcome is not None:
            added, why = self._judged(episode, outcome, cited_before)
        decided = await self.revisions.decide_revision(
            LateRevision(
                episode_id=episode.id,
                post_id=submission.post_id,
                window=window.name,
                replaces_note_id=submission.note_id,
                test_mode=submission.test_mode,
                state=RevisionState.DECIDED if added else RevisionState.DROPPED,
                reason=why,
                note_text=outcome.note if outcome is not None else None,
                cited_urls=list(outcome.urls) if outcome is not None else [],
                added_sources=added,
                decided_at=now,
            )
        )
        if decided is None:
            return []  # decided meanwhile by another run
        if decided.state == RevisionState.DROPPED:
            return [f"revision of {what} dropped: {why}"]
        return [await self._send(decided, submission, destination)]

    def _judged(
        self, episode: Episode, outcome: EpisodeOutcome, cited_before: list[str]
    ) -> tuple[list[str], str]:
        """The new sources of standing the draft adds (none: dropped), and why."""
        verdict = adds_evidence(outcome, episode.post, cited_before)
        if not verdict.kept:
            return [], verdict.why
        # X's URL evaluator takes every domain-like token for a link that must open
        draft = episode.model_copy(update={"note_text": outcome.note, "cited_urls": outcome.urls})
        try:
            self.rules.publishable(draft)
        except SubmissionRefused as e:
            return [], f"the new draft may not go to X: {e}"
        return verdict.added, verdict.why

    def _destination(self, submission: Submission) -> NotesDestination | None:
        """Where the note is, when it can withdraw the note a revision replaces (X)."""
        for destination in self.rules.destinations:
            if destination.key == submission.destination:
                return destination if isinstance(destination, WithdrawsNotes) else None
        return None

    # ---- sending -------------------------------------------------------------------------

    async def _finish_pending(self) -> list[str]:
        lines = []
        for revision in await self.revisions.late_revisions():
            if revision.state not in (RevisionState.DECIDED, RevisionState.REPLACING):
                continue
            submission = await self.log.for_post(revision.post_id)
            destination = self._destination(submission) if submission is not None else None
            if submission is None or destination is None:
                continue
            lines.append(await self._send(revision, submission, destination))
        return lines

    async def _send(
        self, revision: LateRevision, submission: Submission, destination: NotesDestination
    ) -> str:
        assert revision.id is not None
        assert revision.note_text is not None
        what = f"revision at {revision.window} of note {revision.replaces_note_id}"
        if revision.state == RevisionState.DECIDED:
            if why := await self._cannot_go(revision, destination):
                await self.revisions.move_revision(revision.id, RevisionState.DROPPED, why)
                return f"{what} dropped: {why}"
            await self.revisions.move_revision(revision.id, RevisionState.REPLACING)
        found = await self._sent_before(revision, destination)
        if found is not None:  # written by a run that stopped before recording it
            await self.revisions.revision_sent(revision.id, found)
            return f"{what} found on {destination.name} as note {found} after a restart"
        assert isinstance(destination, WithdrawsNotes)
        try:
            await destination.withdraw(revision.replaces_note_id)
            note_id = await destination.submit(
                revision.post_id,
                revision.note_text,
                classification=submission.classification,
                misleading_tags=list(submission.misleading_tags),
                sources=bool(revision.cited_urls),
                test_mode=revision.test_mode,
            )
        except StorageUnavailable:
            raise
        except WritingLimitReached as e:  # X's own count: the next run, not a refusal
            return f"{what} waits for {destination.name}'s writing limit ({e})"
        except EvoNoteError as e:
            refusals = await self.revisions.count_refusal(revision.id, str(e))
            if refusals >= MAX_REFUSALS:
                await self.revisions.move_revision(revision.id, RevisionState.FAILED, str(e))
                return (
                    f"{what} failed: {destination.name} refused it {refusals} times ({e}); "
                    f"the note it replaces was withdrawn, so post {revision.post_id} has no "
                    "note of ours"
                )
            return f"{what} not sent yet ({e}): tried again next run"
        await self.revisions.revision_sent(revision.id, note_id)
        mode = "test mode" if revision.test_mode else "live"
        return (
            f"{what} sent to {destination.name} as note {note_id} ({mode}), replacing it: "
            f"{revision.reason}"
        )

    async def _cannot_go(self, revision: LateRevision, destination: NotesDestination) -> str:
        """Why a kept revision may not go now ('' when it may): no room in today's limits (a
        new post's note comes first), or a cited source that does not open."""
        if why := await self.rules.over_a_limit(destination, revision.test_mode):
            return f"no room for it: {why}"
        for url in revision.cited_urls:
            if (why := await self.links.opens(url)) is not None:
                return f"the source {url} does not open ({why})"
        return ""

    async def _sent_before(
        self, revision: LateRevision, destination: NotesDestination
    ) -> str | None:
        """A note of ours on the revision's post that none of our records names: the revision,
        written before a kill and not recorded."""
        on_post = await self.revisions.late_revisions(revision.post_id)
        known = {r.replaces_note_id for r in on_post} | {r.note_id for r in on_post if r.note_id}
        for note in await destination.notes_written(test_mode=revision.test_mode):
            if note.post_id == revision.post_id and note.id not in known:
                return note.id
        return None
