"""Approved notes go to X's Community Notes API; their later status comes back.

Only an approved episode (a moderator pressed Approve) whose post is on X can be submitted,
once per post, in test mode unless asked otherwise. The model labels the note with X's
classification and tags; the API's claim-opinion score is stored with the submission.
"""

from __future__ import annotations

from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import DAY_S, SUBMISSIONS_PER_DAY, CommunityNotesApi
from pipeline.desk.episode import Submission
from pipeline.desk.ports import EpisodeRepository
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatModel
from pipeline.prompts import NoteClassification, classify_messages
from pipeline.trajectory import EpisodeStatus


class SubmissionRefused(EvoNoteError):
    pass


class NoteSubmitter:
    def __init__(
        self,
        episodes: EpisodeRepository,
        submissions: SubmissionStore,
        api: CommunityNotesApi,
        model: ChatModel,
        timeout_s: float = 60.0,
        test_mode: bool = True,
    ) -> None:
        self.episodes = episodes
        self.submissions = submissions
        self.api = api
        self.model = model
        self.timeout_s = timeout_s
        self.test_mode = test_mode  # EVONOTE_X__TEST_MODE: whatever front end submits

    async def submit(
        self, episode_id: int, by: str, *, test_mode: bool | None = None
    ) -> Submission:
        """`test_mode` None: the configured mode (chat's Submit to X); the CLI's `--live`
        passes False."""
        test_mode = self.test_mode if test_mode is None else test_mode
        row = await self.episodes.get(episode_id)
        if row is None:
            raise SubmissionRefused(f"there is no episode {episode_id}")
        if row.status != EpisodeStatus.NOTED or not row.note_text:
            raise SubmissionRefused(f"episode {episode_id} has no note ({row.status})")
        if not row.approved_by:
            raise SubmissionRefused(
                f"episode {episode_id} is not approved: a moderator must "
                "approve the note before it is submitted"
            )
        post = row.post
        if not post.post_id:
            raise SubmissionRefused(f"episode {episode_id} was not about a post on X")
        if (earlier := await self.submissions.for_post(post.post_id)) is not None:
            raise SubmissionRefused(
                f"post {post.post_id} already has a note from EvoNote (X note {earlier.note_id})"
            )
        # X's daily cap is the account's: counted from the database, whichever process (a
        # gateway, a worker, the CLI) submitted, not per process
        if await self.submissions.submitted_since(DAY_S) >= SUBMISSIONS_PER_DAY:
            raise SubmissionRefused(
                f"X's {SUBMISSIONS_PER_DAY} submissions a day are used up (counted over the last "
                "24 h, across every EvoNote process); try again later"
            )
        label = (
            await self.model.structured(
                classify_messages(post.all_text(), row.note_text),
                NoteClassification,
                timeout_s=self.timeout_s,
            )
        ).value
        score = await self.api.evaluate(post.post_id, row.note_text)
        note_id = await self.api.submit(
            post.post_id,
            row.note_text,
            classification=label.classification,
            misleading_tags=list(label.misleading_tags),
            sources=bool(row.cited_urls),
            test_mode=test_mode,
        )
        return await self.submissions.add(
            Submission(
                episode_id=episode_id,
                post_id=post.post_id,
                note_id=note_id,
                test_mode=test_mode,
                classification=label.classification,
                misleading_tags=list(label.misleading_tags),
                claim_opinion_score=score,
                submitted_by=by,
            )
        )

    async def submission(self, episode_id: int) -> Submission | None:
        """What X has of the episode's note, once submitted."""
        return await self.submissions.for_episode(episode_id)

    async def sync(self, *, test_mode: bool = True) -> int:
        """Store every status change of the notes written; returns how many changed."""
        changed = 0
        for note in await self.api.notes_written(test_mode=test_mode):
            changed += await self.submissions.record_status(note.id, note.status, note.evaluations)
        return changed
