"""Which sites have standing, measured on data nobody here wrote, and how much of the cost
corpus it covers.

A registrable domain earns standing (tier 2, "measured") when at least `MIN_SOURCES` distinct
sources used it, from sets the draft rules are never measured on:
- notes the 2021 crowd rated Helpful (`../shared/data/birdwatch_2021`, statuses by the
  project's own scorer: the factorisation and X's first-round rule, `pipeline.forecast`);
- the helpful human notes of `../shared/data/healthnotes_dev`;
- the evidence pages fact-checkers used for claims they found *supported* or unprovable
  (AVeriTeC supported and not-enough-evidence rows, HealthFC supported rows); the refuted,
  misleading and HealthFC not-enough-information rows are `bench.rules`' cost corpus and are
  left out, so its coverage is no circle.
A page anyone may write, a preprint or a redirect (`pipeline.page_kind`) counts for nothing:
only sources' pages of no such kind count for their domain.

    python -m bench.standing [--write]   # --write: pipeline/standing_measured.json

Prints the domains earned, and the coverage: the share of the pages the cost corpus's honest
verdicts cite (as `bench.rules` cites them) that have standing, by the listed tiers alone and
with the measured domains.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

from bench.rules import DEFAULT_DATA, HONEST_SETS, Row, honest_rows
from pipeline.page_kind import live_article, page_kind
from pipeline.source_quality import (
    MEASURED_FILE,
    STANDING_TIER,
    has_standing,
    listed_tier,
    page_of,
    registrable_domain,
)

SHARED = DEFAULT_DATA.parent
# Two sources at least: one note or one fact-check is someone's choice; two agree.
MIN_SOURCES = 2
HELD_OUT = {
    "averitec_health_dev.jsonl": {"supported", "nei"},
    "healthfc_dev.jsonl": {"supported"},
}


def _urls(text: str) -> list[str]:
    return [w.strip(".,;:()[]<>\"'") for w in text.split() if w.startswith(("http://", "https://"))]


def fact_check_sources(data: Path) -> list[tuple[str, str]]:
    """(source, URL) for each evidence page of the held-out claims."""
    used = []
    for file, labels in HELD_OUT.items():
        for line in (data / file).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["label"] not in labels:
                continue
            for e in row.get("evidence") or []:
                url = str(e.get("url", ""))
                if url.startswith(("http://", "https://")):
                    used.append((f"claim:{row['id']}", url))
    return used


def helpful_note_sources(shared: Path) -> list[tuple[str, str]]:
    """(source, URL) for each URL the helpful notes cite (2021 crowd by the scorer;
    HealthNotes)."""
    used = []
    notes = shared / "healthnotes_dev" / "posts.jsonl"
    for line in notes.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("label") == "helpful":
            used += [(f"healthnote:{row['id']}", u) for u in _urls(str(row.get("human_note", "")))]
    for note_id, summary in _helpful_2021(shared / "birdwatch_2021"):
        used += [(f"note:{note_id}", u) for u in _urls(summary)]
    return used


def held_out_pages(shared: Path, data: Path) -> list[tuple[str, str]]:
    """(source, page) for every page a held-out source used, a snapshot as its page, less
    pages anyone may write, preprints and redirects (`page_kind`)."""
    return [
        (source, page_of(url))
        for source, url in fact_check_sources(data) + helpful_note_sources(shared)
        if page_kind(page_of(url)) is None
    ]


def _helpful_2021(folder: Path) -> list[tuple[str, str]]:
    """(noteId, summary) of the 2021 notes the scorer rates Helpful."""
    from adapters.community_notes_tsv import only_notes, read_note_ids, read_ratings
    from pipeline.forecast.factorisation import fit
    from pipeline.forecast.ratings import official_preprocessing
    from pipeline.forecast.scoring import NoteStatus, first_round_status

    notes_tsv = folder / "notes-00000.tsv"
    table = official_preprocessing(
        only_notes(
            read_ratings(folder / "ratings-00000.tsv"),
            read_note_ids(notes_tsv, misleading_only=True),
        )
    )
    model = fit(table, seed=0)
    helpful = {
        table.note_ids[i]
        for i, (b, f) in enumerate(zip(model.note_intercept, model.note_factor, strict=True))
        if first_round_status(float(b), float(f)) is NoteStatus.HELPFUL
    }
    csv.field_size_limit(sys.maxsize)
    with notes_tsv.open(encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(r["noteId"], r.get("summary") or "") for r in rows if r["noteId"] in helpful]


def measured_domains(pages: list[tuple[str, str]]) -> dict[str, int]:
    """Domain → how many distinct sources used it, for those that earn standing."""
    used: dict[str, set[str]] = defaultdict(set)
    for source, page in pages:
        used[registrable_domain(page)].add(source)
    return {
        d: len(s)
        for d, s in sorted(used.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        if len(s) >= MIN_SOURCES
    }


def measured_hosts(pages: list[tuple[str, str]]) -> list[str]:
    """The subdomains (less `www.`) held-out sources used: a subdomain is whoever runs it, and
    one that a helpful note or a fact-checker used is an editorial one."""
    hosts = {(urlsplit(page).hostname or "").lower().removeprefix("www.") for _, page in pages}
    return sorted(h for h in hosts if h and h != registrable_domain(f"https://{h}/"))


def _settled(row: Row, url: str) -> bool:
    """Whether the row's page at `url` was read as a settled wiki revision."""
    return any(p["url"] == url and p.get("settled_revision") for p in row.pages)


def coverage(data: Path, measured: dict[str, int]) -> list[str]:
    """Of the pages the cost corpus's honest verdicts cite, the share with standing: by the
    listed tiers alone, and with `measured`; and the verdicts none of whose pages has it."""
    lines = []
    for file, labels in HONEST_SETS.items():
        rows = list(honest_rows(data / file, labels))
        cited = [(u, _settled(r, u)) for r in rows for u in r.cited]
        listed = sum(
            listed_tier(u) >= STANDING_TIER and page_kind(u) is None and (s or not live_article(u))
            for u, s in cited
        )
        now = sum(has_standing(u, measured, settled=s) for u, s in cited)
        alone = sum(
            not any(has_standing(u, measured, settled=_settled(r, u)) for u in r.cited)
            for r in rows
        )
        lines.append(
            f"{file.split('_')[0]}: {len(cited)} pages cited by {len(rows)} verdicts; with "
            f"standing by the listed tiers {listed} ({100 * listed / len(cited):.1f}%), with "
            f"the measured domains {now} ({100 * now / len(cited):.1f}%); verdicts citing no "
            f"page of standing: {alone}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--write", action="store_true", help=f"write {MEASURED_FILE.name}")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no evidence_claims at {args.data} (see --data)", file=sys.stderr)
        return 2
    pages = held_out_pages(args.data.parent, args.data)
    measured = measured_domains(pages)
    print(f"{len(measured)} domains used by {MIN_SOURCES}+ held-out sources earn standing:")
    print(", ".join(f"{d} {n}" for d, n in list(measured.items())[:40]), "…")
    for line in coverage(args.data, measured):
        print(line)
    if args.write:
        about = (
            f"Generated by `python -m bench.standing --write`: registrable domains used by "
            f"{MIN_SOURCES}+ distinct held-out sources (2021 notes the crowd rated Helpful, "
            "HealthNotes' helpful notes, fact-checkers' evidence for supported claims); each "
            "has tier 2 unless listed higher; and the subdomains any held-out source used, "
            "the only ones below a domain of standing that share it (government suffixes "
            "aside). Never edit by hand."
        )
        hosts = measured_hosts(pages)
        body = {"_about": about, "min_sources": MIN_SOURCES, "domains": measured, "hosts": hosts}
        MEASURED_FILE.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        print(f"written: {MEASURED_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
