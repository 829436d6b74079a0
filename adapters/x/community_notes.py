"""X's Community Notes API for AI Note Writers, over httpx with OAuth 1.0a user context.

Evaluate a draft (claim-opinion score), submit a note, and list the notes written with their
status. X allows 90 requests per 15 minutes across these endpoints and 250 submissions a day:
`RequestQuota` refuses a call that would exceed them and says when the next slot opens.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

import httpx

from adapters.x.oauth import OAuth1Credentials, sign
from adapters.x.urls import is_x_url
from pipeline.desk.destination import (
    EvaluatorOutcome,
    RatingCounts,
    WritingLimitReached,
    WrittenNote,
)
from pipeline.errors import EvoNoteError
from pipeline.post import Post

WINDOW_S = 15 * 60
DAY_S = 24 * 3600
SUBMISSIONS_PER_DAY = 250  # X's cap per account


class NotesApiError(EvoNoteError):
    """The Community Notes API refused or failed; the message says why."""


class QuotaExceeded(NotesApiError):
    pass


class RequestQuota:
    """Sliding windows: `requests` per 15 minutes, `submissions` per day."""

    def __init__(self, requests: int = 90, submissions: int = SUBMISSIONS_PER_DAY) -> None:
        self.limits = {"request": (requests, WINDOW_S), "submission": (submissions, DAY_S)}
        self.used: dict[str, deque[float]] = {"request": deque(), "submission": deque()}

    def remaining(self, kind: str, now: float | None = None) -> int:
        limit, window = self.limits[kind]
        now = time.time() if now is None else now
        used = self.used[kind]
        while used and now - used[0] >= window:
            used.popleft()
        return limit - len(used)

    def take(self, kind: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        if self.remaining(kind, now) <= 0:
            opens = datetime.fromtimestamp(self.used[kind][0] + self.limits[kind][1], UTC)
            raise QuotaExceeded(
                f"X's {kind} quota is used up; the next slot opens at {opens:%Y-%m-%d %H:%M} UTC"
            )
        self.used[kind].append(now)


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,59}")


def top_tags(scoring: object, kind: str) -> list[str]:
    """From `scoring_status`, each rater-factor bucket's top tag of `kind` ("helpful" or
    "not_helpful") as "bucket: tag" — X gives one {tag_name, tag_count} object per bucket, not
    a list. Read tolerantly: the buckets may come as a list of objects or keyed by name, and a
    shape not understood yields nothing rather than an error."""
    buckets: list[tuple[str, object]] = []
    if isinstance(scoring, dict):
        inner = scoring.get("buckets", scoring)
        if isinstance(inner, list):
            buckets = [
                (str(b.get("bucket") or b.get("name") or ""), b)
                for b in inner
                if isinstance(b, dict)
            ]
        elif isinstance(inner, dict):
            buckets = [(str(k), v) for k, v in inner.items()]
    elif isinstance(scoring, list):
        buckets = [
            (str(b.get("bucket") or b.get("name") or ""), b) for b in scoring if isinstance(b, dict)
        ]
    tags = []
    for bucket, counts in buckets:
        top = counts.get(f"{kind}_tag_counts") if isinstance(counts, dict) else None
        if isinstance(top, list):  # tolerate a list: its first
            top = top[0] if top else None
        name = str(top.get("tag_name") or "") if isinstance(top, dict) else ""
        # the tags become a vote's reason that the judge and the distiller read: only names in
        # X's shape (identifier words) pass, whatever else an answer carries
        if not _TAG_NAME.fullmatch(name):
            continue
        tags.append(f"{bucket}: {name}" if _TAG_NAME.fullmatch(bucket) else name)
    return tags[:6]


def rating_counts(scoring: object) -> RatingCounts | None:
    """The note's ratings so far from `scoring_status` (`rating_counts_per_model`: per model,
    counts per rater-factor bucket), summed over the buckets, of the "expansion" model where
    several are given (as `xai-org/community-writer` reads them); None when X gave none (no
    access yet). Read tolerantly: a count that is not a whole number counts 0."""
    models = scoring.get("rating_counts_per_model") if isinstance(scoring, dict) else None
    if not isinstance(models, list) or not models:
        return None
    entries = [m for m in models if isinstance(m, dict)]
    chosen = next(
        (m for m in entries if str(m.get("model_name", "")).lower() == "expansion"),
        entries[0] if entries else None,
    )
    value = chosen.get("value") if chosen is not None else None
    if not isinstance(value, dict):
        return None
    totals = {"helpful": 0, "somewhat_helpful": 0, "not_helpful": 0}
    for bucket in ("negative", "neutral", "positive"):
        counts = value.get(f"{bucket}_factor_bucket_counts")
        if not isinstance(counts, dict):
            continue
        for kind in totals:
            n = counts.get(f"{kind}_count")
            totals[kind] += n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 0
    return RatingCounts(**totals)


class CommunityNotesApi:
    """The `NotesDestination` on X."""

    key = "x"
    name = "X"
    daily_cap = SUBMISSIONS_PER_DAY
    evaluates = True  # evaluate_note: a note must clear the claim-opinion bar first
    has_writing_limit = True

    def takes(self, post: Post) -> str | None:
        """A post on X: its numeric id, when its address (if any) is on X."""
        on_x = post.url is None or is_x_url(post.url)
        return post.post_id if post.post_id and post.post_id.isdigit() and on_x else None

    def __init__(
        self,
        client: httpx.AsyncClient,
        credentials: OAuth1Credentials,
        *,
        base_url: str = "https://api.x.com",
        evaluate_path: str = "/2/evaluate_note",
        quota: RequestQuota | None = None,
        timeout_s: float = 20.0,
        feed_size: str = "small",
        feed_lang: str = "en",
        test_mode: bool = True,
    ) -> None:
        self.test_mode = test_mode  # EVONOTE_X__TEST_MODE
        self.feed_size = feed_size
        self.feed_lang = feed_lang
        self.client = client
        self.credentials = credentials
        self.base_url = base_url.rstrip("/")
        self.evaluate_path = evaluate_path
        self.quota = quota or RequestQuota()
        self.timeout_s = timeout_s

    async def _call(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        self.quota.take("request")
        request = sign(
            self.client.build_request(method, self.base_url + path, params=params, json=body),
            self.credentials,
        )
        try:
            async with asyncio.timeout(self.timeout_s):
                response = await self.client.send(request)
        except (httpx.HTTPError, TimeoutError) as e:
            raise NotesApiError(
                f"the Community Notes API could not be reached ({type(e).__name__})"
            ) from e
        payload: dict[str, Any] = response.json() if response.content else {}
        if response.status_code == 403 and "enrolled" in str(payload).lower():
            raise NotesApiError(
                "this X account is not enrolled as an AI Note Writer (403 client-not-enrolled)"
            )
        if response.status_code == 403 and "usagecapexceeded" in str(payload).lower():
            # X's daily writing limit: said as such, so the desk queues the note (REFERENCE.md)
            period = str(payload.get("period") or "")
            raise WritingLimitReached(
                "X answered that its writing limit is reached (HTTP 403 UsageCapExceeded"
                # X's word for the window (e.g. "Daily"), only when it is one plain word
                + (f", {period.lower()}" if re.fullmatch(r"[A-Za-z]{1,16}", period) else "")
                + ")"
            )
        if response.status_code == 401:
            raise NotesApiError(
                "X rejected the OAuth 1.0a credentials: check "
                "EVONOTE_X__CONSUMER_KEY / __CONSUMER_SECRET / __ACCESS_TOKEN "
                "/ __ACCESS_TOKEN_SECRET"
            )
        if response.status_code == 429:
            raise NotesApiError("X's rate limit is reached for the Community Notes API")
        if response.status_code >= 400 or (payload.get("errors") and "data" not in payload):
            detail = (payload.get("errors") or [{}])[0].get("message") or payload.get("detail")
            raise NotesApiError(
                f"the Community Notes API answered HTTP "
                f"{response.status_code}: {detail or 'no detail'}"
            )
        return payload

    async def evaluate(self, post_id: str, text: str) -> float:
        payload = await self._call(
            "POST", self.evaluate_path, body={"post_id": post_id, "note_text": text}
        )
        return float(payload["data"]["claim_opinion_score"])

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
        self.quota.take("submission")
        info: dict[str, Any] = {
            "text": text,
            "classification": classification,
            "trustworthy_sources": sources,
        }
        if classification == "misinformed_or_potentially_misleading":
            info["misleading_tags"] = misleading_tags
        payload = await self._call(
            "POST", "/2/notes", body={"test_mode": test_mode, "post_id": post_id, "info": info}
        )
        return str(payload["data"]["id"])

    async def withdraw(self, note_id: str) -> None:
        """Delete a note we wrote (`DELETE /2/notes/{id}`, REFERENCE.md). A note X no longer
        has (withdrawn by an earlier run that stopped before it was recorded) counts as
        withdrawn: asking twice deletes once."""
        if not note_id.isdigit():
            raise NotesApiError(f"{note_id!r} is not an X note id")
        try:
            await self._call("DELETE", f"/2/notes/{note_id}")
        except NotesApiError as e:
            if "404" not in str(e) and "not found" not in str(e).lower():
                raise

    async def eligible_posts(
        self, *, test_mode: bool, max_results: int = 20
    ) -> list[dict[str, Any]]:
        """Posts X asks AI Note Writers to look at: the raw v2 payload (data + includes), with
        what requesters said and the links they suggested, and any media note matched."""
        payload = await self._call(
            "GET",
            "/2/notes/search/posts_eligible_for_notes",
            params={
                "test_mode": str(test_mode).lower(),
                "max_results": max_results,
                "post_selection": f"feed_size:{self.feed_size},feed_lang:{self.feed_lang}",
                "tweet.fields": "author_id,created_at,public_metrics,lang,note_tweet,"
                "referenced_tweets,entities,"
                "attachments,suggested_source_links_with_counts,note_request_suggestions,"
                "matched_media_notes",
                "expansions": "attachments.media_keys,author_id,referenced_tweets.id",
                "media.fields": "type,url,preview_image_url,alt_text",
                "user.fields": "username",
            },
        )
        return [payload]

    async def whoami(self) -> str:
        """The credentials are accepted and the account is enrolled (one request)."""
        params = {"test_mode": "true", "max_results": 1, "note.fields": "id"}
        payload = await self._call("GET", "/2/notes/search/notes_written", params=params)
        count = (payload.get("meta") or {}).get("result_count", len(payload.get("data") or []))
        return f"an enrolled AI Note Writer (notes written in test mode: {count} or more)"

    async def notes_written(self, *, test_mode: bool, max_results: int = 100) -> list[WrittenNote]:
        notes: list[WrittenNote] = []
        token: str | None = None
        while True:
            params: dict[str, Any] = {
                "test_mode": str(test_mode).lower(),
                "max_results": max_results,
                "note.fields": "id,info,status,test_result,scoring_status",
            }
            if token:
                params["pagination_token"] = token
            payload = await self._call("GET", "/2/notes/search/notes_written", params=params)
            for note in payload.get("data", []):
                outcomes = (note.get("test_result") or {}).get("evaluation_outcome") or []
                notes.append(
                    WrittenNote(
                        id=str(note["id"]),
                        post_id=(note.get("info") or {}).get("post_id"),
                        status=note.get("status"),
                        evaluations=[
                            EvaluatorOutcome(
                                evaluator_type=str(o.get("evaluator_type", "")),
                                evaluator_score_bucket=str(o.get("evaluator_score_bucket", "")),
                            )
                            for o in outcomes
                            if isinstance(o, dict)
                        ],
                        not_helpful_tags=top_tags(note.get("scoring_status"), "not_helpful"),
                        ratings=rating_counts(note.get("scoring_status")),
                    )
                )
            token = (payload.get("meta") or {}).get("next_token")
            if not token:
                return notes
