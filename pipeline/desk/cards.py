"""Episode records → the platform-neutral card every front end renders."""

from __future__ import annotations

from pipeline.card import CardSource, NoteCard, post_excerpt
from pipeline.desk.card_facts import SubmissionFacts, sent_line
from pipeline.desk.episode import CROWD_PLATFORM, Episode, Vote
from pipeline.desk.ports import EpisodeRepository
from pipeline.desk.revision_log import LateRevision, RevisionState
from pipeline.desk.submission_log import EvaluationVerdict, NoteEvaluation
from pipeline.drafting.context import DraftContext
from pipeline.redact import redact
from pipeline.source_quality import TIER_NAMES, source_tier
from pipeline.trajectory import EpisodeStatus


def timings_line(row: Episode) -> str:
    if row.total_s is None:
        return "Timings: none (the episode did not finish)"
    return (
        f"Timings: search {row.search_s or 0:.1f} s · visit {row.visit_s or 0:.1f} s · "
        f"inference {row.inference_s or 0:.1f} s · total {row.total_s:.1f} s · "
        f"{row.turns or 0} turns"
    )


def revision_line(r: LateRevision) -> str:
    """What became of a look again at the note sent, as a card says it."""
    if r.state == RevisionState.SENT:
        return f"Revised at {r.window} as note {r.note_id} ({r.reason}): {r.note_text}"
    if r.state in (RevisionState.DECIDED, RevisionState.REPLACING):
        return f"Revision at {r.window} being sent ({r.reason}): {r.note_text}"
    if r.state == RevisionState.FAILED:
        return f"Revision at {r.window} failed: {r.reason}"
    return f"Looked at again at {r.window}, kept as sent: {r.reason}"


def unstored_card(post_ref: str, why: str) -> NoteCard:
    """The answer to a request the database could not take: it says so (nothing is running
    behind it) and has no buttons; asking again is the retry."""
    return NoteCard(
        episode_id=0,
        status=EpisodeStatus.FAILED,
        post_excerpt=post_excerpt(post_ref),
        failure_reason=f"This request was not stored — {redact(why)}. Ask again in a minute.",
    )


def evaluation_line(row: Episode, evaluations: list[NoteEvaluation]) -> tuple[str, bool] | None:
    """What X's evaluator said of this note (the card's current text), and whether it holds
    it; or of the note a revision replaced."""
    mine = [e for e in evaluations if e.note_text == row.note_text]
    if mine:
        last = mine[-1]
        if last.verdict == EvaluationVerdict.HELD:
            return (
                f"Held: X's evaluator scores this note {last.claim_opinion_score:.2f}, under "
                "the bar, and no revision cleared it",
                True,
            )
        if last.verdict == EvaluationVerdict.RECORDED:
            return (
                f"X's evaluator scores this note {last.claim_opinion_score:.2f} (recorded, not "
                "a gate: live, the forecast decides)",
                False,
            )
        if last.revision > 0:
            first = evaluations[0].claim_opinion_score
            return (
                f"Revised for X's evaluator ({first:.2f} → {last.claim_opinion_score:.2f}): "
                "approve this revision to submit it",
                False,
            )
        return f"X's evaluator scores this note {last.claim_opinion_score:.2f}", False
    return None


def recorded_score(row: Episode, evaluations: list[NoteEvaluation]) -> str:
    """Live, X's evaluator's score of the card's note beside why it waits or is held (it holds
    nothing itself); "" when it was not recorded so."""
    mine = [e for e in evaluations if e.note_text == row.note_text]
    if not mine or mine[-1].verdict != EvaluationVerdict.RECORDED:
        return ""
    return f" · X's evaluator scores it {mine[-1].claim_opinion_score:.2f} (recorded, not a gate)"


def crowd_line(votes: list[Vote]) -> str | None:
    """What X's raters found of the note (their vote's reason), and whether the moderators'
    votes say otherwise; None before a verdict."""
    crowd = next((v for v in votes if v.platform == CROWD_PLATFORM), None)
    if crowd is None:
        return None
    moderators = sum(v.vote for v in votes if v.platform != CROWD_PLATFORM)
    disagree = moderators and (moderators > 0) != (crowd.vote > 0)
    return (crowd.reason or "") + (" — the moderators' votes say otherwise" if disagree else "")


class EpisodeCrowdVerdicts:
    """`memory.curation.CrowdVerdicts` over the episodes' votes: the crowd's verdict as the
    card says it (`crowd_line`)."""

    def __init__(self, store: EpisodeRepository) -> None:
        self.store = store

    async def crowd_said(self, episode_id: int) -> str | None:
        return crowd_line(await self.store.votes(episode_id))


def card_for(
    row: Episode,
    votes: list[Vote] | None = None,
    progress: str | None = None,
    facts: SubmissionFacts | None = None,
) -> NoteCard:
    """`facts`: what the submission desk says of sending the note (`SubmissionDesk.
    card_facts`: the destination that takes the post, what was sent, the evaluator's scores,
    why it waits or is held, whether Submit is offered); none where submitting is not set."""
    facts = facts or SubmissionFacts()
    submission, submit_to = facts.submission, facts.destination
    queued, held_by = facts.queued, facts.held_by
    votes_of_all = votes or []
    votes = [v for v in votes_of_all if v.platform != CROWD_PLATFORM]
    read = {e.url: e for e in row.evidence}
    # the card says which sources vouched, as the drafting room judged them
    judged = DraftContext.of(row.post, read, post_links=row.post.named_links())
    sources = []
    for url in row.cited_urls:
        source = read.get(url)
        tier = source.tier if source else source_tier(url)
        sources.append(
            CardSource(
                url=url,
                title=(source.title if source else "") or url,
                tier=tier,
                tier_name=TIER_NAMES[tier],
                quotes=[" ".join(q.split()) for q in (source.quotes if source else [])],
                vouches=judged.vouches(url),
            )
        )
    if progress is None and row.status == EpisodeStatus.QUEUED and row.delay_reason:
        progress = row.delay_reason[0].upper() + row.delay_reason[1:]
    card = NoteCard(
        episode_id=row.id,
        status=row.status,
        progress=progress,
        post_excerpt=post_excerpt(row.post_text()),
        note=row.note_text,
        char_count=row.char_count,
        sources=sources,
        abstain_reason=row.abstain_reason,
        refused_by=list(dict.fromkeys(rule for draft in row.refused_drafts for rule in draft)),
        failure_reason=redact(row.failure_reason) if row.failure_reason else None,
        support_unverified=row.support_checked is False,
        media_not_inspected=row.media_not_inspected() > 0,
        unseen=list(row.post.unseen),
        votes_up=sum(1 for v in votes if v.vote > 0),
        votes_down=sum(1 for v in votes if v.vote < 0),
        voters=list(dict.fromkeys(v.user for v in votes)),
        approved_by=row.approved_by,
        timings=timings_line(row).removeprefix("Timings: ") if row.total_s is not None else None,
    )
    if submission is not None:
        to = submit_to or submission.destination
        card.submission = f"{sent_line(submission, to)} · status: {submission.status or 'pending'}"
        if (raters := crowd_line(votes_of_all)) is not None:
            card.submission += f" · {raters}"
        for revision in facts.revisions:
            card.submission += f" · {revision_line(revision)}"
    card.submit_to = submit_to
    card.can_submit = facts.can_submit  # decided where submitting is, by its own rules
    if submission is None and (said := evaluation_line(row, facts.evaluations)):
        card.evaluation, card.held = said
    recorded = recorded_score(row, facts.evaluations)
    if queued is not None and submission is None:
        # the destination's own name: a Bluesky post's note goes to Open Community Notes
        card.evaluation = (
            f"Queued for {submit_to or 'X'}: {queued}; sent when a slot opens{recorded}"
        )
    if held_by is not None and submission is None and queued is None:
        card.evaluation, card.held = f"Held: {held_by}{recorded}", True
    if brief := row.brief:
        card.claim_pattern = brief.claim_pattern.value.replace("_", " ")
        card.top_gaps = [
            f"P{g.priority} {g.type.value.replace('_', ' ')}: {g.description}"
            for g in brief.top_gaps()
        ]
    if forecast := row.forecast:
        card.forecast = forecast.summary()
        card.forecast_reasons = forecast.top_reasons
    return card
