"""The Discord bot's handlers with recorded stand-ins for interactions (dpytest has no app
commands); the episode behind them is real: scripted model server, corpus, SQLite."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

import discord
import pytest

from bot.app import App
from bot.discord.embeds import MAX_FIELD, MAX_FIELDS, MAX_TOTAL, card_embed
from bot.discord.frontend import DiscordFrontend
from bot.discord.views import CardButton, ReasonModal, card_view
from pipeline.card import CardSource, NoteCard
from tests.fakes.discord_interactions import Interaction
from tests.fakes.model_server import ScriptedModelServer

POST = "The measles vaccine causes autism, skip the MMR shot"


def frontend_for(app: App) -> DiscordFrontend:
    return DiscordFrontend(app.cards, app.settings.discord)


async def noted(frontend: DiscordFrontend) -> int:
    interaction = Interaction(frontend.client)
    await frontend.on_note(interaction, POST)
    await frontend.background.drain()
    return (await frontend.desk.book.recent(1))[0].id or 0


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(item.custom_id) for item in view.children]  # type: ignore[attr-defined]


async def test_note_defers_then_edits_in_the_result(app: App) -> None:
    frontend = frontend_for(app)
    interaction = Interaction(frontend.client)
    await frontend.on_note(interaction, POST)
    assert interaction.response.calls[0] == ("defer", {"thinking": True})
    await frontend.background.drain()
    final = interaction.edits[-1]
    episode = (await frontend.desk.book.recent(1))[0]
    assert final["embed"].title == f"Proposed Community Note (episode {episode.id})"
    fields = {f.name: f.value for f in final["embed"].fields}
    assert fields["Post"] == " ".join(POST.split())[:200]
    checking = interaction.edits[0]["embed"]
    assert checking.title.startswith("Checking") and checking.fields[0].name == "Post"
    assert "AI-drafted — needs human review" in fields["Length"]
    assert "[official]" in fields["Sources"]
    assert "Helpful" in fields["Rater forecast"]
    episode = (await frontend.desk.book.recent(1))[0]
    assert custom_ids(final["view"]) == [
        f"evonote:{a}:{episode.id}" for a in ("up", "down", "regenerate", "evidence", "approve")
    ]
    assert any(e["embed"].title.startswith("Checking") for e in interaction.edits[:-1])
    assert (episode.source, episode.requester, episode.reply_channel) == ("discord", "1", "20")


async def test_buttons_survive_a_restart(app: App) -> None:
    episode = await noted(frontend_for(app))
    restarted = frontend_for(app)  # a new process: a new client, the same database
    match = re.fullmatch(CardButton.__discord_ui_compiled_template__, f"evonote:up:{episode}")
    assert match is not None
    interaction = Interaction(restarted.client, user=5)
    button = await CardButton.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
    await button.callback(interaction)  # type: ignore[arg-type]
    assert [(v.user, v.vote) for v in await app.store.votes(episode)] == [("5", 1)]
    edited = interaction.response.calls[-1]
    assert edited[0] == "edit_message" and "👍 1" in edited[1]["embed"].fields[-1].value
    again = Interaction(restarted.client, user=5)
    await button.callback(again)  # type: ignore[arg-type]
    assert again.response.calls[-1][1]["content"] == "You have already voted 👍 on this note."
    assert len(await app.store.votes(episode)) == 1


@pytest.mark.parametrize(
    "custom_id",
    [
        "evonote:up:abc",
        "evonote:up:",
        "evonote:up:0",
        "evonote:up:-3",
        "evonote:up:" + "9" * 30,
        "evonote:delete:1",
        "evonote:up:1:extra",
        "evonote:UP:1",
    ],
)
def test_malformed_button_ids_are_never_dispatched(custom_id: str) -> None:
    """Only our actions and ids the database can hold reach a callback."""
    assert re.fullmatch(CardButton.__discord_ui_compiled_template__, custom_id) is None


async def test_down_vote_asks_for_a_reason(app: App) -> None:
    frontend = frontend_for(app)
    episode = await noted(frontend)
    interaction = Interaction(frontend.client, user=6)
    await frontend.on_button(interaction, "down", episode)
    modal = interaction.response.calls[-1][1]["modal"]
    assert isinstance(modal, ReasonModal)
    modal.reason._value = "the source is a blog"  # what the person typed
    submitted = Interaction(frontend.client, user=6)
    await modal.on_submit(submitted)  # type: ignore[arg-type]
    assert [(v.vote, v.reason) for v in await app.store.votes(episode)] == [
        (-1, "the source is a blog")
    ]


async def test_submitting_defers_then_follows_up(app: App) -> None:
    """Evaluating and revising outlast an interaction's 3 s: Submit defers, then answers in
    a follow-up (here: X is not configured)."""
    frontend = frontend_for(app)
    episode = await noted(frontend)
    moderator = Interaction(frontend.client, user=8, roles=(77,))
    await frontend.on_button(moderator, "submit_anyway", episode)
    assert moderator.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    assert moderator.followups[-1]["content"].startswith("Submitting notes is not configured")
    assert moderator.followups[-1]["ephemeral"] is True


def test_a_held_card_offers_submit_anyway() -> None:
    card = NoteCard(
        episode_id=5,
        status="noted",
        post_excerpt="p",
        note="n",
        approved_by="8",
        can_submit=True,
        held=True,
    )
    assert custom_ids(card_view(card))[-1] == "evonote:submit_anyway:5"


async def test_only_moderators_approve(app: App) -> None:
    frontend = frontend_for(app)
    episode = await noted(frontend)
    member = Interaction(frontend.client, user=7, roles=(1,))
    await frontend.on_button(member, "approve", episode)
    assert member.response.calls[-1][1]["content"].startswith("Only moderators can approve notes")
    assert member.response.calls[-1][1]["ephemeral"] is True
    moderator = Interaction(frontend.client, user=8, roles=(77,))
    await frontend.on_button(moderator, "approve", episode)
    row = await app.store.get(episode)
    assert row is not None and row.approved_by == "8"
    assert "approve" not in " ".join(custom_ids(moderator.response.calls[-1][1]["view"]))


async def test_evidence_regenerate_and_refusals(app: App) -> None:
    frontend = frontend_for(app)
    episode = await noted(frontend)
    evidence = Interaction(frontend.client)
    await frontend.on_button(evidence, "evidence", episode)
    assert "no link between the MMR vaccine and autism" in evidence.response.calls[-1][1]["content"]
    clicks = [Interaction(frontend.client) for _ in range(2)]
    for click in clicks:  # a double click regenerates once
        await frontend.on_button(click, "regenerate", episode)
        await frontend.background.drain()
    assert len(await app.store.recent()) == 2
    # and the second click is answered too (with the regenerated card), not left "thinking"
    regenerated = max(r.id or 0 for r in await app.store.recent())
    for click in clicks:
        assert click.edits, "the interaction was never answered"
        assert f"evonote:up:{regenerated}" in custom_ids(click.edits[-1]["view"])
    elsewhere = Interaction(frontend.client, channel=99)
    await frontend.on_note(elsewhere, POST)
    assert "not enabled in this channel" in elsewhere.response.calls[-1][1]["content"]
    message = SimpleNamespace(content="", embeds=[])
    empty = Interaction(frontend.client)
    await frontend.on_message(empty, message)  # type: ignore[arg-type]
    assert "no text or link" in empty.response.calls[-1][1]["content"]


async def test_failures_are_recorded_with_a_retry_button(
    app: App, app_env: ScriptedModelServer
) -> None:
    frontend = frontend_for(app)
    unsupported = Interaction(frontend.client)
    await frontend.on_note(unsupported, "https://www.tiktok.com/@a/video/1")
    await frontend.background.drain()
    assert "unsupported site" in unsupported.edits[-1]["embed"].description
    assert custom_ids(unsupported.edits[-1]["view"])[0].startswith("evonote:retry:")
    await asyncio.to_thread(app_env.stop)
    down = Interaction(frontend.client)
    await frontend.on_note(down, POST)
    await frontend.background.drain()
    assert "cannot reach the model server" in down.edits[-1]["embed"].description
    assert [r.status for r in await app.store.recent(2)] == ["failed", "failed"]


async def test_the_message_menu_reads_text_and_links(app: App) -> None:
    frontend = frontend_for(app)
    message = SimpleNamespace(content=POST, embeds=[SimpleNamespace(url="https://x.example/a")])
    interaction = Interaction(frontend.client)
    await frontend.on_message(interaction, message)  # type: ignore[arg-type]
    await frontend.background.drain()
    assert (await app.store.recent(1))[0].post_ref == f"{POST} https://x.example/a"


def test_only_the_intent_needed_is_requested(app: App) -> None:
    assert frontend_for(app).client.intents.message_content is False
    settings = app.settings.discord.model_copy(update={"reaction_trigger": True})
    with_reactions = DiscordFrontend(app.cards, settings)
    assert with_reactions.client.intents.message_content is True


def test_embeds_stay_within_discord_limits() -> None:
    card = NoteCard(
        episode_id=3,
        status="noted",
        note="n" * 9000,
        char_count=280,
        sources=[
            CardSource(
                url=f"https://s{i}.org/" + "p" * 200, title="t" * 300, tier=4, tier_name="official"
            )
            for i in range(40)
        ],
        forecast="f" * 3000,
        claim_pattern="vaccine risk",
        top_gaps=["g" * 900] * 6,
        voters=[str(10**17 + i) for i in range(300)],
        votes_up=300,
        timings="x" * 3000,
    )
    embed = card_embed(card)
    assert len(embed) <= MAX_TOTAL
    assert len(embed.fields) <= MAX_FIELDS
    assert all(len(f.value or "") <= MAX_FIELD for f in embed.fields)


async def test_lessons_are_curated_with_slash_lessons(app: App) -> None:
    from memory.curation import LessonDesk
    from memory.models import LessonKind, LessonStatus, MemoryItem
    from pipeline.ports import MemoryPhase

    assert app.memory is not None
    lesson, _ = await app.memory.add_or_reinforce(
        MemoryItem(
            phase=MemoryPhase.NOTE_WRITING,
            kind=LessonKind.AVOID,
            trigger="posts about detox diets curing cancer",
            strategy="say what oncology guidelines recommend instead of debating the diet",
        ),
        "t",
    )
    frontend = DiscordFrontend(app.cards, app.settings.discord, lessons=LessonDesk(app.memory))
    member = Interaction(frontend.client, user=5)
    await frontend.lessons.show(member)
    shown = member.response.calls[-1][1]
    assert shown["ephemeral"] is True
    assert "posts about detox diets" in str(shown["embed"].fields[0].value)
    assert custom_ids(shown["view"]) == []  # buttons only for moderators

    moderator = Interaction(frontend.client, user=6, roles=(77,))
    await frontend.lessons.show(moderator)
    ids = custom_ids(moderator.response.calls[-1][1]["view"])
    assert ids == [f"evonote:lesson:approve:{lesson.id}", f"evonote:lesson:retire:{lesson.id}"]

    refused = Interaction(frontend.client, user=5)
    await frontend.lessons.act(refused, "approve", lesson.id or 0)
    assert refused.response.calls[-1][1]["content"].startswith("Only moderators")
    await frontend.lessons.act(moderator, "approve", lesson.id or 0)
    approved = await app.memory.store.get(lesson.id or 0)
    assert approved is not None and approved.status == LessonStatus.ACTIVE
    assert moderator.response.calls[-1][0] == "edit_message"
