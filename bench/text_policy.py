"""How often the text policy refuses honest prose: real Community Notes, checked as a draft is.

Each note's own URLs count as read; their pages' text is not known here, so a name or a number
the human took from a source is refused for want of that page (in an episode the page is read).
A refusal is counted by kind: a tainted token (a word in no vocabulary and no page read), a
directive, or a link-like token in the prose. Notes with text lost to the data's encoding (a
`?` inside a word) and notes in another language than English are left out.

    python -m bench.text_policy ../shared/data/healthnotes_dev/posts.jsonl \
        ../shared/data/birdwatch_2021/notes-00000.tsv [--show 20]
"""

from __future__ import annotations

import argparse
import csv
import html
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.drafting.directives import directive
from pipeline.drafting.note import find_urls, link_like_tokens, note_prose, strip_urls
from pipeline.drafting.provenance import Provenance
from pipeline.drafting.tokens import refused_tokens
from pipeline.drafting.vocabulary import native_word

_LOST_CHARACTER = re.compile(r"\?[^\W\d_]|\w\?\w")
_WORD = re.compile(r"[^\W\d_]{3,}")


def read_notes(path: Path) -> list[str]:
    """Human notes from a HealthNotes JSONL (`human_note`) or a Community Notes TSV (`summary`)."""
    if path.suffix == ".tsv":
        csv.field_size_limit(sys.maxsize)
        with path.open(encoding="utf-8", newline="") as f:
            notes = [row["summary"] for row in csv.DictReader(f, delimiter="\t")]
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
        notes = [json.loads(line)["human_note"] for line in lines if line.strip()]
    return [html.unescape(n) for n in notes if n.strip()]


def english(note: str) -> bool:
    words = _WORD.findall(strip_urls(note))
    return bool(words) and sum(native_word(w) for w in words) >= 0.8 * len(words)


def kinds_refused(note: str) -> tuple[list[str], list[str]]:
    """(kinds of refusal, the tokens refused) for one note as a draft's prose."""
    prose = note_prose(note)
    tokens = refused_tokens(prose, Provenance(tuple(find_urls(note))))
    kinds = [
        kind
        for kind, found in (
            ("token", tokens),
            ("directive", directive(prose)),
            ("link-like", link_like_tokens(prose)),
        )
        if found
    ]
    return kinds, tokens


@dataclass
class Refusals:
    """What the text policy refuses of one file's notes."""

    notes: int  # in the file
    english: int  # kept: English, no text lost to the encoding
    counts: Counter[str] = field(default_factory=Counter)  # refused, token, directive, link-like
    examples: list[tuple[list[str], list[str], str]] = field(default_factory=list)

    @property
    def refused(self) -> int:
        return self.counts["refused"]

    @property
    def share(self) -> float:
        return self.refused / self.english if self.english else 0.0

    def by_kind(self) -> str:
        c = self.counts
        return (
            f"{c['token']} for a token, {c['directive']} as a directive, {c['link-like']} for a "
            "link-like token"
        )


def measure(path: Path, examples: int = 0) -> Refusals:
    notes = read_notes(path)
    kept = [n for n in notes if not _LOST_CHARACTER.search(strip_urls(n)) and english(n)]
    result = Refusals(len(notes), len(kept))
    for note in kept:
        kinds, tokens = kinds_refused(note)
        result.counts.update(kinds)
        result.counts["refused"] += bool(kinds)
        if kinds and len(result.examples) < examples:
            result.examples.append((kinds, tokens, note))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=10, help="refused notes to print per file")
    args = parser.parse_args()
    for path in args.files:
        result = measure(path, args.show)
        for kinds, tokens, note in result.examples:
            print(f"  {'+'.join(kinds):<18} {tokens[:4]}  {note[:90]!r}")
        print(
            f"{path.name}: {result.english} English notes of {result.notes}; refused "
            f"{result.refused} ({result.share:.1%}): {result.by_kind()}"
        )


if __name__ == "__main__":
    main()
