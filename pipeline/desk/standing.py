"""Where the writer stands with X: admission (its last 50 test notes against the evaluators'
bars) and, once admitted, the daily writing limit X computes from how its notes are rated.

Both are computed here from the submissions stored (their statuses and evaluator buckets come
back with `sync`), with X's published rules (`documentation/api/overview.md`, the writing
limit as changed 2026-03-05). X counts the last 14 days' hit rate without notes under 10
ratings that have no status; the API does not give rating counts, so every note still
needing ratings is left out of it, and so is every note whose raw status says too few
ratings came (`minimum_ratings_not_met`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pipeline.desk.episode import Submission

ADMISSION_WINDOW = 50  # the most recent test-mode notes X judges admission on
HELPFUL = "currently_rated_helpful"
NOT_HELPFUL = "currently_rated_not_helpful"
# X's seven `notes_written` statuses (REFERENCE.md): these two say the note is not rated yet
# ("needs your help" is X's request to rate it), so no limit counts them as rated
NEEDS_RATINGS = {None, "needs_more_ratings", "needs_your_help"}
# … and this one is left out of the 14-day hit rate: too few ratings to count either way
TOO_FEW_RATINGS = "minimum_ratings_not_met"


@dataclass(frozen=True)
class Criterion:
    """One of X's admission bars, and where the writer is against it."""

    name: str  # e.g. "ClaimOpinion high"
    share: float | None  # the share of the notes evaluated (None: none evaluated yet)
    bar: float
    at_least: bool  # the share must be ≥ the bar (else ≤)
    notes: int  # how many of the window were evaluated by this evaluator

    @property
    def met(self) -> bool:
        if self.share is None:
            return False
        return self.share >= self.bar if self.at_least else self.share <= self.bar

    def line(self) -> str:
        sign = "≥" if self.at_least else "≤"
        have = "no notes evaluated" if self.share is None else f"{self.share:.0%} of {self.notes}"
        return f"{'✅' if self.met else '❌'} {self.name}: {have} (needs {sign} {self.bar:.0%})"


@dataclass(frozen=True)
class WriterStanding:
    test_notes: int  # test-mode notes in the admission window
    criteria: list[Criterion]
    live_notes: int
    helpful: int
    not_helpful: int
    writing_limit: int
    limit_reason: str
    written_today: int = 0
    # what needs a person now: the 14-day net helpful rate negative, the writing limit fallen
    alarms: list[str] = field(default_factory=list)

    @property
    def looks_admitted(self) -> bool:
        """Whether the last 50 test notes meet every bar (X then admits at random)."""
        return self.test_notes > 0 and all(c.met for c in self.criteria)

    @property
    def hit_rate(self) -> float | None:
        return _hit_rate_of(self.helpful, self.not_helpful, self.live_notes)

    def summary(self) -> list[str]:
        """The status view, a line each: admission, then the writing limit."""
        lines = [
            f"Admission (last {self.test_notes} of {ADMISSION_WINDOW} test notes): "
            + ("meets every bar" if self.looks_admitted else "not yet"),
            *self.alarms,
            *(c.line() for c in self.criteria),
        ]
        rate = self.hit_rate
        lines.append(
            f"Live notes: {self.live_notes} · helpful {self.helpful} · not helpful "
            f"{self.not_helpful} · hit rate " + (f"{rate:+.2f}" if rate is not None else "none yet")
        )
        lines.append(
            f"Writing limit: {self.written_today} of {self.writing_limit} live notes written "
            f"today ({self.limit_reason})"
        )
        return lines


def _hit_rate_of(helpful: int, not_helpful: int, total: int) -> float | None:
    return (helpful - not_helpful) / total if total else None


def _bucket(submission: Submission, evaluator: str) -> str | None:
    for outcome in submission.evaluator_outcomes:
        kind = str(outcome.get("evaluator_type", "")).replace("_", "").lower()
        if kind == evaluator:
            return str(outcome.get("evaluator_score_bucket", "")).lower() or None
    return None


def _share(window: list[Submission], evaluator: str, bucket: str) -> tuple[float | None, int]:
    buckets = [b for s in window if (b := _bucket(s, evaluator)) is not None]
    if not buckets:
        return None, 0
    return sum(b == bucket for b in buckets) / len(buckets), len(buckets)


def admission_criteria(test_notes: list[Submission]) -> list[Criterion]:
    window = test_notes[:ADMISSION_WINDOW]
    bars = [
        ("ClaimOpinion high", "claimopinion", "high", 0.30, True),
        ("ClaimOpinion low", "claimopinion", "low", 0.30, False),
        ("UrlValidity high", "urlvalidity", "high", 0.95, True),
        ("HarassmentAbuse high", "harassmentabuse", "high", 0.98, True),
    ]
    criteria = []
    for name, evaluator, bucket, bar, at_least in bars:
        share, n = _share(window, evaluator, bucket)
        criteria.append(Criterion(name, share, bar, at_least, n))
    return criteria


def writing_limit(live: list[Submission], now: datetime) -> tuple[int, str]:
    """X's daily writing limit and why, from the live notes, newest first."""
    rated = [s for s in live if s.status not in NEEDS_RATINGS]
    nh_10 = sum(s.status == NOT_HELPFUL for s in rated[:10])
    nh_5 = sum(s.status == NOT_HELPFUL for s in rated[:5])
    if nh_10 >= 8:
        return 2, f"{nh_10} of the last 10 rated notes were not helpful"
    if nh_5 >= 3:
        return 5, f"{nh_5} of the last 5 rated notes were not helpful"
    if len(live) < 20:
        return 10, f"a new writer: {len(live)} live notes, under 20"

    def rate(notes: list[Submission]) -> float:
        helpful = sum(s.status == HELPFUL for s in notes)
        not_helpful = sum(s.status == NOT_HELPFUL for s in notes)
        return _hit_rate_of(helpful, not_helpful, len(notes)) or 0.0

    recent = rate(live[:20])
    last_14d = [
        s for s in rated if _age(s, now) <= timedelta(days=14) and s.status != TOO_FEW_RATINGS
    ]
    longer = max(rate(live[:100]), rate(last_14d))
    if longer < 0.05:
        internal = 300 * max(recent, longer)
    elif longer < 0.1:
        internal = 15 + 700 * (longer - 0.05)
    elif longer < 0.15:
        internal = 50 + 3000 * (longer - 0.1)
    elif longer < 0.2:
        internal = 200 + 6000 * (longer - 0.15)
    else:
        internal = 500
    per_day = sum(_age(s, now) <= timedelta(days=30) for s in live) / 30
    limit = max(5, math.floor(min(per_day * 5, internal)))
    return limit, (
        f"hit rate {longer:+.2f} over the longer term, {recent:+.2f} recently; "
        f"{per_day:.1f} notes a day over 30 days"
    )


def net_helpful_14d(live: list[Submission], now: datetime) -> tuple[float, int] | None:
    """The hit rate X's writing limit reads over the last 14 days, (helpful − not helpful) /
    rated notes, with how many; None before any note of the window is rated."""
    rated = [
        s
        for s in live
        if _age(s, now) <= timedelta(days=14)
        and s.status not in NEEDS_RATINGS
        and s.status != TOO_FEW_RATINGS
    ]
    if not rated:
        return None
    helpful = sum(s.status == HELPFUL for s in rated)
    not_helpful = sum(s.status == NOT_HELPFUL for s in rated)
    return (helpful - not_helpful) / len(rated), len(rated)


def as_of(live: list[Submission], moment: datetime) -> list[Submission]:
    """The live notes as they stood at `moment`: those sent by then, each with the status its
    history gives it then (none before its first)."""
    then = []
    for s in live:
        if _when(s) > moment:
            continue
        status = None
        for change in s.status_history:
            at = _parsed(change.get("at"))
            if at is None or at > moment:
                break
            status = change.get("status")
        then.append(s.model_copy(update={"status": status}))
    return then


def _parsed(at: object) -> datetime | None:
    try:
        moment = datetime.fromisoformat(str(at))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def alarms(live: list[Submission], now: datetime, limit: int) -> list[str]:
    """What needs a person (the digest and the App Home show it first): the 14-day net
    helpful rate negative — a live writer's limit fell 47 → 42 in days once its rate went to
    −0.04…−0.06 (#60, the peer's account) — and the writing limit lower than a day ago."""
    said = []
    rate = net_helpful_14d(live, now)
    if rate is not None and rate[0] < 0:
        said.append(
            f"⚠ Net helpful rate over 14 days is {rate[0]:+.2f} ({rate[1]} rated notes): X "
            "lowers the writing limit while it stays negative"
        )
    day_ago = now - timedelta(days=1)
    before, _ = writing_limit(sorted(as_of(live, day_ago), key=_when, reverse=True), day_ago)
    if limit < before:
        said.append(f"⚠ The writing limit fell from {before} to {limit} in the last 24 h")
    return said


def _when(submission: Submission) -> datetime:
    """When it was submitted, as an aware time (SQLite gives naive UTC)."""
    at = submission.submitted_at or datetime.min
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _age(submission: Submission, now: datetime) -> timedelta:
    return now - _when(submission)


def standing_of(
    submissions: list[Submission], now: datetime | None = None, written_today: int | None = None
) -> WriterStanding:
    """Where the writer stands with X from its submissions. `written_today`: the live notes
    X counted in the last 24 h, where the caller's log knows more than the submissions do (a
    revision sent after a note went out is a new note to X, `SubmissionLog.submitted_since`);
    else the submissions of the last 24 h."""
    now = now or datetime.now(UTC)
    newest_first = sorted(submissions, key=_when, reverse=True)
    test = [s for s in newest_first if s.test_mode]
    live = [s for s in newest_first if not s.test_mode]
    limit, why = writing_limit(live, now)
    return WriterStanding(
        test_notes=min(len(test), ADMISSION_WINDOW),
        criteria=admission_criteria(test),
        live_notes=len(live),
        helpful=sum(s.status == HELPFUL for s in live),
        not_helpful=sum(s.status == NOT_HELPFUL for s in live),
        writing_limit=limit,
        limit_reason=why,
        written_today=(
            written_today
            if written_today is not None
            else sum(_age(s, now) <= timedelta(days=1) for s in live)
        ),
        alarms=alarms(live, now, limit),
    )
