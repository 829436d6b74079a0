"""Whether the sending policy pays: what became of our live notes on X, by what chose them.

Every submission keeps the policy that chose it (`Submission.policy`) and `sync` stores X's
status; this groups the live notes by the forecast's net helpfulness (ten bands over −1 … +1,
in numeric order), by how they were chosen (the explore share against the forecast's own
choice, a moderator's override, first come), by what the brief said of the post's need for a
note, by the post's age when sent and by whether it was revised after sending, and gives for
each group: notes sent, the share rated at all, helpful of those rated, and net helpful
(helpful − not helpful, over notes sent). Posts
the brief declined (no note needed) are counted beside their reason: they have no outcome.
The revisions tried after sending are counted apart: sent per window, dropped per reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.desk.episode import Submission
from pipeline.desk.revision_log import LateRevision, RevisionState

HELPFUL = "currently_rated_helpful"
# X's not-helpful verdicts: rated so, or rejected outright
NOT_HELPFUL = frozenset({"currently_rated_not_helpful", "firm_reject"})
# rated enough, no verdict: raters disagree across perspectives ("needs_more_ratings" and
# "minimum_ratings_not_met" are not rated enough to count)
UNDECIDED = frozenset({"insufficient_consensus"})


@dataclass(frozen=True)
class OutcomeRow:
    group: str
    sent: int
    rated: int
    helpful: int
    not_helpful: int

    def line(self) -> str:
        if not self.sent:
            return f"{self.group}: none sent"
        rated = f"{self.rated / self.sent:.0%} rated"
        of_rated = f", {self.helpful / self.rated:.0%} of them helpful" if self.rated else ""
        net = (self.helpful - self.not_helpful) / self.sent
        return f"{self.group}: {self.sent} sent, {rated}{of_rated}, net helpful {net:+.2f}"


def rated(s: Submission) -> bool:
    return s.status == HELPFUL or s.status in NOT_HELPFUL or s.status in UNDECIDED


def outcome_row(group: str, notes: list[Submission]) -> OutcomeRow:
    return OutcomeRow(
        group,
        len(notes),
        sum(rated(s) for s in notes),
        sum(s.status == HELPFUL for s in notes),
        sum(s.status in NOT_HELPFUL for s in notes),
    )


# A group's name and where it sorts: numbers in numeric order (text put −0.4 after +0.6)
Group = tuple[float, str]
LAST = float("inf")  # the group of notes that lack the figure sorts after every band


def forecast_band(s: Submission) -> Group:
    net = s.policy.get("net_helpful")
    if not isinstance(net, int | float):
        return LAST, "no forecast"
    band = min(int((net + 1) * 5), 9)  # ten bands over -1 … 1, +1 in the top one
    low = band / 5 - 1
    return band, f"forecast {low:+.1f} to {low + 0.2:+.1f}"


def chosen_by(s: Submission) -> Group:
    if s.policy.get("anyway"):
        return 2, "a moderator's override"
    if s.policy.get("explore"):
        return 1, "explore share (under the forecast's bar)"
    if s.policy.get("order") == "forecast":
        return 0, "chosen by the forecast"
    return 3, "first come (no forecast order)"


def age_band(s: Submission) -> Group:
    age = s.policy.get("post_age_h")
    if not isinstance(age, int | float):
        return LAST, "post age unknown"
    for limit, name in ((3, "under 3 h"), (12, "3–12 h"), (24, "12–24 h")):
        if age < limit:
            return limit, f"post {name} old"
    return 48, "post over 24 h old"


def need_reason(needs: dict[int, str]) -> Callable[[Submission], Group]:
    """Group by what the episode's brief said of the post's need for a note (`needs`: the
    brief's `note_need` per episode); "needed" first."""

    def group(s: Submission) -> Group:
        need = needs.get(s.episode_id)
        if need is None:
            return LAST, "brief unknown"
        return (0 if need == "needed" else 1), f"brief: {need}"

    return group


def _auc(helpful: list[float], unhelpful: list[float]) -> str:
    """How often a helpful note scores above a not-helpful one (ties count half)."""
    if not (helpful and unhelpful):
        return "AUC needs both verdicts"
    wins = sum((h > u) + 0.5 * (h == u) for h in helpful for u in unhelpful)
    return f"AUC {wins / (len(helpful) * len(unhelpful)):.2f}"


def _scored(submissions: list[Submission], key: str) -> list[tuple[float, bool]]:
    """(the score the submission kept under `key`, whether X found the note helpful), for
    the notes X gave a verdict that have the score."""
    return [
        (float(score), s.status == HELPFUL)
        for s in submissions
        if (s.status == HELPFUL or s.status in NOT_HELPFUL)
        and isinstance(score := s.policy.get(key), int | float)
    ]


def calibration(submissions: list[Submission]) -> str:
    """The persona forecast against X's verdicts, on the notes that have both: the Brier score
    of P(Helpful) = (net helpful + 1) / 2 and the AUC of net helpful for "helpful if rated" —
    the number the send queue's ordering relies on."""
    pairs = [((net + 1) / 2, helpful) for net, helpful in _scored(submissions, "net_helpful")]
    if not pairs:
        return "Forecast against X's verdicts: no note has both yet"
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    helpful = [p for p, y in pairs if y]
    auc = _auc(helpful, [p for p, y in pairs if not y])
    return (
        f"Forecast against X's verdicts ({len(pairs)} notes, {len(helpful)} helpful): "
        f"Brier {brier:.3f}, {auc}"
    )


def score_against_verdicts(submissions: list[Submission], key: str, what: str) -> str | None:
    """A score each submission kept under `key` against X's verdicts, as an AUC for
    helpful-if-rated; None until a note has both."""
    pairs = _scored(submissions, key)
    if not pairs:
        return None
    helpful = [g for g, y in pairs if y]
    auc = _auc(helpful, [g for g, y in pairs if not y])
    return f"{what} against X's verdicts ({len(pairs)} notes, {len(helpful)} helpful): {auc}"


def gaussian_calibration(submissions: list[Submission]) -> str | None:
    """X's second aggregation (the Gaussian model's intercept, computed on the persona panel:
    `pipeline.forecast.gaussian`) against X's verdicts, beside the forecast's."""
    what = "Gaussian aggregation of the personas"
    return score_against_verdicts(submissions, "gaussian_intercept", what)


def evaluator_calibration(submissions: list[Submission]) -> str | None:
    """X's evaluator's claim-opinion score (recorded live, never a gate) against X's verdicts,
    beside the forecast's (an AI writer on X measured AUC 0.67)."""
    return score_against_verdicts(submissions, "evaluator_score", "X's evaluator's score")


def drop_kind(reason: str) -> str:
    """A dropped revision's reason without its particulars (a URL, a model's words)."""
    if reason.startswith("the source "):
        return "a cited source does not open"
    return reason.split(":")[0].split(" (")[0]


def revision_lines(revisions: list[LateRevision]) -> list[str]:
    """What the looks again after sending did (test mode and live): sent per window, dropped
    per reason, failed."""
    if not revisions:
        return []
    sent: dict[str, int] = {}
    dropped: dict[str, int] = {}
    for r in revisions:
        if r.state == RevisionState.SENT:
            sent[r.window] = sent.get(r.window, 0) + 1
        elif r.state == RevisionState.DROPPED:
            dropped[drop_kind(r.reason)] = dropped.get(drop_kind(r.reason), 0) + 1
    failed = sum(r.state == RevisionState.FAILED for r in revisions)
    pending = len(revisions) - sum(sent.values()) - sum(dropped.values()) - failed
    by_window = ", ".join(f"{w}: {n}" for w, n in sorted(sent.items()))
    line = (
        f"Revisions after sending (kept only when they add evidence): {len(revisions)} looked "
        f"at, {sum(sent.values())} sent" + (f" ({by_window})" if by_window else "")
    )
    line += f", {sum(dropped.values())} dropped, {failed} failed, {pending} on the way"
    return [line] + [f"  dropped: {why}: {n}" for why, n in sorted(dropped.items())]


def revised_in(revisions: list[LateRevision]) -> Callable[[Submission], Group]:
    """A note's group by its revision after sending: the last window it was revised in."""
    windows = {r.post_id: r.window for r in revisions if r.state == RevisionState.SENT}

    def group(s: Submission) -> Group:
        window = windows.get(s.post_id)
        return (0, "not revised") if window is None else (1, f"revised at {window}")

    return group


def outcome_report(
    submissions: list[Submission],
    needs: dict[int, str] | None = None,
    declined: dict[str, int] | None = None,
    revisions: list[LateRevision] | None = None,
) -> list[str]:
    """The report's lines: every live note on X, the forecast's calibration, then by group.
    `needs`: the brief's `note_need` per episode; `declined`: posts the brief said need no
    note, per reason (never sent, so no outcome: counted beside their reason); `revisions`:
    the looks again after sending (`LateRevisions`)."""
    live = [s for s in submissions if not s.test_mode and s.destination == "x"]
    lines = [outcome_row("Live notes on X", live).line(), calibration(live)]
    if withdrawn := sum(s.withdrawn_at is not None for s in live):
        lines.append(f"Withdrawn by us, early ratings predicting Not Helpful: {withdrawn}")
    lines += revision_lines(revisions or [])
    if (gaussian := gaussian_calibration(live)) is not None:
        lines.append(gaussian)
    if (evaluator := evaluator_calibration(live)) is not None:
        lines.append(evaluator)
    declined_rows = [
        f"  brief: {reason}: {n} declined, none sent (no note needed)"
        for reason, n in sorted((declined or {}).items())
    ]
    groupings: list[tuple[str, Callable[[Submission], Group], list[str]]] = [
        ("By the forecast's net helpfulness (ten bands over -1 … +1)", forecast_band, []),
        ("By what chose them (the explore share against the forecast's choice)", chosen_by, []),
        (
            "By the brief's word on the post's need for a note",
            need_reason(needs or {}),
            declined_rows,
        ),
        ("By the post's age when sent", age_band, []),
    ]
    if any(r.state == RevisionState.SENT for r in revisions or []):
        groupings.append(("By revision after sending", revised_in(revisions or []), []))
    for title, key, extra in groupings:
        groups: dict[Group, list[Submission]] = {}
        for s in live:
            groups.setdefault(key(s), []).append(s)
        rows = [
            f"  {outcome_row(name, notes).line()}" for (_, name), notes in sorted(groups.items())
        ]
        if rows or extra:
            rows += extra
            lines += ["", title, *rows]
    return lines


def live_outcome(submissions: list[Submission]) -> str | None:
    """The report's first line, for the digest: None before any live note on X."""
    if not any(not s.test_mode and s.destination == "x" for s in submissions):
        return None
    return outcome_report(submissions)[0]


def tokens_per_note(submissions: list[Submission], tokens_of: dict[int, int]) -> str | None:
    """The model tokens the live notes on X took (their episodes': prompt and completion),
    per note sent; None before any."""
    live = [s for s in submissions if not s.test_mode and s.destination == "x"]
    spent = [tokens_of[s.episode_id] for s in live if s.episode_id in tokens_of]
    if not spent:
        return None
    n = len(spent)
    return f"Model tokens per live note sent: {sum(spent) / n:,.0f} ({n} note{'s' * (n != 1)})"
