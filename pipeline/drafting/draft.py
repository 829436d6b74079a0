"""A draft as every check sees it: the write parsed once into its sentences, the pages it
cites that were read and those it cites that were not, and the note as it would be published.

A repair or a citation added gives a new `Draft` from the old one's parts; nothing splits the
prose a second time (`tests/pipeline/test_drafting_room.py` counts the splits of a decision).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.note import AssembledNote, assemble_note, split_sentences


@dataclass(frozen=True)
class Draft:
    """A write, parsed once: its sentences, the pages it cites that were read (`cited`), those
    it cites that were not (`unread`), and the note as it would be published."""

    action: Write
    sentences: tuple[str, ...]
    cited: tuple[str, ...]
    unread: tuple[str, ...]
    note: AssembledNote

    @classmethod
    def parse(cls, action: Write, read: Collection[str]) -> Draft:
        """The write's prose split into sentences (the one split of a decision), its
        citations sorted into read and not read (`read`: the URLs of the pages read)."""
        return cls._of(action, tuple(split_sentences(action.text)), read)

    @classmethod
    def _of(cls, action: Write, sentences: tuple[str, ...], read: Collection[str]) -> Draft:
        urls = action.cited_urls()
        cited = tuple(u for u in urls if u in read)
        return cls(
            action=action,
            sentences=sentences,
            cited=cited,
            unread=tuple(u for u in urls if u not in read),
            note=assemble_note(action.text, list(cited)),
        )

    @property
    def text(self) -> str:
        return self.action.text

    @property
    def prose(self) -> str:
        """The note's prose as published, its sources left out."""
        return self.note.text.split("\n\n")[0].strip()

    def citing(self, support: list[SupportedClaim], read: Collection[str]) -> Draft:
        """The same prose citing `support` instead."""
        return Draft._of(self.action.model_copy(update={"support": support}), self.sentences, read)

    def worded(self, text: str, sentences: Iterable[str], read: Collection[str]) -> Draft:
        """The prose as `text`, whose sentences are `sentences` (a repair's: the old ones,
        some dropped or ended), with the same citations."""
        action = self.action.model_copy(update={"text": text})
        return Draft._of(action, tuple(sentences), read)

    def keeping(
        self,
        sentences: list[str],
        read: Collection[str],
        support: list[SupportedClaim] | None = None,
    ) -> Draft:
        """The draft of only `sentences`, joined as prose, citing `support` (by default what
        it cites)."""
        update: dict[str, object] = {"text": " ".join(sentences)}
        if support is not None:
            update["support"] = support
        return Draft._of(self.action.model_copy(update=update), tuple(sentences), read)
