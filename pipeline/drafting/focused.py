"""The last draft before abstaining: sentences code picks from the pages read, worded by the
model, cited by code.

Seen with a real 1.5B model: pages on the claim were read, yet every draft copied the post,
cited search results it never opened or invented a pediatrician to quote, five rewrites in a
row. A model that cannot research can still phrase: given the claims and a few numbered
sentences of the pages read, it words a note and names the sentences it used; code cites each
named sentence with its page, and the draft then passes every check a draft passes.
"""

from __future__ import annotations

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.context import DraftContext
from pipeline.drafting.prompts import FocusedNote
from pipeline.drafting.words import LETTERS, content_words, key_stems, page_sentences, stem

# A page's sentence long enough to say something, short enough to quote.
MIN_SENTENCE_CHARS = 40
MAX_SENTENCE_CHARS = 300


def sentences_on_the_claims(context: DraftContext, limit: int = 4) -> list[tuple[str, str]]:
    """(url, sentence) of the pages read about the claims, the sentences sharing the most key
    terms with the claims first (page order breaks ties); none that shares no key term."""
    claims = key_stems(" ".join(context.claims()))
    scored: list[tuple[int, int, str, str]] = []
    seen: set[str] = set()
    for url, page in context.evidence.items():
        if not context.about_the_claims(url):
            continue
        for text in (*page.quotes, page.excerpt):
            for sentence in page_sentences(text):
                if (
                    sentence in seen
                    or not MIN_SENTENCE_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS
                    or sentence[-1] not in ".!?"
                ):
                    continue
                seen.add(sentence)
                shared = len(claims & key_stems(sentence))
                if shared:
                    scored.append((-shared, len(scored), url, sentence))
    return [(url, sentence) for _, _, url, sentence in sorted(scored)[:limit]]


def subject_of(
    context: DraftContext, sentences: list[tuple[str, str]], limit: int = 6
) -> list[str]:
    """The claims' key words that the picked sentences use too, in the claims' order: what the
    note is about, without the claims' own wording to copy."""
    said = key_stems(" ".join(s for _, s in sentences))
    subject: dict[str, str] = {}
    for word in (w for w in LETTERS.findall(" ".join(context.claims())) if len(w) >= 4):
        root = stem(word.lower())
        if root in said and root in key_stems(word):
            subject.setdefault(root, word)
    return list(subject.values())[:limit]


def focused_draft(note: FocusedNote, sentences: list[tuple[str, str]]) -> Write | None:
    """The model's words as a draft citing the sentences it named (numbered from 1), or, when
    it named none, those its words are drawn from (seen with the real model: a sound sentence
    worded from the page, and `used` left empty); None when it wrote nothing or drew on none."""
    text = " ".join(note.text.split())
    if not text:
        return None
    named = [sentences[i - 1] for i in note.used if 1 <= i <= len(sentences)]
    used = named or [s for s in sentences if _drawn_from(text, s[1])]
    if not used:
        return None
    support = [SupportedClaim(claim=text[:400], url=url, quote=quote) for url, quote in used]
    return Write(text=text, support=support)


def _drawn_from(text: str, sentence: str) -> bool:
    """Whether the note's words come from the sentence: at least three content words of the
    sentence, or half of them, are the note's."""
    theirs = content_words(sentence)
    shared = len(theirs & content_words(text))
    return shared >= 3 or (bool(theirs) and 2 * shared >= len(theirs))
