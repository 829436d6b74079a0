"""Community Notes' public TSVs → `RatingsTable` (ratings) and `BenchPost`s (notes + status).

Two layouts: the 2021 release (`helpful` / `notHelpful` columns and the old reason flags) and
today's (`helpfulnessLevel` HELPFUL / SOMEWHAT_HELPFUL / NOT_HELPFUL and the new flags).
"""

from __future__ import annotations

import csv
import json
import logging
import sys
from pathlib import Path

import numpy as np

from pipeline.evaluation.dataset import BenchPost, DatasetError, Label, in_post_order
from pipeline.forecast.ratings import (
    HELPFUL_REASONS,
    NOT_HELPFUL_REASONS,
    RatingsTable,
    keep_ratings,
)

LEVELS = {"HELPFUL": 1.0, "SOMEWHAT_HELPFUL": 0.5, "NOT_HELPFUL": 0.0}
# 2021 flag names that mean the same as today's.
RENAMED = {
    "notHelpfulOpinionSpeculationOrBias": "notHelpfulOpinionSpeculation",
    "notHelpfulArgumentativeOrInflammatory": "notHelpfulArgumentativeOrBiased",
}
# noteStatusHistory's currentStatus → the benchmark's label
STATUS_LABEL: dict[str, Label] = {
    "CURRENTLY_RATED_HELPFUL": "helpful",
    "CURRENTLY_RATED_NOT_HELPFUL": "not_helpful",
    "NEEDS_MORE_RATINGS": "needs_more_ratings",
}

log = logging.getLogger(__name__)


def _flag(row: dict[str, str], name: str) -> float:
    return 1.0 if (row.get(name) or "0").strip() in ("1", "1.0", "true", "True") else 0.0


def read_ratings(path: Path) -> RatingsTable:
    csv.field_size_limit(sys.maxsize)  # summaries in the notes files can be very long lines
    raters: dict[str, int] = {}
    notes: dict[str, int] = {}
    rater, note, value, agree, good, bad = [], [], [], [], [], []
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        columns = set(reader.fieldnames or ())
        if not {"noteId", "participantId"} <= columns or not (
            "helpfulnessLevel" in columns or "helpful" in columns
        ):
            raise ValueError(
                f"{path} is not a Community Notes ratings file (columns: "
                f"{', '.join(sorted(columns)[:8])}…)"
            )
        for row in reader:
            row = {RENAMED.get(k, k): v for k, v in row.items() if k}
            if "helpfulnessLevel" in columns and row.get("helpfulnessLevel"):
                level = LEVELS.get(row["helpfulnessLevel"].strip())
            elif _flag(row, "helpful") or _flag(row, "notHelpful"):
                level = 1.0 if _flag(row, "helpful") else 0.0
            else:
                level = None
            if level is None:
                continue
            rater.append(raters.setdefault(row["participantId"], len(raters)))
            note.append(notes.setdefault(row["noteId"], len(notes)))
            value.append(level)
            agree.append(1.0 if _flag(row, "agree") else 0.0 if _flag(row, "disagree") else np.nan)
            good.append([_flag(row, f"helpful{r}") for r in HELPFUL_REASONS])
            bad.append([_flag(row, f"notHelpful{r}") for r in NOT_HELPFUL_REASONS])
    if not value:
        raise ValueError(f"{path} holds no usable ratings")
    return RatingsTable(
        rater=np.asarray(rater, dtype=np.int64),
        note=np.asarray(note, dtype=np.int64),
        value=np.asarray(value, dtype=np.float64),
        agree=np.asarray(agree, dtype=np.float64),
        helpful_reasons=np.asarray(good, dtype=np.float64),
        not_helpful_reasons=np.asarray(bad, dtype=np.float64),
        rater_ids=list(raters),
        note_ids=list(notes),
    )


MISLEADING = "MISINFORMED_OR_POTENTIALLY_MISLEADING"


def read_note_ids(path: Path, misleading_only: bool = False) -> set[str]:
    """The note ids of a Community Notes notes TSV (any release); with `misleading_only`, only
    notes classifying their post as misinformed or potentially misleading (the official
    scorer's first round rates those)."""
    csv.field_size_limit(sys.maxsize)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        if "noteId" not in (reader.fieldnames or ()):
            raise ValueError(f"{path} is not a Community Notes notes file (no noteId column)")
        return {
            row["noteId"]
            for row in reader
            if row.get("noteId")
            and (not misleading_only or row.get("classification", MISLEADING) == MISLEADING)
        }


def only_notes(table: RatingsTable, note_ids: set[str]) -> RatingsTable:
    """The ratings of the given notes, raters and notes renumbered."""
    keep = np.array([table.note_ids[n] in note_ids for n in table.note], dtype=bool)
    return keep_ratings(table, keep)


def load_community_notes(notes_tsv: Path, history_tsv: Path, posts_jsonl: Path) -> list[BenchPost]:
    """Join notes-*.tsv (noteId, tweetId, summary, classification) and noteStatusHistory-*.tsv
    (noteId, currentStatus) with `{"tweet_id", "text", "created_at"}` lines. Only misleading
    notes on supplied posts are kept; per post the note with the firmest status wins."""
    for path in (notes_tsv, history_tsv, posts_jsonl):
        if not path.is_file():
            raise DatasetError(f"{path} does not exist")
    texts: dict[str, dict[str, str]] = {}
    for number, line in enumerate(posts_jsonl.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            row = json.loads(line)
            if not {"tweet_id", "text", "created_at"} <= row.keys():
                raise DatasetError(f"{posts_jsonl}:{number}: needs tweet_id, text, created_at")
            texts[str(row["tweet_id"])] = row
    history = _tsv(history_tsv, {"noteId", "currentStatus"})
    status = {r["noteId"]: r["currentStatus"] for r in history}
    rank = {"helpful": 0, "not_helpful": 1, "needs_more_ratings": 2}
    best: dict[str, BenchPost] = {}
    for note in _tsv(notes_tsv, {"noteId", "tweetId", "classification", "summary"}):
        tweet = note.get("tweetId", "")
        if (
            tweet not in texts
            or note.get("classification") != "MISINFORMED_OR_POTENTIALLY_MISLEADING"
        ):
            continue
        label = STATUS_LABEL.get(status.get(note["noteId"], ""), "needs_more_ratings")
        current = best.get(tweet)
        if current is not None and rank[label] >= rank[current.label or "needs_more_ratings"]:
            continue
        best[tweet] = BenchPost(
            id=tweet,
            text=texts[tweet]["text"],
            created_at=texts[tweet]["created_at"],
            human_note=note.get("summary") or None,
            label=label,
        )
    return in_post_order(list(best.values()))


def _tsv(path: Path, needed: set[str]) -> list[dict[str, str]]:
    """A public-data TSV's rows, read by column name: X adds columns now and then
    (`noteStatusHistory` gained a 24th on 2026-09-19, which broke loaders that counted them),
    so the others are left unread with one log line, and a needed one missing is one clear
    error."""
    csv.field_size_limit(sys.maxsize)  # summaries in the notes files can be very long lines
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        columns = list(reader.fieldnames or ())
        if missing := sorted(needed - set(columns)):
            raise DatasetError(
                f"{path} lacks the column(s) {', '.join(missing)} (it has: "
                f"{', '.join(columns[:10])}{'…' if len(columns) > 10 else ''})"
            )
        if unread := [c for c in columns if c not in needed]:
            log.info("%s: %d column(s) not read (%s)", path.name, len(unread), ", ".join(unread))
        return list(reader)
