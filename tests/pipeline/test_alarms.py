"""Alarms on our standing with X (#60): the 14-day net helpful rate negative, the writing
limit lower than a day ago; shown first where the standing is (`x status`, App Home, digest)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from pipeline.desk.standing import standing_of
from tests.fakes.submissions import NOW, live


def test_a_negative_14_day_net_helpful_rate_and_a_falling_limit_raise_alarms() -> None:
    """A day ago: 19 live notes (a new writer's 10 a day), 2 rated helpful and 1 not
    helpful. Since: a 20th note, and two more rated not helpful make 3 of the last 5 — the
    limit falls to 5 — and the 14-day rate (2 − 3) / 5."""
    notes = [live(n, 10) for n in range(14)] + [live(25, 0.1)]
    notes += [
        live(20, 5, ("currently_rated_helpful", 3)),
        live(21, 5, ("currently_rated_helpful", 3)),
        live(22, 4, ("currently_rated_not_helpful", 2)),
        live(23, 3, ("needs_more_ratings", 2), ("currently_rated_not_helpful", 0.5)),
        live(24, 2, ("currently_rated_not_helpful", 0.2)),
    ]
    standing = standing_of(notes, NOW)
    assert standing.writing_limit == 5
    assert standing.alarms == [
        "⚠ Net helpful rate over 14 days is -0.20 (5 rated notes): X lowers the writing "
        "limit while it stays negative",
        "⚠ The writing limit fell from 10 to 5 in the last 24 h",
    ]
    assert standing.summary()[1:3] == standing.alarms  # first, after admission
    calm = [n for n in notes if n.status != "currently_rated_not_helpful"]
    assert standing_of(calm, NOW).alarms == []


def test_the_app_home_and_the_digest_show_the_alarms() -> None:
    from bot.slack.blocks import standing_blocks

    notes = [live(n, 1, ("currently_rated_not_helpful", 0.5)) for n in range(3)]
    standing = standing_of(notes, NOW)
    assert any("Net helpful rate over 14 days is -1.00" in a for a in standing.alarms)
    home = str(standing_blocks(standing))
    assert "Net helpful rate over 14 days is -1.00" in home
    assert "The writing limit fell from 10 to 5" in home


async def test_the_digest_says_the_alarms_on_its_x_line(engine: AsyncEngine) -> None:
    from adapters.sqlstore.episodes import EpisodeStore
    from bot.digest import build_digest

    notes = [live(n, 1, ("currently_rated_not_helpful", 0.5)) for n in range(3)]
    digest = await build_digest(EpisodeStore(engine), None, standing=standing_of(notes, NOW))
    (line,) = [line for line in digest.text().splitlines() if line.startswith("On X: ")]
    assert "⚠ Net helpful rate over 14 days is -1.00" in line
    assert "⚠ The writing limit fell from 10 to 5 in the last 24 h" in line
