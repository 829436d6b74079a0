"""A post link pasted in a channel, previewed where it was pasted (`chat.unfurl`): the post as
EvoNote reads it and a *Draft a note* button, why it cannot be read, or the note already asked
for in that channel; in auto-draft channels the draft starts at once, its card in the thread."""

from __future__ import annotations

from typing import Any

from bot.slack.blocks import _context, _cut, _escaped, _section
from pipeline.desk.previews import PostPreview, first_line, what_became_of

DRAFT_ACTION = "evonote_draft_link"


def preview_blocks(preview: PostPreview, drafting: bool) -> list[dict[str, Any]]:
    if preview.episode is not None:
        return [_section(f"*EvoNote* · {_escaped(what_became_of(preview.episode))}")]
    if preview.post is None:
        return [
            _context(
                f"*EvoNote* cannot read this post: {_cut(_escaped(preview.unreadable or ''), 400)}"
                " — paste its text with `/note` to check it."
            )
        ]
    post = preview.post
    author = f" by {_escaped(post.author)}" if post.author else ""
    blocks = [_section(f"*Post{author}*: “{_escaped(first_line(post))}”")]
    unseen = [m for m in post.media if not (m.caption or m.alt_text)]
    seen = "EvoNote reads its text" + (
        f"; {len(unseen)} image(s) or video(s) it cannot see" if unseen else ""
    )
    if drafting:
        blocks.append(_context(f"{seen}. Drafting a note: the card follows in the thread."))
        return blocks
    blocks.append(_context(f"{seen}."))
    button = {
        "type": "button",
        "action_id": DRAFT_ACTION,
        "value": preview.url,
        "text": {"type": "plain_text", "text": "Draft a note", "emoji": True},
        "style": "primary",
    }
    blocks.append({"type": "actions", "elements": [button]})
    return blocks
