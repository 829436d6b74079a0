"""A card full of what an attacker would put in one: markup, mentions, links in disguise."""

from __future__ import annotations

from pipeline.card import CardSource, NoteCard

HOSTILE = (
    "<!channel> <https://evil.example|CDC guidance> "
    "[the CDC's statement](https://evil.example/phish) @everyone **now**"
)


EVIL_URL = "https://a.org/x?q=1&r=2|<https://evil.example>"


def hostile_card(status: str) -> NoteCard:
    return NoteCard(
        episode_id=7,
        status=status,
        progress=HOSTILE,
        post_excerpt=HOSTILE,
        note=f"Studies (p<0.05) show no link & no harm. {HOSTILE}" if status == "noted" else None,
        char_count=120,
        sources=[CardSource(url=EVIL_URL, title=HOSTILE, tier=4, tier_name="official")],
        abstain_reason=HOSTILE,
        failure_reason=HOSTILE,
        claim_pattern=HOSTILE,
        top_gaps=[HOSTILE],
        forecast="Helpful",
        forecast_reasons=[HOSTILE],
        unseen=[HOSTILE],
        submission=HOSTILE,
        evaluation=HOSTILE,
    )
