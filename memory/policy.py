"""How the experience memory merges, activates and retires lessons (a light module: the
settings import it)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class MemoryPolicy(BaseModel):
    """How lessons are merged, activated and retired. It is also the settings section
    `EVONOTE_MEMORY__*` (with how the memory runs): one definition, one default each."""

    model_config = ConfigDict(frozen=True)

    merge_similarity: float = Field(
        default=0.88,
        gt=0,
        le=1,
        description="cosine at which a new lesson counts as a near-duplicate",
    )
    activation_support: int = Field(
        default=2,
        ge=1,
        description="different supporters a moderator vouches for (Slack moderators and their "
        "groups, Discord moderator roles, the CLI's operator; X's raters when their verdict "
        "agrees with the lesson's direction) whose episodes must "
        "support a provisional lesson before it becomes active and reaches a prompt (one "
        "requester's episodes count once, a plain account's or a watch's not at all; a "
        "moderator's approval activates it at any support)",
    )
    require_approval: bool = Field(
        default=False,
        description="lessons stay provisional (never guide an episode as active) until a "
        "moderator approves them, whatever their support: for cautious deployments",
    )
    retire_net_down: int = Field(default=3, ge=1, description="net down-votes that retire a lesson")
    unused_days: float = Field(
        default=60, gt=0, description="days without use that retire a lesson"
    )
    candidates: int = Field(
        default=50, ge=1, description="lessons each retrieval ranks before the top ones are kept"
    )
    # Measured (`bench.retrieval`, COVID-QA topics, 73 lessons, 30 new questions, 2026-12-02):
    # of the fused top 4, same-topic share 0.54 with no floor; 0.63 at 0.3 (2 questions get
    # none), 0.68 at 0.4 (6), 0.71 at 0.5 (11), 0.75 at 0.6 (15). In the real-model lesson
    # study every lesson of a 4-lesson memory reached every post, the measles lesson an autism
    # post at cosine 0.37 (and the model copied its words into a draft); the on-topic ones
    # scored 0.50–0.74.
    min_similarity: float = Field(
        default=0.4,
        ge=0,
        le=1,
        description="cosine of a lesson's trigger to the query below which the lesson reaches "
        "no prompt, however few lessons the memory holds (0.4 is measured on the local "
        "MiniLM embedder; another embedder's cosines run on its own scale)",
    )
    # Measured (`bench.lesson_retrieval`: 81 hand-labelled posts, 81 lessons of other posts'
    # claims; 2026-12-03): precision@4 on the post's topic, clean / with 75% junk — before #57
    # (floor 0.4, top 4) 0.53 / 0.18; veto only 0.53 / 0.46; veto + at most 2 0.62 / 0.54;
    # veto + relative 0.85, at most 2 0.68 / 0.59; 0.9 and 2 (these defaults, with
    # `EVONOTE_MEMORY__TOP_K` 2) 0.68 / 0.59 at
    # 1.04 / 1.11 lessons a post; 0.9 and 1 0.67 / 0.61 at 0.70; 0.95 and 2 0.70 / 0.58. The
    # share of posts with none stays 0.30 / 0.27 (the 0.4 floor's).
    relative_floor: float = Field(
        default=0.9,
        ge=0,
        le=1,
        description="share of the best match's cosine a lesson's trigger must reach to be "
        "shown with it: lessons much less like the post than the best one are left out",
    )
