"""When a note we sent is looked at again, and whether the new draft is kept: X's own writer's
revision feeds (`xai-org/community-writer`, `writer.toml`, `[[revision_feeds]]`: `revise_1h`
at 3600 s and `revise_3h` at 10800 s after a note is published without reaching Helpful), kept
only when it adds evidence.

X's writer asks a model whether the candidate adds meaningful elements over the baseline note
(its "revision rejector": 0.10–0.25 for "no meaningful additions", a pass mark of 0.6 at 1 h and
0.75 at 3 h). Ours is code: the new draft adds evidence when it cites at least one page of
standing that vouches for a note's words (`DraftContext.vouches`, the rule behind
`no-source-of-standing`) and that the note sent does not cite, and it passed every drafting rule
and the support check. A reworded note on the same sources adds nothing and is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pipeline.desk.episode import Submission
from pipeline.desk.outcomes import HELPFUL
from pipeline.drafting.context import DraftContext, same_page
from pipeline.post import Post
from pipeline.trajectory import EpisodeOutcome, EpisodeStatus


@dataclass(frozen=True)
class RevisionWindow:
    """A look again at a note `after` its submission, open for `open_for` (a scheduler that
    was down longer misses it: the next window, or none)."""

    after: timedelta
    open_for: timedelta

    @property
    def name(self) -> str:
        hours = self.after.total_seconds() / 3600
        return f"{hours:g} h"


def windows_of(after_h: list[float], open_h: float) -> tuple[RevisionWindow, ...]:
    """The windows from the settings (EVONOTE_X__REVISE_AFTER_H, EVONOTE_X__REVISE_OPEN_H)."""
    return tuple(
        RevisionWindow(timedelta(hours=h), timedelta(hours=open_h)) for h in sorted(after_h)
    )


def sent_at(s: Submission) -> datetime:
    at = s.submitted_at or datetime.min
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def due_window(
    s: Submission, windows: tuple[RevisionWindow, ...], now: datetime
) -> RevisionWindow | None:
    """The window a note is in now (the latest one open), or None."""
    age = now - sent_at(s)
    open_now = [w for w in windows if w.after <= age < w.after + w.open_for]
    return open_now[-1] if open_now else None


def revisable(s: Submission) -> bool:
    """A note of ours on X, still there, not (yet) rated helpful: X's writer revises only
    notes that have not earned Helpful, and a withdrawn note has nothing left to revise."""
    return s.destination == "x" and s.withdrawn_at is None and s.status != HELPFUL


@dataclass(frozen=True)
class Verdict:
    """What the new draft is: kept (`added`: the new sources of standing it cites), or
    dropped, `why`."""

    added: list[str]
    why: str

    @property
    def kept(self) -> bool:
        return bool(self.added)


def adds_evidence(outcome: EpisodeOutcome, post: Post, cited_before: list[str]) -> Verdict:
    """Whether the new research's draft is kept as a revision of the note that cites
    `cited_before`: it must be a note that passed every rule and the support check, and cite
    a page of standing that vouches and that the note sent does not cite (in any spelling)."""
    if outcome.status != EpisodeStatus.NOTED or not outcome.note:
        return Verdict([], f"the new research wrote no note ({outcome.abstain_reason or 'none'})")
    if outcome.support_checked is not True:
        return Verdict([], "the new draft's support check did not run: nothing checked is kept")
    context = DraftContext.of(outcome.post or post, outcome.evidence, outcome.brief)
    added = [
        url
        for url in context.vouching(outcome.urls)
        if same_page(url, cited_before) not in cited_before
    ]
    if not added:
        return Verdict(
            [], "adds no evidence: no source of standing that vouches beyond those the note sent"
        )
    return Verdict(added, f"adds {len(added)} source(s) of standing: {', '.join(added)}")
