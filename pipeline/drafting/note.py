"""The platform's length rule and the assembly of the final note text.

Community Notes count each URL as one character and allow at most 280 characters. The writer
model gives prose and sources; code assembles and measures the text, so the limit is guaranteed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.drafting.provenance import normalise
from pipeline.drafting.words import prose_sentences

NOTE_CHAR_LIMIT = 280

# A URL runs to the next whitespace; trailing sentence punctuation is not part of it.
_URL = re.compile(r"https?://[^\s<>\"]+", re.IGNORECASE)
_EMPTY_BRACKETS = re.compile(r"\(\s*(?:see|source|sources|via)?:?\s*\)|\[\s*\]", re.IGNORECASE)
_TRAILING = ".,;:!?'\"’”»…"
# X's URL evaluator takes every token of this shape, scheme or not, for a link that must
# answer 200 (`evaluator/url_evaluator.py`): prose like "etc.Also" fails a note.
X_LINK_LIKE = re.compile(r"(?:https?://)?(?:www\.)?[\w\-._~%]+\.[a-zA-Z]{2,}(?:/[^\s]*)?")
# A sentence run into the next without its space ("autism.Large", "etc.Also").
_RUN_ON = re.compile(r"(?<=[^\W_]{2})([.!?])(?=[A-Z][a-z])")


def _trim_url(raw: str) -> str:
    url = raw
    while url:
        last = url[-1]
        if last in _TRAILING:
            url = url[:-1]
        elif last == ")" and url.count("(") < url.count(")"):
            url = url[:-1]  # "(see https://x.org/a)" — the paren closes the prose, not the URL
        elif last == "]" and url.count("[") < url.count("]"):
            url = url[:-1]
        else:
            break
    return url


def find_urls(text: str) -> list[str]:
    """The URLs in `text`, in order, with trailing punctuation removed."""
    return [_trim_url(m.group(0)) for m in _URL.finditer(text)]


def note_length(text: str) -> int:
    """Characters as Community Notes counts them: every URL counts as one."""
    return len(text) - sum(len(url) - 1 for url in find_urls(text))


def strip_urls(text: str) -> str:
    """Prose with any URLs removed (sources are appended by code, not typed by the model)."""
    out = text
    for url in find_urls(text):
        out = out.replace(url, "")
    out = _EMPTY_BRACKETS.sub("", out)
    out = re.sub(r"[ \t]+([.,;:!?])", r"\1", out)
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def split_sentences(prose: str) -> list[str]:
    """Sentences of the prose; each is checked against its sources on its own."""
    return prose_sentences(strip_urls(prose))


@dataclass(frozen=True)
class AssembledNote:
    text: str
    urls: list[str]
    length: int


def note_prose(prose: str) -> str:
    """The model's prose as it will be published: normalised, typed URLs removed, a space
    after every sentence's end (so X's URL evaluator sees no link in "etc.Also")."""
    return with_run_ons_apart(strip_urls(normalise(prose)))


def with_run_ons_apart(prose: str) -> str:
    """The prose normalised, with a space after every sentence's end run into the next
    ("autism.Large"): as X's URL evaluator must see it."""
    return _RUN_ON.sub(r"\1 ", normalise(prose))


def link_like_tokens(prose: str) -> list[str]:
    """What X's URL evaluator would take for links in published prose (there must be none:
    the sources are the URLs after it)."""
    return X_LINK_LIKE.findall(prose)


def assemble_note(prose: str, urls: list[str]) -> AssembledNote:
    """Prose, a blank line, then each source URL on its own line."""
    clean = note_prose(prose)
    text = clean + "\n\n" + "\n".join(urls) if urls else clean
    return AssembledNote(text=text, urls=list(urls), length=note_length(text))
