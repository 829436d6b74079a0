"""What model-written text may contain before it is published (a note) or remembered (a lesson).

An allowlist, held in code whatever the model says. Text is first normalised (NFKC; format,
control, private-use and unassigned characters removed: zero-width spaces, bidi overrides and
Unicode tag characters cannot survive). Then every whitespace-separated token must have one of
the shapes a sentence of prose is made of — a word (letters and digits, joined by hyphens,
apostrophes or slashes), a number (with decimals, a unit, a percent), an abbreviation of single
letters (`U.S.`, `e.g.`) or a dash — wrapped in ordinary punctuation. A URL, a domain however
spelled (`evil.com`, `evil[.]com`, `hxxps://`, `evil . com`), an @handle or a run of symbols has
none of these shapes and is refused, unless it is exactly one of the URLs (or hosts) the caller
allows: the pages a note's episode actually read. Words that mix look-alike scripts (a Cyrillic
`е` inside a Latin word) are refused too.

One judgement cannot be an allowlist: whether prose is addressed to a system or a reader as an
instruction. `instruction_like` catches the phrasing injections use; the token rules above are
what guarantees that no such instruction can carry a link, a domain or a handle anywhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

import tldextract

# Characters kept: letters, marks, numbers, punctuation, symbols, and plain spacing.
_KEPT_CATEGORIES = ("L", "M", "N", "P", "S")

_ATOM = r"(?:\d+(?:[.,:]\d+)*|[^\W_]+)"
_CORE = rf"{_ATOM}(?:[-–—'’/]{_ATOM})*"
_ABBREVIATION = r"(?:[^\W\d_]\.){1,4}(?:[^\W\d_]\.?)?"
_DASH = r"[-–—&+=/…]"
_TOKEN = re.compile(
    r"[(\[\"'“‘«¿¡]*"  # opening punctuation
    r"[~≈±<>≤≥+\-−$€£]?"  # a sign or currency before a number
    rf"(?:{_ABBREVIATION}|{_CORE}|{_DASH})"
    r"(?:%|°[CF]?|×)?"  # a unit after a number
    r"[)\]\"'”’».,;:!?…]*"  # closing punctuation
)
# Spelled-out dots between two words: bracketed ("evil (dot) anything") is never prose; a bare
# "dot" counts when the next word is a public suffix ("evil dot com", "evil dot example").
_BRACKETED_DOT = re.compile(r"[^\W_]+\s*[(\[{<]\s*(?:dot|punto|point)\s*[)\]}>]\s*[^\W_]+", re.I)
_BARE_DOT = re.compile(r"[^\W_]+\s+dot\s+([^\W\d_]+)", re.IGNORECASE)
_SUFFIXES = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
# Letters spaced apart ("e v i l d o t c o m") spell what no token shows.
_SPACED_LETTERS = re.compile(r"(?<!\S)(?:[^\W\d_]\.? ){3,}[^\W\d_]\.?(?!\S)")
# Scripts whose letters look like Latin ones; a word mixing two of them is a homoglyph trick.
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")

_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:instructions?|rules?|"
    r"prompts?|guidelines?|directions?|above|previous|prior|system)\b|"
    r"\bsystem prompt\b|\bdeveloper mode\b|\bjailbreak|\byou are now\b|\bfrom now on\b|"
    r"\bnew instructions?\b|\bpretend to be\b|\bas an ai\b|\blanguage model\b|"
    r"\b(?:approve|submit|publish|upvote|downvote)\b[^.!?\n]{0,20}\b(?:this|the|my|our) "
    r"(?:note|post|lesson|account)\b|"
    r"\b(?:always|never)\b[^.!?\n]{0,40}\b(?:this|that|these) (?:account|user|author|site|"
    r"website|domain|channel)s?\b|"
    r"\btrust (?:this|that|the|our|my) (?:account|user|author|site|website|domain|channel)\b|"
    r"\b(?:click|subscribe|retweet|repost|donate)\b|"
    r"\bfollow (?:us|me|them|this account|the link)\b|"
    r"\bvisit (?:our|my|this|their) (?:site|website|page|link|channel|profile)\b|"
    r"\breveal (?:your|the) (?:prompt|instructions)\b|"
    # orders to copy a literal into the output ("always add this to the note: …")
    r"\b(?:add|append|include|insert|put|write|say|end|copy)\b[^.!?\n]{0,40}"
    r"(?:\b(?:this|the following|these words)\s*(?:(?:to|in|into) (?:the|every|each|your) "
    r"(?:note|answer)s?\s*)?[:\"“']|\bverbatim\b|\bword for word\b)|\bnotes? with\s*:",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[^\W_]+")
# Encoded payloads (base64, hex) look like one long word with many case changes.
_CASE_CHANGE = re.compile(r"[a-z][A-Z]")


# What the character-by-character path does to ASCII, as one table: NFKC leaves ASCII as it
# is, printable characters are kept, spacing becomes a space, other control characters go.
_ASCII_CONTROLS = {c: (" " if chr(c).isspace() else None) for c in (*range(32), 127) if c != 10}


def normalise(text: str) -> str:
    """NFKC, hidden characters removed, spacing made plain; paragraph breaks kept."""
    if text.isascii():  # most notes and pages: one C call instead of a lookup per character
        plain = text.translate(_ASCII_CONTROLS)
    else:
        out: list[str] = []
        for ch in unicodedata.normalize("NFKC", text):
            if ch == "\n":
                out.append(ch)
            elif ch.isspace():
                out.append(" ")
            elif unicodedata.category(ch)[0] in _KEPT_CATEGORIES:
                out.append(ch)
        plain = "".join(out)
    lines = [re.sub(r" {2,}", " ", line).strip() for line in plain.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _host(url: str) -> str:
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return ""
    return host.lower().removeprefix("www.")


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else ""


def _mixes_scripts(token: str) -> bool:
    if token.isascii():  # ASCII letters are all Latin: no name lookup per character
        return False
    scripts = {_script(ch) for ch in token if ch.isalpha()}
    return len(scripts & set(_CONFUSABLE_SCRIPTS)) > 1


# English words that are also country codes ("a dot in the image"): too common to refuse.
_ENGLISH_SUFFIXES = frozenset(
    "in is at to me my be it so us no do go on or an as by of up we am id".split()
)
_RESERVED_NAMES = frozenset({"example", "test", "invalid", "localhost", "local", "onion"})


def _is_suffix(word: str) -> bool:
    """A top-level domain or other public suffix (the list bundled with tldextract)."""
    w = word.lower()
    if w in _ENGLISH_SUFFIXES:
        return False
    return w in _RESERVED_NAMES or _SUFFIXES(f"x.{w}").suffix == w


def _encoded(token: str) -> bool:
    longest = max((len(w) for w in _WORDS.findall(token)), default=0)
    return longest > 40 or (longest >= 12 and len(_CASE_CHANGE.findall(token)) >= 2)


def refused_tokens(text: str, allowed_urls: Iterable[str] = ()) -> list[str]:
    """The tokens of normalised `text` that are not prose nor an allowed URL or host, in order."""
    allowed = set(allowed_urls)
    hosts = {h for h in (_host(u) for u in allowed) if h}
    refused: list[str] = []
    for token in text.split():
        bare = token.strip("()[]\"'“”‘’«».,;:!?…")
        if token in allowed or bare in allowed:
            continue
        if bare and bare.lower().removeprefix("www.") in hosts:
            continue
        if not _TOKEN.fullmatch(token) or _mixes_scripts(token) or _encoded(token):
            refused.append(token)
    refused.extend(m.group(0) for m in _BRACKETED_DOT.finditer(text))
    refused.extend(m.group(0) for m in _BARE_DOT.finditer(text) if _is_suffix(m.group(1)))
    refused.extend(m.group(0) for m in _SPACED_LETTERS.finditer(text))
    return list(dict.fromkeys(refused))


def instruction_like(text: str) -> str | None:
    """The first phrase in `text` that reads as an instruction to a system or a reader."""
    match = _INSTRUCTION.search(text)
    return match.group(0) if match else None


def disallowed_content(text: str, allowed_urls: Sequence[str] = ()) -> list[str]:
    """Why normalised `text` may not be published or remembered; empty when it may."""
    problems: list[str] = []
    tokens = refused_tokens(text, allowed_urls)
    if tokens:
        shown = ", ".join(f"'{t[:40]}'" for t in tokens[:5])
        problems.append(
            "Only words, numbers, punctuation and the URLs of pages you read may appear; "
            f"remove {shown} (no other links, domains, @handles or symbols)."
        )
    phrase = instruction_like(text)
    if phrase:
        problems.append(f"Remove the instruction-like phrase '{phrase[:60]}'.")
    return problems


def shared_run(text: str, sources: Iterable[str], words: int = 8) -> str | None:
    """A run of `words` consecutive words of `text` found in any of `sources`, or None."""
    mine = [w.lower() for w in _WORDS.findall(normalise(text))]
    if len(mine) < words:
        return None
    runs = {tuple(mine[i : i + words]) for i in range(len(mine) - words + 1)}
    for source in sources:
        theirs = [w.lower() for w in _WORDS.findall(normalise(source))]
        for i in range(len(theirs) - words + 1):
            if tuple(theirs[i : i + words]) in runs:
                return " ".join(theirs[i : i + words])
    return None
