"""Pick the passages of a page that bear on a visit's goal, within a character budget (BM25,
`bm25s`, over the lexicon's words and stems), and the sentences that share most with it."""

from __future__ import annotations

import re
from typing import Any

import bm25s

from pipeline.drafting.words import ANY_WORD, page_sentences, stem

_STOP = frozenset(
    (
        "the and for are was were that this with from have has had not but can may will what "
        "when which who how why its their they them than then there these those into over also "
        "more most such only other some any all out about"
    ).split()
)


def _terms(text: str) -> set[str]:
    # words of 3+ letters or digits, but the commonest
    return {w for w in (m.lower() for m in ANY_WORD.findall(text)) if len(w) >= 3} - _STOP


def _passages(text: str) -> list[str]:
    blocks = [b.strip() for b in re.split(r"\n\s*\n|\n(?=[-*#])", text) if b.strip()]
    out: list[str] = []
    for block in blocks:
        if len(block) <= 600:
            out.append(block)
            continue
        sentences = page_sentences(block, max_chars=len(block))
        chunk = ""
        for sentence in sentences:
            if chunk and len(chunk) + len(sentence) > 500:
                out.append(chunk)
                chunk = ""
            chunk = f"{chunk} {sentence}".strip()
        if chunk:
            out.append(chunk)
    return out


def _stemmed(words: list[str]) -> list[str]:
    return [stem(w) for w in words]


def _tokens(texts: list[str], ids: bool) -> Any:
    # the lexicon's words and stems, so that ranking and the rules agree on what a word is
    return bm25s.tokenize(
        texts,
        token_pattern=ANY_WORD.pattern,
        stopwords="en",
        stemmer=_stemmed,
        return_ids=ids,
        show_progress=False,
    )


def ranked_passages(passages: list[str], focus: str) -> list[int]:
    """The passages' indexes, the best BM25 match for `focus` first (page order breaks ties).
    A word counts by how few of the page's passages have it: on an FDA page of COVID-19
    questions, "FDA", "COVID" and "approved" are in every answer, and the one that names
    ivermectin is the one a claim about ivermectin needs (seen with a real run: it was left
    out, and the model wrote its correction from nothing it had read)."""
    order = list(range(len(passages)))
    retriever = bm25s.BM25()
    retriever.index(_tokens(passages, ids=True), show_progress=False)
    query = [t for t in _tokens([focus], ids=False)[0] if t in retriever.vocab_dict]
    if not query:
        return order
    scores = retriever.get_scores(query)
    return sorted(order, key=lambda i: (-float(scores[i]), i))


def select_excerpt(text: str, focus: str, max_chars: int) -> str:
    """The passages that match `focus` best (`ranked_passages`), in page order, joined by
    ' … ', within `max_chars`."""
    if len(text) <= max_chars:
        return text.strip()
    passages = _passages(text)
    ranked = ranked_passages(passages, focus)
    chosen: list[int] = []
    used = 0
    for i in ranked:
        piece = passages[i]
        if used + len(piece) > max_chars:
            if not chosen:
                chosen.append(i)
                passages[i] = piece[:max_chars]
            continue
        chosen.append(i)
        used += len(piece) + 3
    return " … ".join(passages[i] for i in sorted(chosen))[:max_chars]


def matching_sentences(text: str, focus: str, most: int = 2, least_shared: int = 2) -> list[str]:
    """The page's sentences sharing the most words with `focus` (at least `least_shared`), in
    page order: quotes chosen by code for a page too short to need the model's notes."""
    wanted = _terms(focus)
    sentences = page_sentences(text)
    scored = [(len(wanted & _terms(s)), i) for i, s in enumerate(sentences)]
    best = sorted((x for x in scored if x[0] >= least_shared), key=lambda x: (-x[0], x[1]))
    return [sentences[i] for _, i in sorted(best[:most], key=lambda x: x[1])]
