"""NoteCard → Block Kit, within Slack's limits (50 blocks, 3,000 characters a text)."""

from __future__ import annotations

import json
from typing import Any

from memory.curation import LessonAction, LessonBoard, actions_for, provenance
from pipeline.card import NOT_VOUCHING, CardAction, CardNotice, NoteCard
from pipeline.desk.standing import WriterStanding
from pipeline.evidence import Evidence
from pipeline.trajectory import EpisodeStatus

MAX_TEXT = 3000
MAX_BLOCKS = 50
MAX_SOURCES = 8
_NOTICE_MARKS = {
    CardNotice.SUPPORT_UNVERIFIED: ":warning:",
    CardNotice.MEDIA_NOT_INSPECTED: ":frame_with_picture:",
    CardNotice.UNSEEN: ":eyes:",
    CardNotice.REFUSED_BY: ":leftwards_arrow_with_hook:",
}


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": _cut(text)}}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": _cut(text)}]}


def _button(text: str, action: str, card: NoteCard, style: str | None = None) -> dict[str, Any]:
    button: dict[str, Any] = {
        "type": "button",
        "action_id": action,
        "value": str(card.episode_id),
        "text": {"type": "plain_text", "text": text, "emoji": True},
    }
    if style:
        button["style"] = style
    return button


def _escaped(text: str) -> str:
    """Untrusted text (the post, pages, the model's words, reasons that may quote them) shown
    as text: Slack's control characters escaped (no <!channel>, no <url|masked links>)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _link_target(url: str) -> str:
    """A URL inside Slack's `<url|text>`: its control characters percent-encoded, so that no
    page's URL can close the link early or start another."""
    return url.replace("&", "&amp;").replace("<", "%3C").replace(">", "%3E").replace("|", "%7C")


def _post(card: NoteCard) -> dict[str, Any]:
    return _context(f"Post: “{_cut(_escaped(card.post_excerpt), 400)}”")


def card_blocks(card: NoteCard) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if card.status in (EpisodeStatus.QUEUED, EpisodeStatus.RUNNING):
        blocks.append(
            _section(f":hourglass_flowing_sand: *Checking this post* ({card.episode_label})")
        )
        if card.post_excerpt:
            blocks.append(_post(card))
        blocks.append(_context(_escaped(card.progress or "Analysing the claim…")))
        return blocks
    if card.status == EpisodeStatus.NOTED and card.note:
        blocks.append(
            _section(
                f"*Proposed Community Note* ({card.episode_label})\n"
                + "\n".join(f">{_escaped(line)}" for line in card.note.splitlines())
            )
        )
        label = f"{card.char_count}/{card.char_limit} characters · _{card.label}_"
        label += "".join(
            f" · {_NOTICE_MARKS[kind]} {_escaped(text)}" for kind, text in card.notices()
        )
        blocks.append(_context(label))
        lines = []
        for source in card.sources[:MAX_SOURCES]:
            lines.append(
                f"• [{source.tier_name}] <{_link_target(source.url)}|"
                f"{_escaped(_cut(source.title, 120)).replace('|', '¦')}>"
                + ("" if source.vouches else f" · {NOT_VOUCHING}")
            )
        if lines:
            blocks.append(_section("*Sources*\n" + "\n".join(lines)))
        if card.forecast:
            reasons = _escaped(", ".join(card.forecast_reasons)) or "none"
            blocks.append(
                _context(f":crystal_ball: Rater forecast: {card.forecast}; reasons: {reasons}")
            )
    elif card.status == EpisodeStatus.ABSTAINED:
        blocks.append(
            _section(
                f":no_entry_sign: *No note: EvoNote abstained* ("
                f"{card.episode_label})\n{_escaped(card.abstain_reason or '')}"
            )
        )
        if card.refused_by:
            blocks.append(
                _context(f"{_NOTICE_MARKS[CardNotice.REFUSED_BY]} {_escaped(card.refusals())}")
            )
    else:
        blocks.append(
            _section(
                f":x: *This post could not be checked* ("
                f"{card.episode_label})\n{_escaped(card.failure_reason or '')}"
            )
        )
    if card.post_excerpt:
        blocks.insert(1, _post(card))
    if card.claim_pattern:
        gaps = "\n".join(f"– {_escaped(g)}" for g in card.top_gaps)  # the model's words
        blocks.append(_context(f"Claim pattern: {_escaped(card.claim_pattern)}\n{gaps}"))
    if card.timings:
        blocks.append(_context(f"Timings: {card.timings}"))
    if card.votes_up or card.votes_down:
        voters = ", ".join(f"<@{u}>" for u in card.voters[:20])
        blocks.append(_context(f":+1: {card.votes_up} · :-1: {card.votes_down} — {voters}"))
    if card.approved_by:
        blocks.append(_context(f":white_check_mark: Approved by <@{card.approved_by}>"))
    if card.submission:
        blocks.append(_context(f":outbox_tray: {_escaped(card.submission)}"))
    if card.evaluation:
        mark = ":octagonal_sign:" if card.held else ":bar_chart:"
        blocks.append(_context(f"{mark} {_escaped(card.evaluation)}"))
    if CardAction.VOTE_UP in card.actions():
        blocks.append(_feedback(card))
    blocks.append(
        {
            "type": "actions",
            "block_id": f"evonote_actions_{card.episode_id}",
            "elements": _buttons(card),
        }
    )
    return blocks[:MAX_BLOCKS]


FEEDBACK_ACTION = "evonote_feedback"


def _feedback(card: NoteCard) -> dict[str, Any]:
    """👍/👎 as Slack's feedback buttons (a context actions block); each carries its
    direction and the episode (`up:42`), so the vote reaches the right card."""
    return {
        "type": "context_actions",
        "block_id": f"evonote_feedback_{card.episode_id}",
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": FEEDBACK_ACTION,
                "positive_button": {
                    "text": {"type": "plain_text", "text": "👍"},
                    "value": f"up:{card.episode_id}",
                    "accessibility_label": "This note is helpful",
                },
                "negative_button": {
                    "text": {"type": "plain_text", "text": "👎"},
                    "value": f"down:{card.episode_id}",
                    "accessibility_label": "This note is not helpful",
                },
            }
        ],
    }


# CardAction → (label, Slack action id, style)
SLACK_BUTTONS: dict[CardAction, tuple[str, str, str | None]] = {
    CardAction.VOTE_UP: (":+1:", "evonote_vote_up", None),
    CardAction.VOTE_DOWN: (":-1:", "evonote_vote_down", None),
    CardAction.REGENERATE: ("Regenerate", "evonote_regenerate", None),
    CardAction.RETRY: ("Retry", "evonote_regenerate", "primary"),
    CardAction.EVIDENCE: ("Show evidence", "evonote_show_evidence", None),
    CardAction.APPROVE: ("Approve", "evonote_approve", "primary"),
    CardAction.SUBMIT: ("Submit to X", "evonote_submit", "danger"),
    CardAction.SUBMIT_ANYWAY: ("Submit anyway", "evonote_submit_anyway", "danger"),
}


def _buttons(card: NoteCard) -> list[dict[str, Any]]:
    """The card's buttons but its votes (those are feedback buttons, `_feedback`)."""
    buttons = []
    for action in card.actions():
        if action in (CardAction.VOTE_UP, CardAction.VOTE_DOWN):
            continue
        label, action_id, style = SLACK_BUTTONS[action]
        buttons.append(_button(card.label_of(action, label), action_id, card, style))
    return buttons


def evidence_blocks(episode_id: int, evidence: list[Evidence]) -> list[dict[str, Any]]:
    """What each read page said; page text is escaped like post text (it is untrusted)."""
    blocks = [_section(f"*Evidence for episode {episode_id}*")]
    for source in evidence[: MAX_BLOCKS - 1]:
        quotes = "\n".join(f">{_escaped(' '.join(q.split()))}" for q in source.quotes)
        summary = _escaped(source.excerpt[:500])
        title = _escaped(_cut(source.title or source.url, 150))
        blocks.append(_section(f"<{source.url}|{title}>\n{summary}\n{quotes}"))
    return blocks


def reason_modal(episode_id: int, channel: str, ts: str) -> dict[str, Any]:
    return {
        "type": "modal",
        "callback_id": "evonote_vote_reason",
        "private_metadata": json.dumps({"episode": episode_id, "channel": channel, "ts": ts}),
        "title": {"type": "plain_text", "text": "Why not helpful?"},
        "submit": {"type": "plain_text", "text": "Vote"},
        "blocks": [
            {
                "type": "input",
                "block_id": "reason",
                "label": {"type": "plain_text", "text": "What is wrong with this note?"},
                "element": {
                    "type": "plain_text_input",
                    "action_id": "text",
                    "multiline": True,
                    "max_length": 1000,
                },
            }
        ],
    }


def standing_blocks(standing: WriterStanding) -> list[dict[str, Any]]:
    """Where the writer stands with X: admission against the evaluators' bars, the writing
    limit, the hit rate so far (`evonote x status` prints the same lines)."""
    lines = standing.summary()
    return [
        {"type": "header", "text": {"type": "plain_text", "text": "EvoNote on X"}},
        _section(_escaped(lines[0])),
        _context("\n".join(_escaped(line) for line in lines[1:])),
        {"type": "divider"},
    ]


def lesson_blocks(board: LessonBoard, moderator: bool) -> list[dict[str, Any]]:
    """The App Home tab's lessons of this week, with buttons for moderators."""
    blocks: list[dict[str, Any]] = [
        _section(f"*EvoNote's lessons this week* (since {board.since:%Y-%m-%d})"),
        _context(
            "Lessons guide later episodes as advice, never as evidence. "
            + ("Approve, retire or restore them here." if moderator else "Moderators curate them.")
        ),
    ]
    for title, items in board.sections():
        blocks.append({"type": "header", "text": {"type": "plain_text", "text": title}})
        if not items:
            blocks.append(_context("none"))
        for item in items:
            text = f"*When* {_escaped(item.trigger)}\n*Do* {_escaped(item.strategy)}"
            blocks.append(_section(_cut(text)))
            blocks.append(_context(f"lesson {item.id} · {provenance(item)}"))
            if said := board.crowd.get(item.id or 0):
                blocks.append(_context(_escaped("raters on X: " + "; ".join(said))))
            if moderator:
                blocks.append(
                    {
                        "type": "actions",
                        "block_id": f"evonote_lesson_{item.id}_{title[:8]}",
                        "elements": [
                            {
                                "type": "button",
                                "action_id": f"evonote_lesson_{action.value}",
                                "value": str(item.id),
                                "text": {"type": "plain_text", "text": action.value.title()},
                                **({"style": "danger"} if action is LessonAction.RETIRE else {}),
                            }
                            for action in actions_for(item)
                        ],
                    }
                )
    return blocks
