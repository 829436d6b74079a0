"""The note service: every entry point (CLI, Slack, Discord, X scans) goes through here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from pipeline.desk.admission import (
    DEFAULT_SLOW_CALL_S,
    DEFAULT_WORKERS,
    AdmissionGate,
    GateClosed,
    priority_of,
)
from pipeline.desk.episode import Episode, FailureKind
from pipeline.desk.ports import EpisodeRepository, PastNotes
from pipeline.desk.posts import PostResolver, read_post_file
from pipeline.episode import EpisodeRunner
from pipeline.errors import (
    DuplicateRequest,
    EvoNoteError,
    InvalidPostInput,
    ModelOutputInvalid,
    ModelTimeout,
    ModelUnavailable,
    PostUnavailable,
    StorageUnavailable,
)
from pipeline.forecast.panel import PersonaPanel
from pipeline.ports import MemoryMode
from pipeline.post import MAX_OUR_NOTES_ON_AUTHOR, Post
from pipeline.request import NoteRequest
from pipeline.trajectory import (
    EpisodeOutcome,
    EpisodeStatus,
    Progress,
    ProgressListener,
    StepRecord,
)

log = logging.getLogger(__name__)

REQUEUED_AT_SHUTDOWN = (
    "requeued: EvoNote was stopped before this episode finished; it runs again when EvoNote is back"
)
REQUEUED_AFTER_STORAGE = (
    "requeued: the database was unavailable while this episode ran; it runs again now"
)
TIMEOUT_ATTEMPTS = 3  # runs of one episode whose model call timed out before it is failed


def failure_kind(error: BaseException) -> FailureKind:
    """What kind of failure an error is; a rejected input is the requester's, not ours."""
    if isinstance(error, InvalidPostInput | PostUnavailable):
        return FailureKind.INPUT
    if isinstance(error, ModelUnavailable | ModelTimeout):
        # a hung call is the server's state, not the answer's fault
        return FailureKind.MODEL_UNAVAILABLE
    if isinstance(error, ModelOutputInvalid):
        return FailureKind.MODEL_OUTPUT
    return FailureKind.INTERNAL


class EpisodeFailed(Exception):
    """The episode ended as `failed`; `cause` says why, `episode` is the stored record."""

    def __init__(self, episode: Episode, cause: BaseException) -> None:
        super().__init__(episode.failure_reason or str(cause))
        self.episode = episode
        self.cause = cause


class _StoreJournal:
    def __init__(self, store: EpisodeRepository, episode_id: int) -> None:
        self.store = store
        self.episode_id = episode_id

    async def record(self, *steps: StepRecord) -> None:
        await self.store.record_steps(self.episode_id, steps)


class NoteService:
    def __init__(
        self,
        *,
        store: EpisodeRepository,
        posts: PostResolver,
        runner: EpisodeRunner,
        worker_id: str,
        memory_mode: MemoryMode = MemoryMode.OFF,
        panel: PersonaPanel | None = None,
        on_finished: Callable[[Episode], None] | None = None,
        lease_s: float | None = None,
        gate: AdmissionGate | None = None,
        past_notes: PastNotes | None = None,
    ) -> None:
        self.past_notes = past_notes
        self.gate = gate or AdmissionGate(DEFAULT_WORKERS, slow_call_s=DEFAULT_SLOW_CALL_S)
        self._inflight: dict[int, asyncio.Task[EpisodeOutcome]] = {}
        # Episodes this process was running when the database went away: handed back to the
        # queue as soon as it answers again, not left `running` until their lease runs out.
        self._unreleased: set[int] = set()
        self._stopping = False
        self._all_settled = asyncio.Event()
        self._all_settled.set()
        self.on_finished = on_finished
        self.store = store
        self.posts = posts
        self.runner = runner
        self.worker_id = worker_id
        self.memory_mode = memory_mode
        self.panel = panel
        # A lease outlives any healthy episode; one still running past it has lost its worker.
        self.lease_s = lease_s or runner.budget.deadline_s * 2 + 60

    async def enqueue(self, request: NoteRequest) -> Episode:
        """Persist the request as a queued episode; bad input is recorded as failed.
        A request whose key was seen before returns that episode (retries, double clicks)."""
        if request.key and (seen := await self.store.by_request_key(request.key)) is not None:
            return seen
        try:
            return await self._store_new(request)
        except DuplicateRequest:  # stored meanwhile by a delivery of the same request
            assert request.key is not None
            seen = await self.store.by_request_key(request.key)
            assert seen is not None
            return seen

    async def _store_new(self, request: NoteRequest) -> Episode:
        """Resolve the post and store the episode; DuplicateRequest when its key is taken."""
        try:
            if request.post_file is not None:
                post = await asyncio.to_thread(read_post_file, Path(request.post_file))
            else:
                post = await self.posts.resolve(request.post_ref)
        except EvoNoteError as e:
            row = await self.store.create(request, Post(text=""), self.memory_mode)
            raise EpisodeFailed(await self.store.fail(row.id, str(e), failure_kind(e)), e) from e
        return await self.store.create(request, post, self.memory_mode)

    async def enqueue_post(self, request: NoteRequest, post: Post) -> Episode | None:
        """Queue an already fetched post (a watchlist scan); None when its key was seen."""
        if request.key and await self.store.by_request_key(request.key) is not None:
            return None
        try:
            return await self.store.create(request, post, self.memory_mode)
        except DuplicateRequest:
            return None

    async def enqueue_once(self, request: NoteRequest) -> Episode | None:
        """Like `enqueue`, but None when the request's key was seen before — also when two
        deliveries of the same event race (the database's unique key decides)."""
        if request.key and await self.store.by_request_key(request.key) is not None:
            return None
        try:
            return await self._store_new(request)  # never `enqueue`: it returns the stored one
        except DuplicateRequest:
            return None

    async def asked_before(self, key: str) -> Episode | None:
        """The episode stored for a request key (a retried event, a second click)."""
        return await self.store.by_request_key(key)

    async def card_placed(self, episode_id: int, message_id: str) -> None:
        """Remember where the episode's card is, so a worker in another process edits it."""
        await self.store.set_reply_message(episode_id, message_id)

    async def recover(
        self,
        max_attempts: int,
        queued_for_s: float,
        progress_for: Callable[[Episode], ProgressListener | None] | None = None,
        finished: Callable[[Episode], Awaitable[None]] | None = None,
    ) -> list[int]:
        """Requeue episodes whose worker died, then run every episode left waiting longer
        than `queued_for_s` (one a front end has just queued is still its own to run) and
        every one run before (requeued at shutdown: after a quick restart it runs at once),
        as many at once as the gate admits. `progress_for` and `finished` edit their cards
        (where they were asked: the card's address is stored with the episode). Returns the
        ids of the episodes run."""
        await self.store.requeue_expired(max_attempts)
        done: list[int] = []
        server_down = False

        async def one(episode_id: int) -> None:
            nonlocal server_down
            current = await self.store.get(episode_id)
            if server_down or current is None:
                return
            progress = progress_for(current) if progress_for is not None else None
            try:
                row = await self.run(episode_id, progress, delay_when_model_down=True)
            except EpisodeFailed as failed:
                row = failed.episode
            if row.status == EpisodeStatus.QUEUED:
                # Delayed (the model server is down) or requeued at shutdown: the rest of this
                # pass would only be delayed too; the next pass retries.
                server_down = True
            elif row.status != EpisodeStatus.RUNNING:  # running: another worker has it
                done.append(episode_id)
                if finished is not None:
                    await finished(row)

        # Each is claimed by its id, so a delayed one is not claimed again in the same pass.
        await asyncio.gather(*(one(i) for i in await self.store.waiting(queued_for_s)))
        return done

    async def work_once(
        self,
        progress_for: Callable[[Episode], ProgressListener | None] | None = None,
        *,
        queued_for_s: float = 0.0,
    ) -> Episode | None:
        """A worker's turn: wait for a place at the gate, claim the next queued episode
        (requests before scans, then the oldest; SKIP LOCKED) and run it; None when the
        queue is empty or the process is shutting down."""
        await self._release_unfinished()
        try:
            async with self.gate.slot():
                row = await self.store.claim_next(self.worker_id, self.lease_s, queued_for_s)
                if row is None:
                    return None
                progress = progress_for(row) if progress_for is not None else None
                try:
                    return await self.execute(row, progress, delay_when_model_down=True)
                except EpisodeFailed as failed:
                    return failed.episode
        except GateClosed:
            return None

    async def _release_unfinished(self) -> None:
        for episode_id in sorted(self._unreleased):
            # raises while the database is still down; False: another worker took it over
            await self.store.release(episode_id, self.worker_id, REQUEUED_AFTER_STORAGE)
            self._unreleased.discard(episode_id)

    async def run(
        self,
        episode_id: int,
        progress: ProgressListener | None = None,
        *,
        delay_when_model_down: bool = False,
    ) -> Episode:
        """Run a queued episode to `noted`, `abstained` or `failed` — never left `running`.
        It waits for a place at the gate first (its card says how many are ahead); if the
        process shuts down meanwhile it stays queued and the queued row is returned; one that
        another worker has (running, or already finished) is returned as it is."""
        current = await self.store.get(episode_id)
        if current is None:
            raise RuntimeError(f"there is no episode {episode_id}")
        if current.status != EpisodeStatus.QUEUED:
            return current  # another worker or delivery has it: its card shows where it is

        async def waiting(ahead: int) -> None:
            if progress is not None:
                await progress(Progress(phase="queued", detail=f"{ahead} ahead"))

        try:
            async with self.gate.slot(priority_of(current.source), waiting):
                row = await self.store.claim(episode_id, self.worker_id, self.lease_s)
                if row is None:  # claimed meanwhile by another worker
                    return await self.store.get(episode_id) or current
                return await self.execute(
                    row, progress, delay_when_model_down=delay_when_model_down
                )
        except GateClosed:
            return current

    async def shutdown(self, grace_s: float) -> None:
        """Stop admitting episodes, let those running finish for up to `grace_s`, then put
        the rest back in the queue (their attempt counted) for the next process."""
        self.gate.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace_s):
                await self.gate.idle()
        self._stopping = True
        for task in list(self._inflight.values()):
            task.cancel()
        await self._all_settled.wait()

    async def execute(
        self,
        row: Episode,
        progress: ProgressListener | None = None,
        *,
        delay_when_model_down: bool = False,
    ) -> Episode:
        """Run an episode this worker has claimed. With `delay_when_model_down` (queue
        workers), an unreachable model server sends the episode back to the queue, marked
        delayed, instead of failing it."""
        episode_id = row.id
        if row.attempts > 1:
            await self.store.clear_steps(episode_id)
        post = Post.model_validate(row.post)
        if self.past_notes is not None and post.author:
            post.our_notes_on_author = await self.past_notes.on_author(
                post.author, episode_id or 0, MAX_OUR_NOTES_ON_AUTHOR
            )
        journal = _StoreJournal(self.store, episode_id)
        # The episode runs as its own task, so that shutdown can stop it without stopping the
        # caller (which then shows the card of the requeued episode).
        inner = asyncio.create_task(self.runner.run(post, journal=journal, progress=progress))
        self._inflight[episode_id] = inner
        self._all_settled.clear()
        try:
            outcome = await inner
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._stopping and inner.cancelled() and task is not None and not task.cancelling():
                return await asyncio.shield(self.store.delay(episode_id, REQUEUED_AT_SHUTDOWN))
            await asyncio.shield(
                self.store.fail(episode_id, "interrupted before it finished", FailureKind.WORKER)
            )
            raise
        except (ModelUnavailable, ModelTimeout) as e:
            # A hung server delays the episode like a down one; a call that keeps timing out
            # on this episode alone fails it after a few tries.
            if not delay_when_model_down or (
                isinstance(e, ModelTimeout) and row.attempts >= TIMEOUT_ATTEMPTS
            ):
                failed = await self.store.fail(episode_id, str(e), failure_kind(e))
                self._finished(failed)
                raise EpisodeFailed(failed, e) from e
            return await self.store.delay(
                episode_id, f"delayed: {e}; it will be retried when the model server answers"
            )
        except StorageUnavailable:
            self._unreleased.add(episode_id)
            raise
        except EvoNoteError as e:
            failed = await self.store.fail(episode_id, str(e), failure_kind(e))
            self._finished(failed)
            raise EpisodeFailed(failed, e) from e
        except Exception as e:
            log.exception("episode %s crashed", episode_id)
            failed = await self.store.fail(episode_id, f"internal error: {e!r}")
            self._finished(failed)
            raise EpisodeFailed(failed, e) from e
        finally:
            self._inflight.pop(episode_id, None)
            if not self._inflight:
                self._all_settled.set()
        try:
            finished = await self.store.finish(episode_id, outcome)
        except StorageUnavailable:
            self._unreleased.add(episode_id)
            raise
        self._finished(finished)
        return finished  # the note is shown now; its forecast follows (`forecast`)

    def _finished(self, row: Episode) -> None:
        log.info(
            "episode %s %s",
            row.id,
            row.status,
            extra={
                "episode_id": row.id,
                "status": row.status,
                "total_s": row.total_s,
                "source": row.source,
                "reason": row.failure_reason or row.abstain_reason,
            },
        )
        if self.on_finished is not None:
            self.on_finished(row)

    async def forecast(self, row: Episode) -> Episode:
        """The persona panel's forecast for a finished note, stored on the episode. It runs
        after the note is shown (16 rater calls must not hold the note back); a failure
        leaves the note without one. Any other row is returned as it is."""
        if (
            self.panel is None
            or row.status != EpisodeStatus.NOTED
            or not row.note_text
            or row.forecast
        ):
            return row
        post = Post.model_validate(row.post)
        try:
            forecast = await self.panel.forecast(post.all_text(), row.note_text)
        except EvoNoteError as e:
            log.warning("episode %s: no forecast: %s", row.id, e)
            return row
        if forecast is None:
            return row
        return await self.store.save_forecast(row.id, forecast)
