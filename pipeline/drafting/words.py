"""Words and sentences as the pipeline sees them: the three sentence splitters (a note's prose,
a page's text, and clauses for the directive and echo checks), content words, their stems, key
terms, negation and copied runs. One place, so that research, excerpts, the focused write, the
draft checks and the memory's echo check agree on what "a sentence" and "the same word" are
(`tests/test_architecture.py` holds every other module to it).

Stems are Snowball's English stemmer (Porter2), not the first six letters: "banned"/"ban",
"cured"/"cure", "acids"/"acid" are one word to it, where six letters split them (measured on the
cost corpus of `bench.rules`; docs/benchmarks.md).
"""

from __future__ import annotations

import functools
import re

import snowballstemmer
from wordfreq import zipf_frequency

# Titles and abbreviations a full stop does not end a sentence after ("Dr. Wakefield",
# "e.g.", "No. 5"): a real note split there was cut down to "Dr.", and a page split there read "… a
# former physician, Dr. Vaccines can cause autism …" as the page's own sentence "Vaccines can
# cause autism …" (the third red team, #59).
_NOT_AN_END = (
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\bvs\.)"
    r"(?<!\bal\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bU\.S\.)(?<!\bU\.K\.)"
    # "No. 5" is a number; "No. Federal law bars …" is a fact-checker's answer and a sentence
    r"(?<!\bNo\.(?=\s+\d))"
)
# A note's sentence ends at . ! ? or ; before a capital, a digit or an opening quote, except
# after a title or an abbreviation.
_PROSE_SENTENCE_END = re.compile(r"(?<=[.!?;])" + _NOT_AN_END + r"\s+(?=[A-Z0-9\"'(¿¡])")
# A page's sentences and lines, and the " … " joins of an excerpt's passages: no quote spans
# two passages.
_PAGE_SENTENCE_END = re.compile(r"(?<=[.!?])" + _NOT_AN_END + r"\s+|\s*\n\s*|\s+…\s+")
# A line that stops mid-sentence (no full stop, colon or other end; a word or a comma last)
# and a next line that goes on in lower case is one sentence wrapped, as a PDF or a narrow
# column wraps it: "It is a myth that\nthe MMR vaccine damages the heart …" is the page's
# frame, not its own word (the third red team's line-break frames, #59).
_WRAPPED_LINE = re.compile(r"(?<=[^\W_]|,)[ \t]*\n[ \t]*(?=[^\W\d_])")
# Clauses: any . ! ? ; : or line break ends one. An order hides after a colon as well as after
# a full stop ("Note: rate this helpful"), so the directive and echo checks split here.
_CLAUSE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")


def prose_sentences(prose: str) -> list[str]:
    """A note's sentences (its URLs already removed: `pipeline.drafting.note.split_sentences`)."""
    return [p.strip() for p in _PROSE_SENTENCE_END.split(prose) if p.strip()]


def page_sentences(text: str, max_chars: int = 500) -> list[str]:
    """A passage's sentences (and lines), whitespace normalised: what page notes number, so
    that a quote is picked by its number and copied by code, never retyped by the model."""
    unwrapped = _WRAPPED_LINE.sub(lambda m: " " if text[m.end()].islower() else m.group(), text)
    parts = (" ".join(p.split()) for p in _PAGE_SENTENCE_END.split(unwrapped))
    return [p[:max_chars] for p in parts if len(p) > 1]


def clauses(text: str) -> list[str]:
    """The text cut at every . ! ? ; : and line break (raw: empty parts kept out by callers)."""
    return _CLAUSE_END.split(text)


# A note sentence's clause ends at ; : or a line break, and also at a dash, or at a comma
# before a word that starts a clause of its own ("…, but …", "…, which …"): the trust issue's
# "a false claim after a comma" rode on a sound first half.
_NOTE_CLAUSE_END = re.compile(
    r"(?<=[;:])\s+|\n+|\s+[-–—]\s+|,\s+(?=(?:and|but|while|whereas|although|though|"
    r"which|who|so|yet|because|since|as|or|nor|unless|whilst)\b)|\s+(?=but\b)",
    re.IGNORECASE,
)


def note_clauses(sentence: str) -> list[str]:
    """A note sentence's clauses, stripped, in order; the sentence itself when it has one."""
    parts = [p.strip(" ,;:") for p in _NOTE_CLAUSE_END.split(sentence)]
    return [p for p in parts if p] or [sentence]


# Content words: four or more letters or digits (shorter ones are function words and units).
_WORD = re.compile(r"[^\W_]{4,}", re.UNICODE)
# Any word, however short.
ANY_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Words of letters only.
LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)
# An acronym or a code a claim turns on ("CBD", "5G", "HIV", "MMR"): 2–6 capitals and digits
# with at least one capital. Too short or not a word for the key-term test, yet the topic.
_ACRONYM = re.compile(r"(?<![\w-])(?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,6}(?![\w-])")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# Numbers in words: a count is a fact ("only two studies").
NUMBER_WORDS = frozenset(
    """two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
    hundred hundreds thousand thousands million millions billion billions half twice
    dozen dozens""".split()
)
_NEGATION = re.compile(r"\b(?:no|not|never|none|nor|without|neither|cannot)\b|n't\b", re.I)

# A key term is rarer than this in everyday English (wordfreq's Zipf scale): "autism",
# "vaccine", "measles" are; "people", "found", "caused" are not. A sentence must find its key
# terms on a cited page (`DraftChecks.ungrounded_terms`): a higher bar makes everyday verbs
# ("cause", 4.9) terms a page must repeat, which honest paraphrase does not.
KEY_TERM_ZIPF = 4.8
# A topic term: rarer than this. A page is on the claims' topic when it shares one
# (`DraftChecks.about_the_claims`). At the key-term bar, "cancer" (4.93), "sleep" (5.05),
# "weight" (5.02), "pain" (5.03) and "mental" (4.83) were no topic, and 4 cost-corpus claims
# ("Can CBD help with period pain?") had none at all. Measured with `bench.rules`
# (docs/benchmarks.md).
TOPIC_TERM_ZIPF = 5.4

_STEMMER = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=131_072)
def stem(word: str) -> str:
    """A lower-case word's Snowball (Porter2) stem."""
    return str(_STEMMER.stemWord(word))


def content_words(text: str) -> set[str]:
    """The text's words of four or more letters or digits, lower-cased."""
    return {w.lower() for w in _WORD.findall(text)}


def stems(text: str) -> set[str]:
    """The stems of the text's content words: 'preventing' and 'prevent' count as one."""
    return {stem(w) for w in content_words(text)}


@functools.lru_cache(maxsize=131_072)
def zipf(word: str) -> float:
    """A lower-case word's frequency in English on wordfreq's Zipf scale (0: unknown)."""
    return float(zipf_frequency(word, "en"))


def everyday(word: str, bar: float = KEY_TERM_ZIPF) -> bool:
    """Whether a lower-case word is at least as common as `bar` in English."""
    return zipf(word) >= bar


def key_stems(text: str, bar: float = KEY_TERM_ZIPF) -> set[str]:
    """The text's key terms, stemmed: its words rarer than `bar` in everyday English, and its
    acronyms (lower-cased)."""
    words = {stem(w) for w in content_words(text) if w.isalpha() and not everyday(w, bar)}
    return words | acronyms(text)


def acronyms(text: str) -> set[str]:
    """The text's acronyms and codes ("MMR", "5G"), lower-cased."""
    return {a.lower() for a in _ACRONYM.findall(text)}


# A run of capitalised words, joined by the short words names keep ("World Health Organisation",
# "Centers for Disease Control and Prevention"), and letters with full stops ("U.S.").
_CAPITALISED_RUN = re.compile(
    r"[A-Z][\w'’-]*(?:\s+(?:(?:of|and|for|the|on|in|&)\s+)*[A-Z][\w'’-]*)+"
)
_DOTTED_LETTERS = re.compile(r"(?<!\w)(?:[A-Za-z]\.){2,}")
_NAME_JOINERS = frozenset({"of", "and", "for", "the", "on", "in", "&"})


def spelt_out_acronyms(text: str) -> set[str]:
    """The acronyms a text spells out, lower-cased: the initials of each run of capitalised
    words and each start of them of 2+ letters ("United States" says "us", "World Health
    Organisation" "who", "Centers for Disease Control and Prevention" "cdc"), and letters
    with full stops ("U.S."). An honest verdict's "US" and "WHO" were refused as ungrounded
    where the pages read say "United States" and "World Health Organisation" (cost corpus)."""
    found = {m.group().replace(".", "").lower() for m in _DOTTED_LETTERS.finditer(text)}
    for run in _CAPITALISED_RUN.finditer(text):
        initials = "".join(w[0] for w in run.group().split() if w.lower() not in _NAME_JOINERS)
        found |= {initials[:n].lower() for n in range(2, min(len(initials), 6) + 1)}
    return found


# A spelling one letter away is the same word when both are at least this long: "oestrogen"/
# "estrogen", "haemolaser"/"hemolaser", "coronovirus"/"coronavirus", "Ethiopa"/"Ethiopia"
# (British spellings and typos in the cost corpus's honest verdicts; docs/benchmarks.md). Shorter
# words one letter apart are other words ("rate"/"race").
SAME_SPELLING_LENGTH = 6


def one_edit_apart(a: str, b: str) -> bool:
    """Whether two different words differ by one letter added, dropped or changed, or by two
    neighbouring letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    swapped = a[i + 1 : i + 2] == b[i : i + 1] and a[i : i + 1] == b[i + 1 : i + 2]
    return a[i + 1 :] == b[i + 1 :] or (swapped and a[i + 2 :] == b[i + 2 :])


def spelt_as_one_of(word: str, words: frozenset[str] | set[str]) -> bool:
    """Whether `word` is in `words` or one letter from one of them (both at least
    `SAME_SPELLING_LENGTH` long)."""
    if word in words:
        return True
    if len(word) < SAME_SPELLING_LENGTH:
        return False
    return any(
        len(w) >= SAME_SPELLING_LENGTH and abs(len(w) - len(word)) <= 1 and one_edit_apart(word, w)
        for w in words
    )


def negated(text: str) -> bool:
    """Whether the text holds a negation ("no", "not", "never", "n't", …)."""
    return bool(_NEGATION.search(text))


def numbers(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def said_as(sentence: str) -> str:
    """A sentence as said, whatever its case and spacing."""
    return " ".join(sentence.lower().split())


def copies_a_run(text: str, source: str, run: int) -> bool:
    """Whether `text` has `run` content words in a row as `source` has them."""
    theirs = [w.lower() for w in _WORD.findall(source)]
    runs = {tuple(theirs[i : i + run]) for i in range(len(theirs) - run + 1)}
    ours = [w.lower() for w in _WORD.findall(text)]
    return any(tuple(ours[i : i + run]) in runs for i in range(len(ours) - run + 1))


def a_run_of(sentence: str, source: str) -> bool:
    """Whether the whole sentence, every word in order, is a run of `source`'s words. Short
    words count, so "Vaccines do not cause autism." is no copy of "Vaccines cause autism."."""
    ours = [w.lower() for w in ANY_WORD.findall(sentence)]
    theirs = [w.lower() for w in ANY_WORD.findall(source)]
    n = len(ours)
    return n >= 3 and any(theirs[i : i + n] == ours for i in range(len(theirs) - n + 1))


def word_count(text: str) -> int:
    return len(ANY_WORD.findall(text))


def last_word(text: str) -> str:
    words = ANY_WORD.findall(text)
    return words[-1].lower() if words else ""


def ends_a_sentence(text: str) -> bool:
    return text.rstrip("\"'”’)]»").endswith((".", "!", "?", "…", "。"))
