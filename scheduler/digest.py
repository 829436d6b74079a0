"""The daily digest: built from what the database and the desk hold, then posted to each
chat channel configured for it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, TypeVar

from pipeline.desk.standing import WriterStanding

DIGEST_EVERY_S = 24 * 3600
D = TypeVar("D")  # the digest, as the front ends post it


class DigestDesk(Protocol):
    """What the moderator desk says of the notes on X (`pipeline.desk.moderation`)."""

    async def standing(self) -> WriterStanding | None: ...

    async def live_outcome(self) -> str | None: ...


async def post_digest(
    desk: DigestDesk,
    build: Callable[[WriterStanding | None, str | None], Awaitable[D]],
    posters: Sequence[Callable[[D], Awaitable[None]]],
) -> None:
    """`build`: the digest from the writer's standing and the live notes' outcome;
    `posters`: one per channel it goes to."""
    standing = await desk.standing()
    outcome = await desk.live_outcome()
    digest = await build(standing, outcome)
    for post in posters:
        await post(digest)
