"""Open Community Notes on Bluesky: a note proposed as a `social.pmsky.proposal` record.

Bluesky has no Community Notes; Open Community Notes (`johnwarden/open-community-notes`, live
as Bluenotes) collects proposals published as records of the `social.pmsky` lexicon, which its
service indexes and rates. A proposal is a record in the proposer's own repository, written with
the AT Protocol's `com.atproto.repo.createRecord` after `com.atproto.server.createSession`
with the account's app password. Fields, from the lexicon's README (002-lexicon): `typ`
"label", `src` (the proposer's DID), `uri` (the post's at:// URI), `val` "note", `note` (the
text), `reasons` (its defined values), `cts` (created at). There is no evaluator and no
published status endpoint: statuses are the service's to show; `notes_written` lists our
proposals. In test mode (dry run) nothing is written: the record is built and checked only.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import httpx

from pipeline.desk.destination import WrittenNote
from pipeline.errors import EvoNoteError
from pipeline.post import Post

COLLECTION = "social.pmsky.proposal"
MAX_NOTE_CHARS = 2_800  # the service's limit for a note
# X's misleading tags → the lexicon's reasons
REASONS = {
    "factual_error": "factual_error",
    "manipulated_media": "altered_media",
    "outdated_information": "outdated_information",
    "missing_important_context": "misrepresentation_or_missing_context",
    "disputed_claim_as_fact": "unverified_claim_as_fact",
    "misinterpreted_satire": "joke_or_satire",
    "other": "other",
}


class ProposalRefused(EvoNoteError):
    """Bluesky or the proposal itself was refused; the message says why."""


class OpenCommunityNotes:
    """The `NotesDestination` on Bluesky."""

    key = "bluesky"
    name = "Open Community Notes"
    evaluates = False  # no evaluator a note must clear first
    has_writing_limit = False

    def __init__(
        self,
        client: httpx.AsyncClient,
        handle: str,
        app_password: str,
        *,
        pds_url: str = "https://bsky.social",
        daily_cap: int = 50,
        timeout_s: float = 15.0,
        test_mode: bool = True,
    ) -> None:
        self.test_mode = test_mode  # EVONOTE_BLUESKY__TEST_MODE: a dry run
        self.client = client
        self.handle = handle
        self.app_password = app_password
        self.pds_url = pds_url.rstrip("/")
        self.daily_cap = daily_cap
        self.timeout_s = timeout_s
        self._session: tuple[str, str] | None = None  # (access token, DID)

    def takes(self, post: Post) -> str | None:
        """A Bluesky post is known by its at:// URI."""
        post_id = post.post_id or ""
        return post_id if post_id.startswith("at://") else None

    async def _call(
        self, method: str, name: str, *, params: dict[str, Any] | None = None, body: Any = None
    ) -> dict[str, Any]:
        headers = {}
        if name != "com.atproto.server.createSession":
            token, _ = await self.session()
            headers["Authorization"] = f"Bearer {token}"
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self.client.request(
                    method,
                    f"{self.pds_url}/xrpc/{name}",
                    params=params,
                    json=body,
                    headers=headers,
                )
        except (httpx.HTTPError, TimeoutError) as e:
            raise ProposalRefused(f"Bluesky could not be reached ({type(e).__name__})") from e
        try:
            payload = response.json() if response.content else {}
        except json.JSONDecodeError:
            payload = {}
        if not isinstance(payload, dict):
            payload = {}
        if response.status_code == 401 or payload.get("error") == "AuthenticationRequired":
            self._session = None
            raise ProposalRefused(
                "Bluesky refused the account: check EVONOTE_BLUESKY__HANDLE and "
                "__APP_PASSWORD (an app password, not the account's password)"
            )
        if response.status_code == 429 or payload.get("error") == "RateLimitExceeded":
            raise ProposalRefused("Bluesky's rate limit is reached: try again later")
        if response.status_code >= 400:
            what = payload.get("message") or payload.get("error") or "no detail"
            raise ProposalRefused(f"Bluesky answered HTTP {response.status_code}: {what}")
        return payload

    async def session(self) -> tuple[str, str]:
        if self._session is None:
            answer = await self._call(
                "POST",
                "com.atproto.server.createSession",
                body={"identifier": self.handle, "password": self.app_password},
            )
            token, did = answer.get("accessJwt"), answer.get("did")
            if not isinstance(token, str) or not isinstance(did, str):
                raise ProposalRefused("Bluesky's session answer has no token or DID")
            self._session = (token, did)
        return self._session

    async def whoami(self) -> str:
        _, did = await self.session()
        return f"signed in as {self.handle} ({did})"

    async def evaluate(self, post_id: str, text: str) -> float:
        raise ProposalRefused("Open Community Notes has no evaluator")

    def proposal(self, did: str, post_id: str, text: str, tags: list[str]) -> dict[str, Any]:
        if len(text) > MAX_NOTE_CHARS:
            raise ProposalRefused(f"the note is over {MAX_NOTE_CHARS:,} characters")
        reasons = list(dict.fromkeys(REASONS[t] for t in tags if t in REASONS))
        record: dict[str, Any] = {
            "$type": COLLECTION,
            "typ": "label",
            "src": did,
            "uri": post_id,
            "val": "note",
            "note": text,
            "cts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        }
        if reasons:
            record["reasons"] = reasons
        return record

    async def submit(
        self,
        post_id: str,
        text: str,
        *,
        classification: str,
        misleading_tags: list[str],
        sources: bool,
        test_mode: bool,
    ) -> str:
        """The proposal's at:// URI; in test mode (a dry run) the record is built and checked,
        nothing is written, and its id says so."""
        if test_mode:
            record = self.proposal("did:example:dry-run", post_id, text, misleading_tags)
            digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
            return f"dry-run:{digest[:16]}"
        _, did = await self.session()
        record = self.proposal(did, post_id, text, misleading_tags)
        answer = await self._call(
            "POST",
            "com.atproto.repo.createRecord",
            body={"repo": did, "collection": COLLECTION, "record": record},
        )
        uri = answer.get("uri")
        if not isinstance(uri, str):
            raise ProposalRefused("Bluesky did not say where the proposal was written")
        return uri

    async def notes_written(self, *, test_mode: bool) -> list[WrittenNote]:
        """Our proposals (no status: the service rates them and shows its own)."""
        if test_mode:
            return []
        _, did = await self.session()
        notes: list[WrittenNote] = []
        cursor: str | None = None
        while True:
            params = {"repo": did, "collection": COLLECTION, "limit": 100}
            if cursor:
                params["cursor"] = cursor
            page = await self._call("GET", "com.atproto.repo.listRecords", params=params)
            for item in page.get("records") or []:
                if isinstance(item, dict) and isinstance(item.get("uri"), str):
                    value = item.get("value")
                    post = value.get("uri") if isinstance(value, dict) else None
                    notes.append(WrittenNote(id=item["uri"], post_id=post))
            cursor = page.get("cursor")
            if not cursor or not page.get("records"):
                return notes
