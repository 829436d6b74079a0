"""What a moderator sees about an episode, whatever the chat platform (one model, many
renderers)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

from pipeline.trajectory import EpisodeStatus


class CardAction(StrEnum):
    """A button on a card; which ones a card offers is decided once, in `NoteCard.actions`."""

    VOTE_UP = "up"
    VOTE_DOWN = "down"
    REGENERATE = "regenerate"
    RETRY = "retry"
    EVIDENCE = "evidence"
    APPROVE = "approve"
    SUBMIT = "submit"
    SUBMIT_ANYWAY = "submit_anyway"


class CardNotice(StrEnum):
    """A warning beside a note's length; each front end gives it its own mark."""

    SUPPORT_UNVERIFIED = "support_unverified"
    MEDIA_NOT_INSPECTED = "media_not_inspected"
    UNSEEN = "unseen"
    REFUSED_BY = "refused_by"


# Beside a source that was read but vouches for nothing (`CardSource.vouches`).
NOT_VOUCHING = "read, does not vouch (not a source of standing)"


class CardSource(BaseModel):
    url: str
    title: str
    tier: int
    tier_name: str
    quotes: list[str] = Field(default_factory=list)
    # a source of standing (`pipeline.drafting.context.DraftContext.vouches`); one the post or
    # its requesters named, or of a low tier, was read but vouches for nothing
    vouches: bool = True


POST_EXCERPT_CHARS = 200


def post_excerpt(text: str) -> str:
    """The post as a card quotes it: one line, at most POST_EXCERPT_CHARS characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= POST_EXCERPT_CHARS else flat[: POST_EXCERPT_CHARS - 1] + "…"


class NoteCard(BaseModel):
    episode_id: int
    status: EpisodeStatus = Field(description="queued, running, noted, abstained or failed")
    progress: str | None = Field(default=None, description="while running: what is happening")
    post_excerpt: str = Field(default="", description="the post being checked, trimmed")
    note: str | None = None
    char_count: int | None = None
    char_limit: int = 280
    sources: list[CardSource] = Field(default_factory=list)
    abstain_reason: str | None = None
    failure_reason: str | None = None
    claim_pattern: str | None = None
    top_gaps: list[str] = Field(default_factory=list)
    forecast: str | None = None
    forecast_reasons: list[str] = Field(default_factory=list)
    timings: str | None = None
    # a note published before a support check that could not run sent its draft back (#59):
    # only episodes stored by earlier versions carry it now
    support_unverified: bool = False
    refused_by: list[str] = Field(
        default_factory=list, description="the rules that refused its drafts, each once"
    )
    media_not_inspected: bool = False
    unseen: list[str] = Field(
        default_factory=list, description="what the post's source could not show EvoNote"
    )
    votes_up: int = 0
    votes_down: int = 0
    voters: list[str] = Field(default_factory=list)
    approved_by: str | None = None
    can_submit: bool = Field(
        default=False,
        description="approved, not yet submitted, and a notes destination takes its post",
    )
    submit_to: str | None = Field(
        default=None, description="where Submit sends the note: X, Open Community Notes"
    )
    submission: str | None = Field(default=None, description="what X has of this note")
    evaluation: str | None = Field(
        default=None, description="what X's evaluator said of the note before it was sent"
    )
    held: bool = Field(
        default=False, description="the evaluator's bar was not cleared: sent only by override"
    )
    label: str = "AI-drafted — needs human review"

    @property
    def episode_label(self) -> str:
        """ "episode 12", or, for a request the database has not taken, that it waits on this
        server's disk (queued) or was not stored (there is no episode 0 to ask about)."""
        if self.episode_id:
            return f"episode {self.episode_id}"
        return "queued on disk" if self.status == EpisodeStatus.QUEUED else "not stored"

    def label_of(self, action: CardAction, label: str) -> str:
        """A button's label: Submit names where it sends the note."""
        if action is CardAction.SUBMIT and self.submit_to:
            return f"Submit to {self.submit_to}"
        return label

    def notices(self) -> list[tuple[CardNotice, str]]:
        """The warnings the card shows beside the note's length, in order, as plain text (each
        front end escapes it and adds its mark): written once for every platform."""
        found: list[tuple[CardNotice, str]] = []
        if self.support_unverified:
            found.append(
                (CardNotice.SUPPORT_UNVERIFIED, "support not verified sentence by sentence")
            )
        if self.media_not_inspected:
            found.append((CardNotice.MEDIA_NOT_INSPECTED, "media not inspected"))
        if self.unseen:
            found.append((CardNotice.UNSEEN, "not visible: " + "; ".join(self.unseen)))
        if self.refused_by:
            found.append((CardNotice.REFUSED_BY, self.refusals()))
        return found

    def refusals(self) -> str:
        """Which rules sent drafts back ("drafts refused by: unread-tokens, off-topic"), or
        "" when none did: on a note beside its length, under an abstention's reason."""
        return "drafts refused by: " + ", ".join(self.refused_by) if self.refused_by else ""

    def actions(self) -> list[CardAction]:
        """The buttons: none while running; Retry after a failure; votes and Regenerate on a
        note or an abstention; Show evidence and Approve (until approved) on a note; Submit to
        X once approved and submittable (Submit anyway when the evaluator held it)."""
        if self.status in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING) or not self.episode_id:
            return []  # (no episode: a request that was never stored has nothing to act on)
        if self.status == EpisodeStatus.FAILED:
            return [CardAction.RETRY]
        actions = [CardAction.VOTE_UP, CardAction.VOTE_DOWN, CardAction.REGENERATE]
        if self.status == EpisodeStatus.NOTED:
            actions.append(CardAction.EVIDENCE)
            if not self.approved_by:
                actions.append(CardAction.APPROVE)
            if self.can_submit:
                actions.append(CardAction.SUBMIT_ANYWAY if self.held else CardAction.SUBMIT)
        return actions
