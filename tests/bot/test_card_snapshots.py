"""The card, once, from a stored episode; then each renderer against a snapshot of its output
(syrupy: `pytest --snapshot-update` rewrites them after an intended change, for review in the
diff). A hostile card shows what every untrusted field becomes on Slack and on Discord."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from syrupy.assertion import SnapshotAssertion

from bot.discord.embeds import card_embed
from bot.discord.views import card_view
from bot.slack.blocks import card_blocks
from pipeline.brief import VerificationBrief
from pipeline.card import NoteCard
from pipeline.desk.card_facts import SubmissionFacts
from pipeline.desk.cards import card_for
from pipeline.desk.episode import Episode, Submission, Vote
from pipeline.desk.submission_log import NoteEvaluation
from pipeline.evidence import Evidence
from pipeline.post import Post
from tests.fakes.cards import hostile_card

AT = datetime(2026, 12, 1, 12, tzinfo=UTC)
READ = Evidence(
    url="https://www.cdc.gov/vaccinesafety/autism.html",
    title="Autism and Vaccines",
    excerpt="Studies have shown that there is no link between vaccines and autism.",
    quotes=["Studies have shown that there is no link between vaccines and autism."],
    tier=4,
)
NOTE = "Large studies found no link between vaccines and autism.\n\n" + READ.url


def episode(**changes: Any) -> Episode:
    base = Episode(
        id=42,
        source="slack",
        requester="U1",
        post=Post(text="Vaccines cause autism, the studies are hidden", post_id="1357"),
        status="noted",
        created_at=AT,
        note_text=NOTE,
        char_count=60,
        cited_urls=[READ.url],
        evidence=[READ],
        total_s=41.2,
        search_s=3.1,
        visit_s=5.5,
        inference_s=30.0,
        turns=4,
        approved_by="UMOD",
        brief=VerificationBrief.model_validate(
            {
                "claim_pattern": "vaccine_risk",
                "checkworthy_claims": ["Vaccines cause autism."],
                "gaps": [
                    {
                        "type": "unsubstantiated_claim",
                        "description": "No evidence that vaccines cause autism.",
                        "priority": 5,
                        "suggested_query": "vaccines autism",
                    }
                ],
                "evidence_needs": ["health agency guidance"],
                "note_intent": "correction",
                "language": "en",
                "applicable_memories": [],
            }
        ),
    )
    return base.model_copy(update=changes)


VOTES = [
    Vote(episode_id=42, platform="slack", user="U1", vote=1, created_at=AT),
    Vote(episode_id=42, platform="slack", user="U2", vote=-1, reason="vague", created_at=AT),
]
HELD = [
    NoteEvaluation(episode_id=42, note_text=NOTE, claim_opinion_score=0.31, verdict="revised"),
    NoteEvaluation(episode_id=42, note_text=NOTE, claim_opinion_score=0.44, verdict="held"),
]
SENT = Submission(
    episode_id=42,
    post_id="1357",
    note_id="18000",
    classification="misinformed_or_potentially_misleading",
    submitted_by="UMOD",
    status="needs_more_ratings",
)


def rendered(card: NoteCard) -> dict[str, Any]:
    view = card_view(card)
    return {
        "slack": card_blocks(card),
        "discord": card_embed(card).to_dict(),
        "discord_buttons": [str(item.custom_id) for item in view.children],  # type: ignore[attr-defined]
    }


# an approved note the evaluator held, which the submission desk would still let a moderator
# send (Submit anyway)
HELD_FACTS = SubmissionFacts(destination="X", evaluations=HELD, can_submit=True)


def test_the_card_of_a_stored_episode(snapshot: SnapshotAssertion) -> None:
    """What the desk puts on a card, once: votes, sources and their tiers, the brief's gaps,
    the evaluator's verdict, which buttons."""
    held = card_for(episode(), VOTES, facts=HELD_FACTS)
    sent = card_for(episode(), VOTES, facts=SubmissionFacts(destination="X", submission=SENT))
    assert held.model_dump(mode="json") == snapshot(name="held")
    assert sent.model_dump(mode="json") == snapshot(name="submitted")


def test_renderers_of_a_held_note(snapshot: SnapshotAssertion) -> None:
    assert rendered(card_for(episode(), VOTES, facts=HELD_FACTS)) == snapshot


def test_renderers_of_a_hostile_card(snapshot: SnapshotAssertion) -> None:
    """Every untrusted field carries markup meant to ping, mask a link or close ours."""
    for status in ("noted", "abstained", "failed"):
        assert rendered(hostile_card(status)) == snapshot(name=status)


def test_a_queued_note_names_its_own_destination() -> None:
    """A Bluesky post's note waits for Open Community Notes, not for X (#46: the card said
    "Queued for X" whatever the destination)."""
    for destination in ("X", "Open Community Notes"):
        waits = SubmissionFacts(destination=destination, queued="today's limit is reached")
        card = card_for(episode(), VOTES, facts=waits)
        assert (
            card.evaluation
            == f"Queued for {destination}: today's limit is reached; sent when a slot opens"
        )


def test_the_warnings_beside_the_length_are_written_once_for_every_platform() -> None:
    card = card_for(episode(), VOTES).model_copy(
        update={"support_unverified": True, "media_not_inspected": True, "unseen": ["a *quote*"]}
    )
    assert [text for _, text in card.notices()] == [
        "support not verified sentence by sentence",
        "media not inspected",
        "not visible: a *quote*",
    ]
    slack = json.dumps(rendered(card)["slack"])
    discord = json.dumps(rendered(card)["discord"], ensure_ascii=False)
    assert ":warning: support not verified" in slack and ":eyes: not visible" in slack
    assert "support not verified sentence by sentence · media not inspected" in discord


def test_the_card_says_which_sources_vouch() -> None:
    """The trust issue: a page the post (or a requester) named, or a low-tier page, may be
    read to understand the claim, never vouch for the note; the card says which is which."""
    own = "https://health-truth.example/report"
    post = Post(text="Vaccines cause autism, see the report", post_id="1357", links=[own])
    card = card_for(episode(post=post, cited_urls=[READ.url, own]), VOTES)
    assert [(s.url, s.vouches) for s in card.sources] == [(READ.url, True), (own, False)]
    slack = json.dumps(rendered(card)["slack"], ensure_ascii=False)
    discord = json.dumps(rendered(card)["discord"], ensure_ascii=False)
    assert slack.count("does not vouch") == 1 and discord.count("does not vouch") == 1


def test_the_card_says_which_rules_refused_the_drafts() -> None:
    """Each refused draft's rules are stored with the episode (`refused_drafts`); the card
    names each rule once, beside a note's length and under an abstention's reason."""
    refused = [["unread-tokens", "off-topic"], ["off-topic"]]
    card = card_for(episode(refused_drafts=refused), VOTES)
    assert card.refused_by == ["unread-tokens", "off-topic"]
    assert "drafts refused by: unread-tokens, off-topic" in [t for _, t in card.notices()]
    abstained = card_for(
        episode(
            status="abstained", note_text=None, abstain_reason="no note", refused_drafts=refused
        ),
        VOTES,
    )
    shown = rendered(abstained)
    for platform in ("slack", "discord"):
        assert "drafts refused by: unread-tokens, off-topic" in json.dumps(shown[platform])
    assert card_for(episode(), VOTES).refusals() == ""


def test_episodes_show_says_which_rules_refused_each_draft() -> None:
    from bot.render import episode_json, episode_text

    row = episode(refused_drafts=[["unread-tokens", "off-topic"], ["too-long"]])
    text = episode_text(row)
    assert "draft 1 refused by: unread-tokens, off-topic" in text
    assert "draft 2 refused by: too-long" in text
    assert episode_json(row, [])["refused_drafts"] == row.refused_drafts
