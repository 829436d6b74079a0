"""X's Community Notes API as the tests meet it: its address, credentials, a note written from
a page read, and a submission desk over a store (the API itself is mocked with respx)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import CommunityNotesApi
from adapters.x.oauth import OAuth1Credentials
from pipeline.desk.submission import SubmissionDesk
from pipeline.evidence import Evidence
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.revision import EpisodeReviser
from pipeline.trajectory import EpisodeOutcome
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeChatModel, OpenLinks

API = "https://api.x.com"
CREDENTIALS = OAuth1Credentials("ck", "cs", "at", "ats")


def desk(
    engine: AsyncEngine,
    api: CommunityNotesApi,
    *,
    links: object | None = None,
    reviser_model: FakeChatModel | None = None,
    **options: object,
) -> SubmissionDesk:
    model = FakeChatModel(ResearchPolicy())
    return SubmissionDesk(
        EpisodeStore(engine),
        SubmissionStore(engine),
        [api],
        model,
        EpisodeReviser(reviser_model or model),
        links or OpenLinks(),  # type: ignore[arg-type]
        **options,  # type: ignore[arg-type]
    )


READ = Evidence(
    url="https://www.cdc.gov/vaccinesafety/autism.html",
    title="Autism and Vaccines",
    excerpt="Studies have shown that there is no link between receiving vaccines and "
    "developing autism spectrum disorder.",
    quotes=[
        "Studies have shown that there is no link between receiving vaccines and developing "
        "autism spectrum disorder."
    ],
    tier=4,
)
NOTE = "Large studies found no link between vaccines and autism.\n\n" + READ.url


POST_TEXT = "Vaccines cause autism, the studies are hidden"


async def noted_episode(
    store: EpisodeStore,
    post_id: str | None = "1357",
    note: str = NOTE,
    *,
    request: NoteRequest | None = None,
    memory_ids: list[int] | None = None,
    cited: list[Evidence] | None = None,
) -> int:
    """A finished episode with `note`, written from `cited` (`READ`), on a post X takes notes
    on (none when `post_id` is None); asked for by `request` (the CLI's by default)."""
    cited = cited or [READ]
    row = await store.create(
        request or NoteRequest(post_ref=f"https://x.com/a/status/{post_id}"),
        Post(text=POST_TEXT, post_id=post_id),
        "off",
    )
    assert row.id is not None
    await store.claim(row.id, "w", 60)
    await store.finish(
        row.id,
        EpisodeOutcome(
            status="noted",
            note=note,
            urls=[e.url for e in cited],
            char_count=60,
            evidence=cited,
            memory_ids=memory_ids or [],
        ),
    )
    return row.id
