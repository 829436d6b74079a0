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
        description="different requesters a moderator vouches for (Slack moderators and their "
        "groups, Discord moderator roles, the CLI's operator, a configured watch) whose "
        "episodes must support a provisional lesson before it becomes active and reaches a "
        "prompt (one requester's episodes count once, a plain account's not at all; a "
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
