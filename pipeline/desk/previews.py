"""A post link pasted in a chat channel: what the bot can say about it before anyone asks.

Written once for every chat front end: whether a link is a post EvoNote reads, the one request
key per post and channel (however many times the link is pasted), and the preview — the post
as EvoNote reads it, why it cannot be read, or the episode already asked for there.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pipeline.card import post_excerpt
from pipeline.desk.episode import Episode
from pipeline.desk.notes import NoteService
from pipeline.errors import EvoNoteError
from pipeline.post import Post
from pipeline.trajectory import EpisodeStatus

# A preview is shown beside the pasted message: a post that takes longer is previewed as
# "could not be read in time" (a draft may still be asked for; it reads the post again).
PREVIEW_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class PostPreview:
    url: str
    post: Post | None = None  # as EvoNote reads it
    unreadable: str | None = None  # why it cannot be read
    episode: Episode | None = None  # the note already asked for in this channel


def first_line(post: Post) -> str:
    """The post's first line, trimmed as a card quotes a post."""
    return post_excerpt(next((ln for ln in post.text.splitlines() if ln.strip()), "(no text)"))


def what_became_of(episode: Episode) -> str:
    """The note already asked for on this post in this channel, in a line (untrusted text:
    each platform escapes it)."""
    where = f"episode {episode.id}"
    if episode.status == EpisodeStatus.NOTED:
        note = (episode.note_text or "").split("\n")[0][:300]
        return f"a note is drafted for this post ({where}): “{note}”"
    if episode.status == EpisodeStatus.ABSTAINED:
        return f"no note for this post ({where}): {(episode.abstain_reason or '')[:300]}"
    if episode.status == EpisodeStatus.FAILED:
        return f"the draft for this post failed ({where}); Regenerate on its card tries again"
    return f"a note for this post is being drafted ({where})"


class LinkPreviews:
    def __init__(self, notes: NoteService, timeout_s: float = PREVIEW_TIMEOUT_S) -> None:
        self.notes = notes
        self.timeout_s = timeout_s

    def request_key(self, platform: str, channel: str, url: str) -> str | None:
        """One episode per post and channel, however its link is spelt: a second paste (or
        click) starts nothing new. None when the link is not to a post EvoNote reads."""
        post = self.notes.posts.post_key(url)
        return f"{platform}:link:{channel}:{post}" if post else None

    async def preview(self, url: str, key: str) -> PostPreview:
        if (episode := await self.notes.asked_before(key)) is not None:
            return PostPreview(url, episode=episode)
        try:
            async with asyncio.timeout(self.timeout_s):
                return PostPreview(url, post=await self.notes.posts.resolve(url))
        except EvoNoteError as e:
            return PostPreview(url, unreadable=str(e))
        except TimeoutError:
            return PostPreview(url, unreadable=f"its site did not answer in {self.timeout_s:.0f} s")
