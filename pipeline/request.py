"""A request for a note, whatever platform it came from."""

from __future__ import annotations

from pydantic import BaseModel, Field

# The source of a request a watchlist scan made.
WATCH_SOURCE = "x_watch"
# Requests nobody is waiting for: they run after what people asked for.
BACKGROUND_SOURCES = frozenset({WATCH_SOURCE, "bench"})


class ReplyTarget(BaseModel):
    """Where the answer goes (a Slack thread, a Discord message, a terminal)."""

    platform: str = "cli"
    channel: str | None = None
    thread: str | None = None
    message: str | None = None


class NoteRequest(BaseModel):
    post_ref: str = Field(description="a post URL or the post's text, as the person gave it")
    post_file: str | None = Field(
        default=None,
        description="a JSON file of the post, named by an operator on the command line. Only "
        "the CLI sets it: nothing from chat, a post or a scan can make the server open a path",
    )
    requester: str = "cli"
    source: str = Field(default="cli", description="cli, slack, discord or x_watch")
    vouched: bool = Field(
        default=False,
        description="whether a moderator vouches for the requester (a Slack moderator or "
        "member of a moderators' user group, a Discord moderator role) or the operator asked "
        "(the CLI): only such requesters' episodes count as support that activates a lesson, "
        "so two plain accounts sending one post activate nothing, and nor do two watches (a "
        "scanned post carries no vouch)",
    )
    reply_to: ReplyTarget = Field(default_factory=ReplyTarget)
    key: str | None = Field(
        default=None,
        description="idempotency key (a Slack event id, a click's action id): a request with "
        "a key already seen returns the existing episode instead of starting another",
    )
