"""Open Community Notes on Bluesky: a note proposed as a `social.pmsky.proposal` record
(respx, in the AT Protocol's recorded shapes), and the desk sending each post's note to the
destination that takes it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest
import respx
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.bluesky_notes import COLLECTION, OpenCommunityNotes, ProposalRefused
from adapters.sqlstore.episodes import EpisodeStore
from adapters.sqlstore.submissions import SubmissionStore
from adapters.x.community_notes import CommunityNotesApi
from adapters.x.oauth import OAuth1Credentials
from pipeline.desk.submission import SubmissionDesk
from pipeline.desk.submit_outcome import SubmissionRefused
from pipeline.evidence import Evidence
from pipeline.post import Post
from pipeline.request import NoteRequest
from pipeline.revision import EpisodeReviser
from pipeline.trajectory import EpisodeOutcome
from tests.fakes.policy import ResearchPolicy
from tests.fakes.ports import FakeChatModel, OpenLinks

PDS = "https://bsky.social"
DID = "did:plc:evonotetest"
POST_URI = "at://did:plc:author/app.bsky.feed.post/3kabc123xyz"
SESSION = {"accessJwt": "jwt-1", "refreshJwt": "r", "handle": "evonote.bsky.social", "did": DID}


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


def ocn(http: httpx.AsyncClient, **options: object) -> OpenCommunityNotes:
    return OpenCommunityNotes(http, "evonote.bsky.social", "app-pass", **options)  # type: ignore[arg-type]


async def test_a_dry_run_builds_the_proposal_and_writes_nothing(http: httpx.AsyncClient) -> None:
    with respx.mock(assert_all_called=False) as router:
        bluesky = router.route(host="bsky.social")
        proposal_id = await ocn(http).submit(
            POST_URI,
            "Large studies found no link.\n\nhttps://www.cdc.gov/a",
            classification="misinformed_or_potentially_misleading",
            misleading_tags=["factual_error"],
            sources=True,
            test_mode=True,
        )
    assert proposal_id.startswith("dry-run:") and not bluesky.called


@respx.mock
async def test_a_live_proposal_is_a_record_in_the_accounts_repository(
    http: httpx.AsyncClient,
) -> None:
    session = respx.post(f"{PDS}/xrpc/com.atproto.server.createSession").respond(200, json=SESSION)
    create = respx.post(f"{PDS}/xrpc/com.atproto.repo.createRecord").respond(
        200, json={"uri": f"at://{DID}/{COLLECTION}/3kprop1", "cid": "bafyrei"}
    )
    uri = await ocn(http).submit(
        POST_URI,
        "Large studies found no link.\n\nhttps://www.cdc.gov/a",
        classification="misinformed_or_potentially_misleading",
        misleading_tags=["factual_error", "missing_important_context", "factual_error"],
        sources=True,
        test_mode=False,
    )
    assert uri == f"at://{DID}/{COLLECTION}/3kprop1"
    assert json.loads(session.calls.last.request.content) == {
        "identifier": "evonote.bsky.social",
        "password": "app-pass",
    }
    sent = json.loads(create.calls.last.request.content)
    assert create.calls.last.request.headers["Authorization"] == "Bearer jwt-1"
    assert (sent["repo"], sent["collection"]) == (DID, COLLECTION)
    record = sent["record"]
    assert {k: record[k] for k in ("$type", "typ", "src", "uri", "val")} == {
        "$type": COLLECTION,
        "typ": "label",
        "src": DID,
        "uri": POST_URI,
        "val": "note",
    }
    assert record["reasons"] == ["factual_error", "misrepresentation_or_missing_context"]
    assert record["note"].startswith("Large studies") and record["cts"].endswith("Z")


@pytest.mark.parametrize(
    ("status", "body", "says"),
    [
        (
            401,
            {"error": "AuthenticationRequired", "message": "Invalid identifier or password"},
            "EVONOTE_BLUESKY__HANDLE",
        ),
        (429, {"error": "RateLimitExceeded", "message": "Rate Limit Exceeded"}, "rate limit"),
        (
            400,
            {"error": "InvalidRequest", "message": "Record/uri must be an at-uri"},
            "Record/uri must be an at-uri",
        ),
    ],
)
@respx.mock
async def test_bluesky_errors_are_named(
    http: httpx.AsyncClient, status: int, body: dict[str, str], says: str
) -> None:
    respx.post(f"{PDS}/xrpc/com.atproto.server.createSession").respond(200, json=SESSION)
    respx.post(f"{PDS}/xrpc/com.atproto.repo.createRecord").respond(status, json=body)
    with pytest.raises(ProposalRefused, match=says):
        await ocn(http).submit(
            POST_URI,
            "n",
            classification="not_misleading",
            misleading_tags=[],
            sources=True,
            test_mode=False,
        )


@respx.mock
async def test_the_proposals_written_are_listed_page_by_page(http: httpx.AsyncClient) -> None:
    respx.post(f"{PDS}/xrpc/com.atproto.server.createSession").respond(200, json=SESSION)
    record = {"uri": f"at://{DID}/{COLLECTION}/1", "cid": "c", "value": {"uri": POST_URI}}
    listing = respx.get(f"{PDS}/xrpc/com.atproto.repo.listRecords").mock(
        side_effect=[
            httpx.Response(200, json={"records": [record], "cursor": "next"}),
            httpx.Response(200, json={"records": []}),
        ]
    )
    notes = await ocn(http).notes_written(test_mode=False)
    assert [(n.id, n.post_id, n.status) for n in notes] == [(record["uri"], POST_URI, None)]
    assert listing.calls[1].request.url.params["cursor"] == "next"


async def noted(store: EpisodeStore, post: Post) -> int:
    page = Evidence(
        url="https://www.cdc.gov/vaccinesafety/autism.html",
        title="Autism and Vaccines",
        excerpt="Studies have shown that there is no link between vaccines and autism.",
        quotes=["Studies have shown that there is no link between vaccines and autism."],
        tier=4,
    )
    row = await store.create(NoteRequest(post_ref=post.url or "p"), post, "off")
    await store.claim(row.id, "w", 60)
    note = f"Large studies found no link between vaccines and autism.\n\n{page.url}"
    await store.finish(
        row.id,
        EpisodeOutcome(status="noted", note=note, urls=[page.url], char_count=60, evidence=[page]),
    )
    await store.approve(row.id, "UMOD")
    return row.id


@respx.mock
async def test_each_post_goes_to_the_destination_that_takes_it(
    engine: AsyncEngine, http: httpx.AsyncClient
) -> None:
    """A Bluesky post's note is proposed on Open Community Notes (no X evaluator asked); an
    X post's goes to X; a Mastodon post's is refused, naming where notes can go."""
    respx.post(f"{PDS}/xrpc/com.atproto.server.createSession").respond(200, json=SESSION)
    create = respx.post(f"{PDS}/xrpc/com.atproto.repo.createRecord").respond(
        200, json={"uri": f"at://{DID}/{COLLECTION}/3kprop2", "cid": "bafyrei"}
    )
    evaluate = respx.post("https://api.x.com/2/evaluate_note").respond(
        200, json={"data": {"claim_opinion_score": 0.9}}
    )
    to_x = respx.post("https://api.x.com/2/notes").respond(200, json={"data": {"id": "18000"}})
    x = CommunityNotesApi(http, OAuth1Credentials("a", "b", "c", "d"))
    model = FakeChatModel(ResearchPolicy())
    store, log = EpisodeStore(engine), SubmissionStore(engine)
    desk = SubmissionDesk(
        store, log, [x, ocn(http, test_mode=False)], model, EpisodeReviser(model), OpenLinks()
    )
    on_bluesky = await noted(
        store, Post(text="Vaccines cause autism", post_id=POST_URI, url="https://bsky.app/p")
    )
    outcome = await desk.submit(on_bluesky, "mod")
    assert outcome.message == (
        f"Submitted to Open Community Notes as note at://{DID}/{COLLECTION}/3kprop2 (live)."
    )
    assert create.call_count == 1 and not evaluate.called and not to_x.called
    assert outcome.submission is not None and outcome.submission.destination == "bluesky"
    on_x = await noted(
        store, Post(text="Vaccines cause autism", post_id="1357", url="https://x.com/a/status/1357")
    )
    assert (await desk.submit(on_x, "mod")).message == "Submitted to X as note 18000 (test mode)."
    assert evaluate.call_count == 1 and to_x.call_count == 1
    assert len((await desk.standing()).criteria) == 4  # X's standing counts X's notes only
    on_mastodon = await noted(
        store,
        Post(text="Vaccines cause autism", post_id="1099", url="https://social.example/@a/1099"),
    )
    with pytest.raises(SubmissionRefused, match="X or Open Community Notes takes notes on"):
        await desk.submit(on_mastodon, "mod")
