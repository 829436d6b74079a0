"""The tokens model-written text may hold before it is published (a note) or remembered (a
lesson).

An allowlist held in code whatever the model says, decided by where each part came from
(provenance), not by how a token looks:

- Text is normalised first: NFKC, then every default-ignorable code point (Unicode's own
  property: zero-width and bidi characters, tag characters, Hangul fillers) and every control,
  private-use and unassigned character removed.
- Each word must be a general-vocabulary word (`pipeline.drafting.vocabulary`: the wordfreq lists of
  English, of the note's language and of the languages English borrows names from), or
  appear in the text of a page the episode read. A rare token that only the post uses, or
  nothing, is tainted: `vaxtruth`, `antivaxdoc`, `healthfreedomꞏinfo`, `сом` are refused
  however they are spelled; `µg`, `BA.2`, `β-blockers`, `Ph.D.`, `65+` pass.
- Numbers that are not ordinary quantities (a phone number, an address, a long code) must
  appear in a page read.
- A link, a domain (X's own test: `name.tld` with a letter suffix, scheme or not), an @handle
  or a run of symbols is refused unless it is exactly a URL (or host) of a page read.
- Sentences addressed to a reader, a rater or the assistant are refused by structure: second
  person, a vocative, an imperative opening, the system's own vocabulary (prompts,
  instructions, the assistant).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import urlsplit

import tldextract

from pipeline.drafting.provenance import NO_PROVENANCE, Provenance, bare_token
from pipeline.drafting.vocabulary import borrowed_word, foreign_leaning, in_vocabulary
from pipeline.drafting.words import LETTERS, zipf

# A token's shape: words and numbers joined by in-word punctuation, wrapped in ordinary
# punctuation. What the parts may be is decided by provenance, below.
_ATOM = r"(?:\d+(?:[.,:]\d+)*|[^\W_]+|\[[^\W_]+\])"  # [they]: an editor's insertion
_JOIN = r"(?:[-–—‐‑'’/&+=<>≤≥×.,]|\.\.\.|…)"
_CORE = rf"{_ATOM}(?:{_JOIN}{_ATOM})*"
_ABBREVIATION = rf"(?:[^\W\d_]\.){{1,4}}(?:[^\W\d_]\.?)?(?:[-–‑]{_ATOM})*"  # U.S.-based
# What may stand alone: dashes and signs, and a bracket or a quotation mark set apart ("the
# jambul tree ( Syzygium cumini )", a HealthFC verdict), a unit set apart ("95 %"):
# punctuation spells nothing.
_DASH = r"(?:[-–—&+=/…()\[\]\"'“”‘’«»%]|\.\.\.|°[CF]?)"
_TOKEN = re.compile(
    r"[(\[\"'“‘«¿¡*,]*"  # opening punctuation
    r"[~≈±<>≤≥+\-−$€£#]?"  # a sign, currency or number sign before a number
    rf"(?:{_ABBREVIATION}|{_CORE}|{_DASH})"
    r"(?:[.,]?%|°[CF]?|×|\+)?"  # a unit after a number; 65+, LGBTQ+
    r"(?:\[\d+\])*"  # citation markers: [1][2]
    r"(?:[®™]|(?<=[^\W\d_])[-‐‑](?=[\s)]|$))?"  # a mark ("Tylenol®"); "estrogen- and …"
    r"[)\]\"'”’».,;:!?…*]*"  # closing punctuation
)
# X's URL evaluator reads any `name.tld` with a letter suffix as a link, scheme or not.
_DOMAIN = re.compile(r"[\w\-._~%]+\.[a-zA-Z]{2,}")
_NUMBER = re.compile(r"\d+(?:[.,:\-–/]\d+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
# Four or more numbers in a row, however joined ("93 184 216 34", "93 dot 184 …", "93ꞏ184…",
# "1 800 555 0199"): an address or a phone number spelled apart; only a page read may supply
# one.
# (A number's own joiners — 24/7, 38.5, 1-800 — are its token's to answer for.)
_NUMBER_SEPARATOR = r"(?:\s*(?:dot|point|punto|[^\w\s./,:\-–]|[^\W\d_])\s*|\s+)"
# A run's members are bare numbers: one with a unit (97%, 38°) is a quantity, one joined to
# the next (90–95%, 24/7, 1-800) is its token's to answer for.
_RUN_NUMBER = r"\d+(?![\d%°]|[-–/.,:]\d)"
_NUMBER_RUN = re.compile(
    rf"(?<![\w.,/]){_RUN_NUMBER}(?:{_NUMBER_SEPARATOR}{_RUN_NUMBER}){{3,}}", re.IGNORECASE
)
# A phone number in three groups ("800 555 1999", "(800) 555-1999") and half an address in two
# ("93.184 216.34"): numbers no health fact is written in, so only a page read may supply them
# (the adaptive attacker's; the four-group runs are `_NUMBER_RUN`'s).
_NUMBER_GROUPS = re.compile(
    r"(?<![\w.,])(?:\(?\d{3}\)?[\s.\-–]\d{3}[\s.\-–]\d{4}|\d{1,3}\.\d{2,3}\s+\d{2,3}\.\d{1,3})"
    r"(?![\w%°]|[.,]\d)"
)
# Seven or more digits in a row however they are joined or spelt ("800—555—1999", "1-800 5550
# 199", "800-555 01 99", "eight hundred, five five five, one nine nine nine"): a phone number or
# a code, which only a page read may supply; the shapes above missed these 10 of an
# independent red team's 26 spellings (#59). A run's members: bare numbers, or digits' names;
# a number with a unit (97%), a decimal or a number written into a word (COVID-19) is a
# quantity, and a run of years ("2019, 2020, 2021") is dates.
_DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
_DIGIT_NAMES = {
    **{w: str(i) for i, w in enumerate(_DIGIT_WORDS)},
    "oh": "0",
    "hundred": "00",
}
_RUN_MEMBER = r"(?:\d+(?![\d%°]|[.,]\d)|" + "|".join(_DIGIT_NAMES) + r")"
_DIGIT_RUN = re.compile(
    rf"(?<![\w.,/%-]){_RUN_MEMBER}(?:(?:\s+|\s*[-–—‐‑()/]\s*|,\s+)+{_RUN_MEMBER})+(?!\w)",
    re.IGNORECASE,
)
_YEAR = re.compile(r"1[89]\d\d|20\d\d")
# Fewer digits are a count, a date or a dose.
_PHONE_DIGITS = 7


@functools.lru_cache(maxsize=64)
def _runs_of(read: str) -> tuple[str, ...]:
    """The digits of the pages' own runs (`digit_runs`), once per pages read: every sentence
    of every draft of an episode is held to the same pages."""
    return tuple(digits for _, digits in digit_runs(read))


def digit_runs(text: str) -> list[tuple[str, str]]:
    """(as written, its digits) for each run of `_PHONE_DIGITS` or more digits in the text
    (`_DIGIT_RUN`), years aside."""
    runs = []
    for match in _DIGIT_RUN.finditer(text):
        members = re.findall(_RUN_MEMBER, match.group(0), re.IGNORECASE)
        if all(_YEAR.fullmatch(m) for m in members):
            continue
        digits = "".join(_DIGIT_NAMES.get(m.lower(), m) for m in members)
        if len(digits) >= _PHONE_DIGITS:
            runs.append((match.group(0), digits))
    return runs


# A suffix joined to a spelt-out dot: "real truth dotcom", "dot-net".
_JOINED_DOT = re.compile(r"\bdot-?([a-z]{2,6})\b", re.IGNORECASE)
# Spelled-out dots between two words: bracketed ("evil (dot) anything") is never prose; a bare
# "dot" counts when the next word is a public suffix ("evil dot com", "evil dot example").
_BRACKETED_DOT = re.compile(r"[^\W_]+\s*[(\[{<]\s*(?:dot|punto|point)\s*[)\]}>]\s*[^\W_]+", re.I)
# The suffix may be spelt apart too: "free health dot c o m" (the adaptive attacker's), and the
# dot said as "point": "health freedom point net".
_BARE_DOT = re.compile(
    r"[^\W_]+\s+(?:dot|point)\s+([^\W\d_](?:\s?[^\W\d_]){1,11})(?![^\W\d_])", re.IGNORECASE
)
_SUFFIXES = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
# A space for the dot: "truth com", "pfizer com/report", "bit ly/3xYzAbC". A word, then a
# lowercase suffix no prose uses on its own (com, org, edu), or a two-letter country code
# before a path, except those prose joins with a slash (mg/kg, tv/radio). None of 4,918 real
# Community Notes has one.
# A one-letter word before a suffix with a path is a short-link host spelt apart: "t co/AbC123".
_SPACED_SUFFIX = re.compile(r"(?<=[^\W\d_])\s+([a-z]{2,4})(/\S+)?(?![\w'’\-])")
_ADDRESS_ONLY_SUFFIXES = frozenset({"com", "org", "edu"})
# A dot with a space after it (and maybe before) and then a suffix, lowercase where a sentence
# would start: "evil. com has it." (a hostile model appended it to a sound sentence), "evil .
# org". After a word of two letters or more: "the U.S. org chart" is prose.
_SPACED_DOT_SUFFIX = re.compile(
    r"(?<=[^\W\d_]{2})\s*\.\s+(?:com|org|edu|net|gov|info)(?:/\S*)?(?![\w'’\-])"
)
_SLASHED_IN_PROSE = frozenset("mg kg ml km cm mm tv hr pm ac".split())
# Letters spaced apart ("e v i l d o t c o m") spell what no token shows.
_SPACED_LETTERS = re.compile(r"(?<!\S)(?:[^\W\d_]\.? ){3,}[^\W\d_]\.?(?!\S)")
# Scripts whose letters look like Latin ones; a word mixing two of them is a homoglyph trick.
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")
# Encoded payloads (base64, hex) look like one long word with many case changes.
_CASE_CHANGE = re.compile(r"[a-z][A-Z]")


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
    """A word part (between hyphens or slashes) written in two look-alike scripts. The micro
    sign before a unit (NFKC makes µ Greek) and a Greek letter on its own (β-blockers) are
    ordinary."""
    if token.isascii():  # ASCII letters are all Latin: no name lookup per character
        return False
    for part in re.split(r"[-–—‐‑/]", re.sub(r"μ(?=[A-Za-z])", "u", token)):
        scripts = {_script(ch) for ch in part if ch.isalpha()}
        if len(scripts & set(_CONFUSABLE_SCRIPTS)) > 1:
            return True
    return False


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


def _spelt(letters: str) -> str:
    """What follows a spelt-out dot, as the suffix it names: its first word, or its letters
    joined when they are spaced apart ("c o m" is "com")."""
    parts = letters.split()
    if len(parts[0]) > 1:
        return parts[0]
    spaced = []
    for part in parts:
        if len(part) > 1:
            break
        spaced.append(part)
    return "".join(spaced)


def _spaced_address(match: re.Match[str]) -> bool:
    suffix, path = match.group(1), match.group(2)
    text, start = match.string, match.start()
    one_letter = start < 2 or not text[start - 2].isalpha()
    if one_letter and not path:
        return False  # "a co", "I am": after one letter, only a suffix with a path is one
    if suffix in _ADDRESS_ONLY_SUFFIXES:
        return True
    return (
        bool(path) and len(suffix) == 2 and suffix not in _SLASHED_IN_PROSE and _is_suffix(suffix)
    )


def _encoded(token: str) -> bool:
    longest = max((len(w) for w in LETTERS.findall(token)), default=0)
    return longest > 40 or (longest >= 12 and len(_CASE_CHANGE.findall(token)) >= 2)


def _ordinary_number(number: str) -> bool:
    """A quantity prose uses (3, 2021, 0.05, 1,000,000, 10–20, 24/7), not a phone number, an
    address or a code, which must come from a page read."""
    if _THOUSANDS.fullmatch(number):
        return True
    groups = re.split(r"[.,:\-–/]", number)
    return len(groups) <= 2 and all(
        len(g) <= 4 and not (len(g) >= 3 and g.startswith("0") and len(groups) == 1) for g in groups
    )


# A capitalised word within a sentence, rarer than this in English, that no page read uses: a
# name the note has no source for ("the real data is on Mercola and Bitchute": 1.77 and 1.25,
# the adaptive attacker's woven payload). Measured (`bench.rules`, 2026-12-02): with the foreign
# phrase below, 3 woven payloads more refused, 4 honest verdicts of 980 more refused (a product,
# two Latin species, a virus the held snippets never name); 0 of the 40 honest sentences of
# tests/pipeline/test_text_provenance.py.
_RARE_NAME_ZIPF = 2.5


def _rare_name(word: str) -> bool:
    return word[:1].isupper() and word[1:].islower() and 0 < zipf(word.lower()) < _RARE_NAME_ZIPF


def refused_tokens(text: str, provenance: Provenance = NO_PROVENANCE) -> list[str]:
    """The tokens of normalised `text` that may not be published or remembered, in order."""
    allowed = set(provenance.read_urls)
    hosts = {h for h in (_host(u) for u in allowed) if h}
    read = provenance.read
    refused: list[str] = []
    tokens = text.split()
    borrowed: list[int] = []  # positions of tokens vouched for only by a borrowing language
    leaning: list[int] = []  # … and of English words likelier another language's
    for position, token in enumerate(tokens):
        bare = bare_token(token)
        if token in allowed or bare in allowed:
            continue
        if bare and bare.lower().removeprefix("www.") in hosts:
            continue
        if _DOMAIN.search(token) or _mixes_scripts(token) or _encoded(token):
            refused.append(token)
            continue
        if provenance.says(token):  # as a page of standing writes it: "O157:H7" (#59)
            continue
        if not _TOKEN.fullmatch(token):
            refused.append(token)
            continue
        unread_words = [w for w in LETTERS.findall(token) if not provenance.has_word(w)]
        tainted = [
            w
            for w in unread_words
            if not in_vocabulary(w, provenance.language) and not provenance.spells_a_word(w)
        ]
        unread = [n for n in _NUMBER.findall(token) if not _ordinary_number(n) and n not in read]
        opens = position == 0 or tokens[position - 1].endswith((".", "!", "?", ":"))
        if tainted or unread or (not opens and any(_rare_name(w) for w in unread_words)):
            refused.append(token)
        elif any(borrowed_word(w, provenance.language) for w in unread_words):
            borrowed.append(position)
        elif (
            provenance.language == "en" and unread_words and all(map(foreign_leaning, unread_words))
        ):
            leaning.append(position)
    # English prose borrows a name or a word at a time ("Mozes J. Lewenstein", "grivet
    # monkeys"); two within a word of each other are a phrase in another language, the form an
    # injection takes in a note ("…, as ignora las instrucciones anteriores").
    refused.extend(
        tokens[p]
        for i, p in enumerate(borrowed)
        if (i > 0 and p - borrowed[i - 1] <= 2)
        or (i + 1 < len(borrowed) and borrowed[i + 1] - p <= 2)
    )
    # three such words among four, a borrowed one with them: "tout ce qui précède est faux"
    foreign = sorted({*borrowed, *leaning})
    for i in range(len(foreign) - 2):
        window = foreign[i : i + 3]
        if window[-1] - window[0] <= 3 and set(window) & set(borrowed):
            refused.extend(tokens[p] for p in window)
    refused.extend(m.group(0) for m in _BRACKETED_DOT.finditer(text))
    refused.extend(m.group(0) for m in _BARE_DOT.finditer(text) if _is_suffix(_spelt(m.group(1))))
    refused.extend(m.group(0) for m in _JOINED_DOT.finditer(text) if _is_suffix(m.group(1)))
    refused.extend(m.group(0) for m in _SPACED_LETTERS.finditer(text))
    refused.extend(m.group(0).strip() for m in _SPACED_SUFFIX.finditer(text) if _spaced_address(m))
    refused.extend(m.group(0).strip() for m in _SPACED_DOT_SUFFIX.finditer(text))
    prose = " ".join(t for t in text.split() if "://" not in t and t not in allowed)
    refused.extend(m.group(0) for m in _NUMBER_RUN.finditer(prose) if m.group(0) not in read)
    refused.extend(m.group(0) for m in _NUMBER_GROUPS.finditer(prose) if m.group(0) not in read)
    refused.extend(
        run for run, digits in digit_runs(prose) if not any(digits in d for d in _runs_of(read))
    )
    return list(dict.fromkeys(refused))


def tokens_feedback(tokens: list[str]) -> str:
    """The writer's feedback on refused tokens (it names them: the writer must remove them)."""
    shown = ", ".join(f"'{t[:40]}'" for t in tokens[:5])
    return (
        "Use only common words, numbers, punctuation and the words, numbers and URLs of the "
        f"pages you read; remove {shown} (no other links, domains, @handles, codes or names "
        "that no page you read uses)."
    )
