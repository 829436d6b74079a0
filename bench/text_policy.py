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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=10, help="refused notes to print per file")
    args = parser.parse_args()
    for path in args.files:
        notes = read_notes(path)
        kept = [n for n in notes if not _LOST_CHARACTER.search(strip_urls(n)) and english(n)]
        counts: Counter[str] = Counter()
        shown = 0
        for note in kept:
            kinds, tokens = kinds_refused(note)
            counts.update(kinds)
            counts["refused"] += bool(kinds)
            if kinds and shown < args.show:
                shown += 1
                print(f"  {'+'.join(kinds):<18} {tokens[:4]}  {note[:90]!r}")
        share = counts["refused"] / len(kept) if kept else 0.0
        print(
            f"{path.name}: {len(kept)} English notes of {len(notes)}; refused {counts['refused']} "
            f"({share:.1%}): {counts['token']} for a token, {counts['directive']} as a "
            f"directive, {counts['link-like']} for a link-like token"
        )


if __name__ == "__main__":
    main()
