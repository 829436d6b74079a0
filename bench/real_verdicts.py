"""Real notes with a known verdict, for checking forecasts against what raters decided.

Two sets, each with where its verdict comes from:
- `healthnotes_dev`: 40 real health notes with the crowd's verdict on X (20 Helpful, 20 Not
  Helpful) — **X's own statuses**, as HealthNotes (CrowdNotes+, Wu et al.) collected them;
- `birdwatch_2021`: notes of the 2021 release with the status **our scorer** gives them (the
  matrix factorisation and X's first-round thresholds, `pipeline.forecast.scoring`, on the
  official preprocessing) — the 2021 release has no status file, so no X status exists here.
  The release has no post text either: the rater sees only that the post is missing.
"""

from __future__ import annotations

import csv
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from adapters.community_notes_tsv import only_notes, read_note_ids, read_ratings
from pipeline.forecast.factorisation import fit
from pipeline.forecast.ratings import official_preprocessing
from pipeline.forecast.scoring import NoteStatus, first_round_status

HEALTHNOTES = "healthnotes_dev/posts.jsonl"
BIRDWATCH = "birdwatch_2021"
NO_POST = "(The post's text is not in the 2021 public data; only the note is.)"


@dataclass(frozen=True)
class RealNote:
    key: str  # "<set>:<id>", what a recording files its answers under
    post: str
    note: str
    helpful: bool
    verdict_by: str  # "X" or "our scorer"


def healthnotes(data: Path) -> list[RealNote]:
    rows = [
        json.loads(line)
        for line in (data / HEALTHNOTES).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [
        RealNote(f"healthnotes:{r['id']}", r["text"], r["human_note"], r["label"] == "helpful", "X")
        for r in rows
    ]


def birdwatch(data: Path, per_class: int, seed: int = 0) -> list[RealNote]:
    """`per_class` Helpful and as many Not Helpful notes (seeded sample) of those our scorer
    resolves, from the notes classified misleading (the first round scores only those)."""
    folder = data / BIRDWATCH
    notes_tsv = folder / "notes-00000.tsv"
    table = official_preprocessing(
        only_notes(
            read_ratings(folder / "ratings-00000.tsv"),
            read_note_ids(notes_tsv, misleading_only=True),
        )
    )
    model = fit(table, seed=seed)
    status = {
        note: first_round_status(float(i), float(f))
        for note, i, f in zip(table.note_ids, model.note_intercept, model.note_factor, strict=True)
    }
    csv.field_size_limit(sys.maxsize)
    with notes_tsv.open(encoding="utf-8", newline="") as handle:
        summaries = {
            row["noteId"]: row["summary"]
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        }
    rng = random.Random(seed)
    chosen: list[RealNote] = []
    for wanted in (NoteStatus.HELPFUL, NoteStatus.NOT_HELPFUL):
        ids = sorted(n for n, s in status.items() if s == wanted and summaries.get(n))
        for note in rng.sample(ids, min(per_class, len(ids))):
            chosen.append(
                RealNote(
                    f"birdwatch:{note}",
                    NO_POST,
                    summaries[note],
                    wanted == NoteStatus.HELPFUL,
                    "our scorer",
                )
            )
    return chosen


def interleaved(notes: list[RealNote]) -> list[RealNote]:
    """Helpful and Not Helpful in turn, so a run stopped anywhere is near balanced."""
    good = [n for n in notes if n.helpful]
    bad = [n for n in notes if not n.helpful]
    out: list[RealNote] = []
    for i in range(max(len(good), len(bad))):
        out += good[i : i + 1] + bad[i : i + 1]
    return out
