"""What a text's words may come from besides the general vocabulary (`Provenance`: the pages
an episode read) and the text as it is checked and published (`normalise`: NFKC, hidden
characters removed, spacing made plain)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import regex

from pipeline.drafting.words import LETTERS, spelt_as_one_of, stem

# Characters kept: letters, marks, numbers, punctuation, symbols, and plain spacing.
_KEPT_CATEGORIES = ("L", "M", "N", "P", "S")
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


@dataclass(frozen=True)
class Provenance:
    """Where a text's words may come from besides the general vocabulary: the pages an episode
    read (their URLs may be cited, their words and numbers used). Lessons have none."""

    read_urls: tuple[str, ...] = ()
    read_text: str = ""  # titles, excerpts and quotes of the pages read
    language: str = "en"  # the note's language (its vocabulary counts beside English)
    read: str = field(init=False, repr=False, compare=False)  # read_text, normalised
    words: frozenset[str] = field(init=False, repr=False, compare=False)
    stems: frozenset[str] = field(init=False, repr=False, compare=False)
    tokens: frozenset[str] = field(init=False, repr=False, compare=False)  # read's, bare

    def __post_init__(self) -> None:
        # Computed once: a draft is checked sentence by sentence against the same pages.
        read = normalise(self.read_text)
        object.__setattr__(self, "read", read)
        # A page's address names it as its title does ("…/wiki/Detransition").
        paths = " ".join(unquote(urlsplit(u).path) for u in self.read_urls)
        words = LETTERS.findall(read) + LETTERS.findall(normalise(paths))
        object.__setattr__(self, "words", frozenset(w.lower() for w in words))
        object.__setattr__(self, "stems", frozenset(stem(w) for w in self.words))
        object.__setattr__(self, "tokens", frozenset(bare_token(t) for t in read.split()))

    def has_word(self, word: str) -> bool:
        """A word of the pages read, or another form of one ("detransitioning" where a page
        says "detransition"): the same Snowball stem, the one stemmer of the drafting room
        (`words.stem`). Measured against the hand-made endings it replaced (`bench.rules`):
        no honest verdict and no escape changed; one payload draft is caught by another rule
        instead (unread-tokens catches 94 bad drafts, was 95)."""
        lower = word.lower()
        return lower in self.words or stem(lower) in self.stems

    def spells_a_word(self, word: str) -> bool:
        """A word spelt a letter otherwise than one of the pages read ("hemolaser" for a
        page's "haemolaser"). A scan of every word read: asked only of a word that is neither
        read nor vocabulary."""
        return spelt_as_one_of(word.lower(), self.words)

    def says(self, token: str) -> bool:
        """Whether a page read writes the token as it stands, between spaces ("O157:H7",
        "mRNA-1273"): only pages of standing are read (`DraftContext.vouches`), so what one
        writes may be published as it wrote it."""
        bare = bare_token(token)
        return bool(bare) and bare in self.tokens

    @classmethod
    def of_urls(cls, urls: Iterable[str], language: str = "en") -> Provenance:
        return cls(read_urls=tuple(urls), language=language)


# What the character-by-character path does to ASCII, as one table: NFKC leaves ASCII as it
# is, printable characters are kept, spacing becomes a space, other control characters go.
_ASCII_CONTROLS = {c: (" " if chr(c).isspace() else None) for c in (*range(32), 127) if c != 10}


def normalise(text: str) -> str:
    """NFKC, hidden characters removed, spacing made plain; paragraph breaks kept."""
    if text.isascii():  # most notes and pages: one C call instead of a lookup per character
        plain = text.translate(_ASCII_CONTROLS)
    else:
        out: list[str] = []
        for ch in _IGNORABLE.sub("", unicodedata.normalize("NFKC", text)):
            if ch == "\n":
                out.append(ch)
            elif ch.isspace():
                out.append(" ")
            elif unicodedata.category(ch)[0] in _KEPT_CATEGORIES:
                out.append(ch)
        plain = "".join(out)
    lines = [re.sub(r" {2,}", " ", line).strip() for line in plain.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


NO_PROVENANCE = Provenance()


def bare_token(token: str) -> str:
    """A token without the punctuation that wraps it in a sentence."""
    return token.strip("()[]\"'“”‘’«».,;:!?…*")
