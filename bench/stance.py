"""How well the stance detector (`pipeline.drafting.stance.reports_a_claim`) tells a page
sentence that asserts from one that reports, attributes or frames a claim, on sentences it was
not written from: 235 sentences of the evidence texts of `../shared/data/evidence_claims`
(AVeriTeC, HealthFC), hand-labelled by reading before the detector was read
(`bench/data/stance_labels.json`: ids and offsets only, the sets' licences forbid copying; the
text is read from ../shared at run time).

    python -m bench.stance [--data ../shared/data/evidence_claims] [--json]

"reports" is the positive class: a sentence code must not publish a note's clause on. Prints
precision and recall of the detector and of a one-list baseline (said/says/claim/according
to), on the `tune` half (what the detector's changes were made from) and the `held_out` half
(never looked at while changing it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.rules import DEFAULT_DATA
from pipeline.drafting.stance import reports_a_claim

LABELS = Path(__file__).parent / "data" / "stance_labels.json"
DATA = DEFAULT_DATA
# The baseline: the words anyone would try first.
_BASELINE = re.compile(r"\b(?:said|says|claims?|claimed|according\s+to)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Labelled:
    text: str
    reports: bool
    split: str


def labelled(data: Path = DATA, labels: Path = LABELS) -> list[Labelled]:
    """The labelled sentences, their text read from `data`; a changed file's rows (their
    SHA-1 no longer matches) are left out."""
    items = json.loads(labels.read_text(encoding="utf-8"))["items"]
    rows: dict[tuple[str, str], dict[str, object]] = {}
    for file in {i["file"] for i in items}:
        for line in (data / file).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rows[(file, row["id"])] = row
    out = []
    for item in items:
        row = rows.get((item["file"], item["id"]))
        if row is None:
            continue
        evidence = row["evidence"]
        assert isinstance(evidence, list)
        text = str(evidence[item["evidence"]]["text"])[item["start"] : item["end"]]
        if hashlib.sha1(text.encode()).hexdigest()[:10] != item["sha1"]:
            continue
        out.append(Labelled(text, item["label"] == "reports", item["split"]))
    return out


def baseline(sentence: str) -> bool:
    return bool(_BASELINE.search(sentence))


def scores(rows: list[Labelled], detector: Callable[[str], bool]) -> dict[str, float | int]:
    """Precision and recall of `detector` for "reports", with the counts."""
    said = [(detector(r.text), r.reports) for r in rows]
    tp = sum(p and t for p, t in said)
    fp = sum(p and not t for p, t in said)
    fn = sum(t and not p for p, t in said)
    return {
        "sentences": len(rows),
        "reports": tp + fn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else 0.0,
        "recall": round(tp / (tp + fn), 3) if tp + fn else 0.0,
        "missed": fn,
        "wrongly_flagged": fp,
    }


def measured(rows: list[Labelled]) -> dict[str, dict[str, dict[str, float | int]]]:
    found = {"detector": reports_a_claim, "baseline": baseline}
    return {
        split: {name: scores([r for r in rows if r.split == split], d) for name, d in found.items()}
        for split in ("tune", "held_out")
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the evidence_claims folder")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--misses", action="store_true", help="print the tune half's errors")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"bench.stance: no data at {args.data} (--data): nothing to measure")
        return 1
    rows = labelled(args.data)
    figures = measured(rows)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for split, by in figures.items():
            for name, s in by.items():
                print(
                    f"{split:9} {name:9} {s['sentences']} sentences, {s['reports']} report: "
                    f"precision {s['precision']:.3f}, recall {s['recall']:.3f} "
                    f"({s['missed']} missed, {s['wrongly_flagged']} wrongly flagged)"
                )
    if args.misses:
        for r in rows:
            if r.split == "tune" and reports_a_claim(r.text) != r.reports:
                print(("MISSED " if r.reports else "FLAGGED"), r.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
