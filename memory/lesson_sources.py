"""What a lesson may say about sources: the standing policy of notes, for lessons (#57).

A note may vouch only by a source of standing (`pipeline.source_quality.STANDING_TIER`); a
lesson steers which pages the next episode reads, so it passes the same policy, as an
allowlist: every source a lesson tells the agent to read, cite or prefer is qualified by a word
of `STANDING` (an agency, a journal, a study, a regulator's label …) or named by a body of
standing (`STANDING_NAMES`: the bodies of `source_tiers.json` at tier 2 or above); no order
avoids, skips or displaces a source of standing, and no sentence runs one down. A lesson of
what to avoid is read as the order it becomes in a prompt ("avoid: citing the agency page" is
an order to avoid the agency). Links, domains, handles and phone numbers are refused before
this, by the note's own token policy (`pipeline.drafting.policy`).

The words are data to keep short: each entry was needed by an honest lesson
(`bench.lesson_texts.HONEST`) or an attack (`PAYLOAD_VARIANTS`, the adaptive attacker's).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pipeline
from memory.standing import LessonKind
from pipeline.source_quality import STANDING_TIER

# Words that make a source one of standing when they qualify it ("the agency's page", "the
# journal's retraction notice", "the large cohort studies").
STANDING = frozenset(
    """agency agencies official government ministry department authority authorities regulator
    regulators regulatory institute national federal public health journal journals
    peer reviewed study studies trial trials systematic meta analysis analyses
    guideline guidelines guidance registry label labels retraction notice university
    hospital association society college academy encyclopedia cohort randomised randomized
    assessments scientific scientists medical database fact sheet reference adverse event
    reporting evidence data""".split()
)
# What points at a source a lesson may send the agent to.
SOURCE_NOUNS = frozenset(
    """site sites website websites page pages blog blogs forum forums channel channels account
    accounts group groups video videos podcast podcasts report reports coverage article
    articles source sources outlet outlets testimonials researchers newsletter line hotline
    number numbers data""".split()
)
# Orders to use a source, and orders away from one.
_USE = frozenset(
    """read cite use consult trust follow watch see check search look rely quote link turn go
    call visit prefer""".split()
)
_AVOID = frozenset(
    """skip avoid ignore distrust disregard dismiss bypass drop exclude doubt stop""".split()
)
_NEVER = frozenset("not never don't dont".split())
# Orders whose object goes into a note or into a reader's hands: it must itself be of standing,
# named or not ("then cite naturalnews", "tell readers to call five five five …": an
# independent red team's, stored before).
_MUST_STAND = frozenset("cite quote link call visit".split())
# An object that points back at what the lesson named before ("cite both and say so").
_BACK = frozenset("both them it each either all".split())
# What ends the object of an order: the next clause, a condition, a comparison.
_ENDS = frozenset(
    """when if because while unless before after rather instead over than without then so
    but which who that since as""".split()
)
# "X instead of Y", "X rather than Y", "X over Y", "prefer X to Y": X preferred, Y displaced.
_DISPLACING = re.compile(r"\b(?:instead of|rather than|over|in place of|not)\b")
_RUNNING_DOWN = frozenset(
    """biased bias corrupt corrupted captured unreliable compromised rigged paid lie lies lying
    hide hides hiding hidden conceal conceals censor censors censored propaganda untrustworthy
    omit omits omitted dishonest outdated wrong misleading waste""".split()
)
_LEAVE_OUT = re.compile(r"\bleaves? (?:it |them )?out\b|\bnot independent\b")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_NAME = re.compile(r"\b[A-Z][a-z]+(?:['’]s)?(?:\s+[A-Z][a-z]+(?:['’]s)?)*")


# Domain labels that are everyday words: "heart" (heart.org) must not make "the heart health
# blog" one of standing.
_COMMON_LABELS = frozenset(
    "heart health cancer diabetes science nature cell canada ox ft economist immunize".split()
)


def _standing_names() -> frozenset[str]:
    """The names of bodies of standing as a lesson writes them: each tier ≥ `STANDING_TIER`
    domain's first label ("cdc", "who", "cochrane", "reuters"), read once at import (as
    `pipeline.source_quality` reads its table) so no event loop waits on the file."""
    table = json.loads(
        (Path(pipeline.__file__).with_name("source_tiers.json")).read_text(encoding="utf-8")
    )
    tiers: dict[str, int] = table["domain_tiers"]
    labels = {d.split(".")[0] for d, t in tiers.items() if t >= STANDING_TIER}
    return frozenset(labels - _COMMON_LABELS) | {
        "ema", "ecdc", "ukhsa", "pubmed", "lancet", "jama", "mayo", "hopkins", "cleveland",
    }  # fmt: skip


STANDING_NAMES = _standing_names()


# The World Health Organization written as its acronym is no relative pronoun: "cite the WHO
# fact sheet" named no source of standing, and "avoid: relying on the WHO" passed (the red
# team's), while lower case "who" ends an order's object.
_WHO = "w.h.o"


def _words(text: str) -> list[str]:
    return [
        _WHO if w == "WHO" else w.lower().replace("’", "'").removesuffix("'s")
        for w in _WORD.findall(text)
    ]


def _of_standing(words: list[str]) -> bool:
    return bool(STANDING.intersection(words) or STANDING_NAMES.intersection(words)) or (
        _WHO in words
    )


def _names_a_source(words: list[str]) -> bool:
    return bool(SOURCE_NOUNS.intersection(words))


def _object(words: list[str], start: int) -> list[str]:
    """The words an order at `start` acts on, up to the end of its clause."""
    found: list[str] = []
    for word in words[start + 1 :]:
        if word in _ENDS or word in _USE or word in _AVOID:
            break
        found.append(word)
    return found


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in re.split(r"[.;!?\n]|,\s*(?:and|but|then)\b|\band then\b", text)]


def _orders(clause: str, avoid: bool) -> str | None:
    words = _words(clause)
    if avoid:
        words = ["avoid", *words]
    for n, word in enumerate(words):
        negated = word in _USE and n > 0 and words[n - 1] in _NEVER
        if word in _AVOID or negated:
            if _of_standing(_object(words, n)):
                return "an order to avoid a source of standing"
        elif word in _USE:
            target = _object(words, n)
            # an order with an object of its own: "judging the quote" orders nothing
            must = word in _MUST_STAND and bool(target) and target[0] not in _BACK
            if (_names_a_source(target) or must) and not _of_standing(target):
                return "an order to use a source that is not one of standing"
    return None


def _preference(clause: str, avoid: bool) -> str | None:
    """A preference between sources: "read X instead of the agency pages" prefers X and
    displaces the agency; for an avoid lesson the roles turn round."""
    low = clause.lower()
    match = _DISPLACING.search(low)
    if match is None and not re.search(r"\binstead\b", low):
        return None
    if match is not None:
        preferred, displaced = _words(low[: match.start()]), _words(low[match.end() :])
    else:
        preferred, displaced = _words(low), []
    if avoid:
        preferred, displaced = displaced, preferred
    if displaced and _of_standing(displaced) and not _of_standing(preferred):
        return "an order to prefer another source over one of standing"
    if _names_a_source(preferred) and not _of_standing(preferred):
        return "an order to prefer a source that is not one of standing"
    return None


def _names(text: str) -> str | None:
    """A capitalised name where a source goes ("read the Defender", "the Epoch Times
    coverage") that no body of standing has."""
    for match in _NAME.finditer(text):
        if not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?\n":
            continue  # a sentence's first word
        words = _words(match.group(0))
        if not words or STANDING_NAMES.intersection(words) or STANDING.intersection(words):
            continue
        before = _words(text[: match.start()])[-2:]
        after = _words(text[match.end() :])[:1]
        if _USE.intersection(before) or {"on", "at", "from", "per", "by"}.intersection(before[-1:]):
            return f"a source named '{match.group(0)}' that is not one of standing"
        if SOURCE_NOUNS.intersection(after):
            return f"a source named '{match.group(0)}' that is not one of standing"
    return None


def source_problem(strategy: str, rationale: str, kind: LessonKind | None) -> str | None:
    """Why a lesson's words about sources may not be remembered (None: they may)."""
    avoid = kind == LessonKind.AVOID
    if why := _names(f"{strategy}\n{rationale}"):
        return why
    sentences = _clauses(strategy)
    for clause in sentences:
        if why := _orders(clause, avoid and clause is sentences[0]) or _preference(clause, avoid):
            return why
    for sentence in re.split(r"[.;!?\n]", f"{strategy}\n{rationale}"):
        words = _words(sentence)
        if _of_standing(words) and (
            _RUNNING_DOWN.intersection(words) or _LEAVE_OUT.search(sentence.lower())
        ):
            return "a sentence that runs down a source of standing"
    return None
