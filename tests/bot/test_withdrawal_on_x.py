"""Our live notes after they go out, through X's API (mocked with respx): their ratings come
back with `sync`, and a note early ratings condemn is withdrawn once, whatever stops midway."""

from __future__ import annotations

import httpx
import pytest
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.sqlstore.tables import SubmissionRow
from adapters.x.community_notes import CommunityNotesApi, rating_counts
from tests.fakes.community_notes import API, desk, noted_episode

CONDEMNED = "18999"


def counts(helpful: int, not_helpful: int) -> dict[str, object]:
    """`scoring_status` as X gives it: counts per rater-factor bucket, per model."""
    bucket = {"helpful_count": helpful, "not_helpful_count": not_helpful}
    return {
        "has_access": True,
        "rating_counts_per_model": [
            {
                "model_name": "other",
                "value": {"neutral_factor_bucket_counts": {"helpful_count": 9}},
            },
            {
                "model_name": "expansion",
                "value": {
                    "negative_factor_bucket_counts": bucket,
                    "positive_factor_bucket_counts": {"not_helpful_count": 1, "helpful_count": "x"},
                },
            },
        ],
    }


def test_rating_counts_are_summed_over_the_buckets_of_the_expansion_model() -> None:
    ratings = rating_counts(counts(0, 4))
    assert ratings is not None
    assert (ratings.helpful, ratings.not_helpful, ratings.total) == (0, 5, 5)
    assert rating_counts({"has_access": False}) is None
    assert rating_counts("odd") is None


async def live_notes_of_one_episode(engine: AsyncEngine, n: int) -> None:
    """`n` live notes of ours, sent today; the last one's id is CONDEMNED."""
    episode = await noted_episode(EpisodeStore(engine))
    async with SubmissionStore(engine).sessions() as session:
        for k in range(n):
            session.add(
                SubmissionRow(
                    episode_id=episode,
                    post_id=str(40_000 + k),
                    note_id=CONDEMNED if k == n - 1 else str(30_000 + k),
                    test_mode=False,
                    classification="misinformed_or_potentially_misleading",
                    submitted_by="mod",
                    status="needs_more_ratings",
                )
            )
        await session.commit()


@respx.mock
async def test_a_note_early_ratings_condemn_is_withdrawn_once_across_a_kill(
    engine: AsyncEngine, api: CommunityNotesApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    """100 live notes; `sync` brings one note's 5 Not Helpful ratings: it is withdrawn
    (1 of 100, within X's 1%). The first run is killed after X deleted it and before it was
    recorded: the next run asks X again, X answers "not found", and that counts as withdrawn.
    A third run asks X nothing."""
    await live_notes_of_one_episode(engine, 100)
    respx.get(f"{API}/2/notes/search/notes_written").respond(
        200,
        json={
            "data": [
                {"id": CONDEMNED, "status": "needs_more_ratings", "scoring_status": counts(0, 4)}
            ],
            "meta": {},
        },
    )
    delete = respx.delete(f"{API}/2/notes/{CONDEMNED}").mock(
        side_effect=[
            httpx.Response(200, json={"data": {"deleted": True}}),
            httpx.Response(404, json={"title": "Not Found", "detail": "note is not found"}),
        ]
    )
    api.test_mode = False
    submitter = desk(engine, api)
    assert await submitter.sync() == 0  # the status did not change; the counts are kept
    store = SubmissionStore(engine)
    kept = next(s for s in await store.all() if s.note_id == CONDEMNED)
    assert kept.ratings == {"helpful": 0, "somewhat_helpful": 0, "not_helpful": 5}

    async def killed(note_id: str) -> None:
        raise KeyboardInterrupt  # the process dies between X's answer and the record

    real = store.mark_withdrawn
    monkeypatch.setattr(SubmissionStore, "mark_withdrawn", lambda self, note_id: killed(note_id))
    with pytest.raises(KeyboardInterrupt):
        await submitter.withdraw_failing()
    monkeypatch.setattr(SubmissionStore, "mark_withdrawn", lambda self, note_id: real(note_id))
    (line,) = await submitter.withdraw_failing()
    assert line.startswith(f"withdrew X note {CONDEMNED}") and "predict Not Helpful" in line
    assert delete.call_count == 2
    assert await submitter.withdraw_failing() == [] and delete.call_count == 2
    withdrawn = [s.note_id for s in await store.all() if s.withdrawn_at is not None]
    assert withdrawn == [CONDEMNED]


@respx.mock
async def test_a_small_writer_withdraws_nothing_and_says_the_safeguard_tripped(
    engine: AsyncEngine, api: CommunityNotesApi
) -> None:
    """With 20 live notes one condemned note is 5%, over X's 1%: none is withdrawn."""
    await live_notes_of_one_episode(engine, 20)
    respx.get(f"{API}/2/notes/search/notes_written").respond(
        200,
        json={"data": [{"id": CONDEMNED, "scoring_status": counts(0, 6)}], "meta": {}},
    )
    delete = respx.delete(f"{API}/2/notes/{CONDEMNED}").respond(200, json={"data": {}})
    api.test_mode = False
    submitter = desk(engine, api)
    await submitter.sync()
    lines = await submitter.withdraw_failing()
    assert len(lines) == 2 and all("over 1%, none withdrawn" in line for line in lines)
    assert not delete.called
