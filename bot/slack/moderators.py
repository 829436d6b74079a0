"""Who moderates in Slack: the user ids and user groups in EVONOTE_SLACK__MODERATORS."""

from __future__ import annotations

from slack_sdk.web.async_client import AsyncWebClient

from bot.settings import SlackSettings
from pipeline.desk.moderation import Voter


class SlackModerators:
    def __init__(self, settings: SlackSettings, client: AsyncWebClient) -> None:
        self.settings = settings
        self.client = client
        self._ids: set[str] | None = None  # user groups expanded once, on first use

    async def is_moderator(self, user: str) -> bool:
        if self._ids is None:
            ids: set[str] = set()
            for entry in self.settings.moderator_ids:
                if entry.startswith("S"):  # a user group: its members are moderators
                    response = await self.client.usergroups_users_list(usergroup=entry)
                    ids.update(response.get("users", []))
                else:
                    ids.add(entry)
            self._ids = ids
        return user in self._ids

    async def voter(self, user: str) -> Voter:
        return Voter("slack", user, await self.is_moderator(user), "EVONOTE_SLACK__MODERATORS")
