"""Who moderates in Slack: the user ids and user groups in EVONOTE_SLACK__MODERATORS."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import SlackSettings
from pipeline.desk.moderation import Voter

log = logging.getLogger(__name__)
# how long a request waits for Slack to say whether its requester is vouched for
VOUCH_WAIT_S = 2.0


class SlackModerators:
    def __init__(
        self,
        settings: SlackSettings,
        client: AsyncWebClient,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.client = client
        self.clock = clock
        self._ids: set[str] | None = None  # user groups expanded, for `moderators_ttl_s`
        self._read_at = 0.0

    async def is_moderator(self, user: str, fresh: bool = False) -> bool:
        """`fresh`: read the groups now (approving and submitting); else within the TTL."""
        stale = self.clock() - self._read_at >= self.settings.moderators_ttl_s
        if fresh or self._ids is None or stale:
            self._ids, complete = await self._read()
            self._read_at = self.clock() if complete else 0.0  # incomplete: read again next time
        return user in self._ids

    async def _read(self) -> tuple[set[str], bool]:
        """The moderators now, and whether every group was read. A group that cannot be read
        counts as empty: a user removed from it must not keep moderating because Slack was
        unreachable."""
        ids: set[str] = set()
        complete = True
        for entry in self.settings.moderator_ids:
            if not entry.startswith("S"):
                ids.add(entry)
                continue
            try:  # a user group: its members are moderators
                response = await self.client.usergroups_users_list(usergroup=entry)
            except (SlackApiError, SlackClientError, OSError) as e:
                log.warning("moderator group %s could not be read: %s", entry, e)
                complete = False
                continue
            ids.update(response.get("users", []))
        return ids, complete

    async def voter(self, user: str, fresh: bool = False) -> Voter:
        moderator = await self.is_moderator(user, fresh)
        return Voter("slack", user, moderator, "EVONOTE_SLACK__MODERATORS")

    async def vouched(self, user: str) -> bool:
        """Whether a moderator vouches for the requester (a moderator, or a member of a
        moderators' user group): their episodes' lessons count as support. Asked of Slack at
        most `VOUCH_WAIT_S`: a slow or failing Slack delays no request, whose lessons then
        count as a plain account's (the safe side)."""
        try:
            async with asyncio.timeout(VOUCH_WAIT_S):
                return await self.is_moderator(user)
        except TimeoutError:
            log.warning("moderator groups not read in %s s: %s asks unvouched", VOUCH_WAIT_S, user)
            return False
