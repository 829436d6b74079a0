"""Our live notes that early ratings say raters will find Not Helpful: withdrawn before the
verdict lowers the hit rate X's writing limit follows.

The policy is X's own AI note writer's (`xai-org/community-writer`, `writer.toml`,
`[[model_deletion_policies]]`): a note is withdrawn once it has at least 3 ratings and its
score of turning Not Helpful is at least 0.97, or at least 5 ratings at 0.94; and a policy never
withdraws more than 1% of the eligible notes — past that its safeguard trips and it withdraws
none (that many at once says the score is wrong, not the notes).

X's score comes from a model trained on its raters' counts per rater-factor bucket and tags,
which is not published. Ours (`not_helpful_score`) is the plain posterior chance that the
note's helpfulness rate is under one half, from its counts so far (Helpful 1, Somewhat ½, Not
Helpful 0; a uniform prior). It is more cautious on few ratings than a trained model: four
Not Helpful ratings of four score 0.969, under the 0.97 of the 3-rating rule; five of five
score 0.984, over the 5-rating rule's 0.94.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pipeline.desk.episode import Submission


@dataclass(frozen=True)
class WithdrawalRule:
    name: str
    min_ratings: int
    min_score: float


# xai-org/community-writer, writer.toml: policies "model_3r" and "model_5r"
RULES = (
    WithdrawalRule("3 ratings, score ≥ 0.97", min_ratings=3, min_score=0.97),
    WithdrawalRule("5 ratings, score ≥ 0.94", min_ratings=5, min_score=0.94),
)
# ibid., `max_deletion_fraction = 0.01` of each policy: the safeguard
MAX_SHARE = 0.01
# The notes a policy weighs: ours, live on X, sent in the last 14 days — X's statuses lock
# after two weeks (REFERENCE.md, ranking-notes.md), so a later withdrawal changes nothing.
WINDOW = timedelta(days=14)


def not_helpful_score(ratings: dict[str, int]) -> float:
    """The posterior chance that the note's helpfulness rate is under ½, from its ratings so
    far: Beta(1 + helpful + ½ somewhat, 1 + not helpful + ½ somewhat) below ½."""
    from scipy.special import betainc

    somewhat = ratings.get("somewhat_helpful", 0) / 2
    helpful = 1 + ratings.get("helpful", 0) + somewhat
    not_helpful = 1 + ratings.get("not_helpful", 0) + somewhat
    return float(betainc(helpful, not_helpful, 0.5))


def rating_count(ratings: dict[str, int]) -> int:
    return sum(ratings.get(k, 0) for k in ("helpful", "somewhat_helpful", "not_helpful"))


@dataclass(frozen=True)
class Withdrawals:
    """What a run of the policy decides: the notes to withdraw (each with the rule that
    caught it and its score), and a line for each rule whose safeguard tripped."""

    notes: list[tuple[Submission, str]]
    tripped: list[str]


def _sent_at(s: Submission) -> datetime:
    at = s.submitted_at or datetime.min
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def to_withdraw(submissions: list[Submission], now: datetime | None = None) -> Withdrawals:
    """Which of our live notes on X to withdraw now: under each rule, the notes that meet it,
    unless with those withdrawn already in the window (and those the other rule chose) they
    pass 1% of the live notes of the window."""
    now = now or datetime.now(UTC)
    window = [
        s
        for s in submissions
        if s.destination == "x" and not s.test_mode and now - _sent_at(s) <= WINDOW
    ]
    eligible = [s for s in window if s.withdrawn_at is None]
    withdrawn_before = len(window) - len(eligible)
    chosen: dict[str, tuple[Submission, str]] = {}
    tripped = []
    for rule in RULES:
        caught = []
        for s in eligible:
            if rating_count(s.ratings) < rule.min_ratings:
                continue
            score = not_helpful_score(s.ratings)
            if score >= rule.min_score:
                caught.append((s, f"{rule.name}: {rating_count(s.ratings)} ratings, {score:.3f}"))
        if not caught:
            continue
        together = {s.note_id for s, _ in caught} | set(chosen)
        share = (withdrawn_before + len(together)) / len(window)
        if share > MAX_SHARE:
            tripped.append(
                f"rule {rule.name!r} would withdraw {len(caught)} of {len(window)} live notes of "
                f"the last 14 days ({withdrawn_before} withdrawn already): over "
                f"{MAX_SHARE:.0%}, none withdrawn"
            )
            continue
        for s, why in caught:
            chosen.setdefault(s.note_id, (s, why))
    return Withdrawals(list(chosen.values()), tripped)
