"""Moderators' rules, written once for Slack, Discord and the CLI.

Votes: each person has one vote per note and the latest one counts; a second click of the
same button changes nothing (a double click, a retried event), the other button changes it.
Approval: only a drafted note can be approved (and only an approved one submitted to X).
"""

from __future__ import annotations

from enum import StrEnum

from pipeline.errors import EvoNoteError
from pipeline.trajectory import EpisodeStatus

# A vote on an episode that finished within this many days makes it judged again
# (EVONOTE_MEMORY__VOTE_WINDOW_DAYS).
VOTE_WINDOW_DAYS = 14


class ApprovalRefused(EvoNoteError):
    """The episode has no note that could be approved."""


class VoteOutcome(StrEnum):
    COUNTED = "counted"  # the person's first vote on this note
    CHANGED = "changed"  # they voted the other way, or gave a new reason
    UNCHANGED = "unchanged"  # the same vote again


def approval_refusal(status: str) -> str | None:
    """Why an episode in `status` cannot be approved, or None when it can."""
    if status == EpisodeStatus.NOTED:
        return None
    if status in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        return "the note is still being drafted; approve it once it is shown"
    return f"there is no note to approve (the episode {status})"


def vote_word(vote: int) -> str:
    return "👍" if vote > 0 else "👎"


def vote_message(outcome: VoteOutcome, vote: int) -> str:
    """What the person is told."""
    if outcome is VoteOutcome.UNCHANGED:
        return f"You have already voted {vote_word(vote)} on this note."
    if outcome is VoteOutcome.CHANGED:
        return f"Your vote is now {vote_word(vote)}."
    return f"Vote {vote_word(vote)} recorded."
