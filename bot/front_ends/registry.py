"""The chat front ends this build has, by the platform name an episode's reply target
carries: `serve` and the worker go through this table and name none of them."""

from __future__ import annotations

from bot.front_ends.discord_platform import DISCORD
from bot.front_ends.platform import Platform
from bot.front_ends.slack_platform import SLACK

PLATFORMS: dict[str, Platform] = {platform.name: platform for platform in (SLACK, DISCORD)}
