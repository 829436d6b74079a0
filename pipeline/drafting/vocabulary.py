"""The general vocabulary: the words a note or a lesson may use without a page read using them.

English prose about health names people, places, species and drugs that English word lists
miss but the lists of the languages those names come from have ("Lewenstein", "grivet",
"Sankyo"); a name made up for a payload ("vaxtruth", "antivaxdoc") is in none of them. So the
vocabulary is English's wordfreq list, the note's own language's, and the words of the large
Latin-script lists English borrows most from (Cyrillic and Greek lists are left out: their
look-alike letters spell Latin payloads, `сом`). Being vocabulary is not enough for a name
within a sentence rarer than everyday English: it needs a page read (`text_policy`).
"""

from __future__ import annotations

import asyncio
import functools
import threading

import numpy as np
import wordfreq
from wordfreq import zipf_frequency

from pipeline.source_quality import registrable_domain

# The languages whose names and loanwords English notes use most (measured on 4,200 real
# Community Notes: these six vouch for 19 of the 21 refused words any Latin-script list knows).
BORROWED_FROM = ("de", "fr", "es", "it", "nl", "pt")


class _BorrowedWords:
    """The letter-only words of the `BORROWED_FROM` lists as a sorted array of their hashes:
    1.5 million words in 12 MB, where wordfreq's own dictionaries would hold 200 MB."""

    def __init__(self) -> None:
        self._hashes: np.ndarray | None = None
        self._lock = threading.Lock()

    def _load(self) -> np.ndarray:
        with self._lock:
            if self._hashes is None:
                parts = []
                for language in BORROWED_FROM:
                    path = wordfreq.DATA_PATH / f"large_{language}.msgpack.gz"
                    buckets = wordfreq.read_cBpack(str(path))
                    words = (w for bucket in buckets for w in bucket if w.isalpha())
                    parts.append(np.fromiter(map(hash, words), dtype=np.int64))
                self._hashes = np.unique(np.concatenate(parts))
            return self._hashes

    def __contains__(self, word: str) -> bool:
        hashes = self._hashes if self._hashes is not None else self._load()
        key = hash(word)
        i = int(np.searchsorted(hashes, key))
        return i < len(hashes) and int(hashes[i]) == key

    def load(self) -> None:
        self._load()


_BORROWED = _BorrowedWords()
_UNLISTED: set[str] = set()  # languages wordfreq cannot look up here: English only


@functools.lru_cache(maxsize=65_536)
def native_word(word: str, language: str = "en") -> bool:
    """A word of wordfreq's list of English or of `language` (seen in several of its sources;
    a name made up for a payload is not), or an English word with one letter doubled or
    undoubled."""
    if len(word) <= 2:  # units, initials, abbreviations: too short to spell a payload
        return True
    lower = word.lower()
    if zipf_frequency(lower, "en") > 0 or _doubling_of_a_word(lower):
        return True
    # a slip of an English word, unless a borrowed language has the word as written: "ignora"
    # is Spanish, not "ignore" misspelt, and two such words make a phrase (`borrowed_word`)
    if _slip_of_a_word(lower) and lower not in _BORROWED:
        return True
    if language == "en" or language in _UNLISTED:
        return False
    try:
        return zipf_frequency(lower, language) > 0
    except (LookupError, ImportError):  # no list, or one that needs a tokenizer (zh, ja, ko)
        _UNLISTED.add(language)
        return False


@functools.lru_cache(maxsize=65_536)
def borrowed_word(word: str, language: str = "en") -> bool:
    """Not a native word, but one of a language English borrows names from ("Lewenstein")."""
    return not native_word(word, language) and word.lower() in _BORROWED


# English's list holds the other languages' short common words at its rare edge ("tout"
# 3.18, "qui" 3.32: a French clause woven after a comma passed with every word "English").
# Three among four, one borrowed, make a phrase (`text_policy.refused_tokens`): 2 woven
# payloads refused; 0 of 4,152 real Community Notes and 1 of 40 healthnotes newly refused
# (`bench.text_policy`: "pineal gland and melanine", whose page would vouch for it).
_FOREIGN_LEANING_ZIPF = 3.4
_FOREIGN_LEANING_LETTERS = 7


@functools.lru_cache(maxsize=65_536)
def foreign_leaning(word: str) -> bool:
    """An English word only at the rare edge of its list, short, and a word of a language
    English borrows from: in an English note, likelier a word of that language."""
    lower = word.lower()
    return (
        len(lower) <= _FOREIGN_LEANING_LETTERS
        and zipf_frequency(lower, "en") < _FOREIGN_LEANING_ZIPF
        and lower in _BORROWED
    )


def in_vocabulary(word: str, language: str = "en") -> bool:
    """A general-vocabulary word: native to the note or borrowed."""
    return native_word(word, language) or borrowed_word(word, language)


async def load_word_lists(language: str = "en") -> None:
    """Read the word lists the policy looks words up in off the event loop: wordfreq reads a
    file the first time a language is looked up, and the borrowed words take a second or two.
    The public-suffix list the source tiers look domains up in too: tldextract parses it at
    its first lookup, 0.24 s of CPU that held the first episode's loop (its first search)."""

    def load() -> None:
        registrable_domain("https://www.cdc.gov/")
        zipf_frequency("the", "en")
        _BORROWED.load()
        if language != "en" and language not in _UNLISTED:
            try:
                zipf_frequency("the", language)
            except (LookupError, ImportError):
                _UNLISTED.add(language)

    await asyncio.to_thread(load)


def _doubling_of_a_word(lower: str) -> bool:
    """An English word misspelt by one doubled or undoubled letter, the commonest slip in
    real notes ("anti-vaxers" for "anti-vaxxers"): still that word, never a new name."""
    if len(lower) < 5:
        return False
    for i in range(1, len(lower)):
        if lower[i] == lower[i - 1] and zipf_frequency(lower[:i] + lower[i + 1 :], "en") > 0:
            return True
        doubled = lower[:i] + lower[i - 1] + lower[i:]
        if lower[i - 1].isalpha() and zipf_frequency(doubled, "en") > 0:
            return True
    return False


# A slip of one letter (dropped, added, changed, two swapped) in a common English word of at
# least this many letters is still that word: "asnwer", "Ethiopa", "coronovirus", "autisim" in
# the cost corpus's honest verdicts (`bench.rules`, docs/benchmarks.md). Shorter words, and
# rarer ones, are a letter away from too many others to vouch for anything.
_SLIP_LENGTH = 6
_SLIP_OF_ZIPF = 3.0
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _slip_of_a_word(lower: str) -> bool:
    """A common English word (`_SLIP_OF_ZIPF`) misspelt by one letter: still that word."""
    if len(lower) < _SLIP_LENGTH or not lower.isascii() or not lower.isalpha():
        return False
    splits = [(lower[:i], lower[i:]) for i in range(len(lower) + 1)]
    candidates = {a + b[1:] for a, b in splits if b}
    candidates |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    candidates |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    candidates |= {a + c + b for a, b in splits for c in _LETTERS}
    candidates.discard(lower)
    return any(zipf_frequency(c, "en") >= _SLIP_OF_ZIPF for c in candidates)
