"""A note service over the in-process fakes: fake web, fake model, no memory."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from pipeline.budget import EvidenceBudget
from pipeline.desk.notes import NoteService
from pipeline.desk.posts import PostResolver
from pipeline.episode import EpisodeRunner
from pipeline.ports import NoMemory
from tests.fakes.policy import Policy, ResearchPolicy
from tests.fakes.ports import FakeChatModel, FakeWeb, health_pages


def fake_note_service(
    engine: AsyncEngine,
    policy: Policy | None = None,
    web: FakeWeb | None = None,
    worker_id: str = "w",
) -> NoteService:
    web = web or FakeWeb(health_pages())
    runner = EpisodeRunner(
        model=FakeChatModel(policy or ResearchPolicy()),
        search=web,
        reader=web,
        memory=NoMemory(),
        budget=EvidenceBudget(),
    )
    return NoteService(
        store=EpisodeStore(engine), posts=PostResolver(), runner=runner, worker_id=worker_id
    )
