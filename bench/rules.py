"""Every draft rule, measured on both sides: what honest notes it refuses, what bad drafts it
catches, and what changes without it.

The honest side is people's own verdicts with the evidence they wrote them from
(`../shared/data/evidence_claims/`: AVeriTeC's refuted and misleading rows, HealthFC's refuted
and not-enough-information rows), given to `pipeline.drafting.decide` exactly as an episode's
writing step would (the claim as the post, the evidence as the pages read, the verdict as the draft,
citing the page that shares the most words with it; no model call). The verdicts are kept as
written; those speaking of "the claim" or "the Q&As" are counted apart (`meta`).

The bad side: the real model's recorded drafts (`tests/fixtures/real_model/`) that code refused
on main 6357671 (`bench/rules_refused_on_6357671.json`), the payload drafts (`bench.payloads`:
each family appended to a page's sentence, and woven into it), the framed myths (a page's
sentence that the page only reports, in a frame such as "Posts claim that …", as the note: built
without the stance detector), the claim itself as a note, and notes that do not answer their
claim (a source's standing, a neighbouring fact): the real model's last writes on refuted
AVeriTeC claims that a person judged off the claim, and hand-made ones
(`tests/fixtures/claim_answers/`, `bench.claim_answers`).

    python -m bench.rules [--data ../shared/data/evidence_claims] [--without RULE ...] [--show N]
    python -m bench.rules --write   # and regenerate pipeline/drafting/measured.json and the docs
    python -m bench.rules DRAFTS.jsonl --json   # rows {id, post, pages, note, cited[, claims]}

With `--json` each row gets one line: {id, verdict, rules, kept}. A page is
{url, title, text[, final_url][, settled_revision]}: its standing is an episode's, from the
address that answered (`final_url`, after redirects) or else its URL; a wiki article's only
when read as a revision that had stood (`settled_revision`), as the web reader reads one.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from bench.payloads import ATTACKS, WOVEN
from pipeline.actions import SupportedClaim, Write
from pipeline.brief import unanalysed_brief
from pipeline.budget import EvidenceBudget
from pipeline.drafting.context import DraftContext
from pipeline.drafting.decide import Verdict
from pipeline.drafting.decide import decide as decide_draft
from pipeline.drafting.draft import Draft
from pipeline.drafting.focused import focused_draft, sentences_on_the_claims
from pipeline.drafting.measured import MEASURED_FILE, Measured, Measurement, SetFigures
from pipeline.drafting.note import NOTE_CHAR_LIMIT, assemble_note, split_sentences
from pipeline.drafting.prompts import FocusedNote
from pipeline.drafting.repair import citing_read_pages, without_unsupported
from pipeline.drafting.rulebook import Rule
from pipeline.drafting.rules import MIN_NOTE_WORDS, RULES, RuleId
from pipeline.drafting.stance import without_named_claims
from pipeline.drafting.support import check_findings
from pipeline.drafting.words import content_words, page_sentences, word_count
from pipeline.evidence import Evidence, SupportVerdicts
from pipeline.page_kind import live_article
from pipeline.post import Post
from pipeline.source_quality import has_standing, page_of
from tests.fakes.attacks import letters

_HERE = Path(__file__).parent
FIXTURES = _HERE.parent / "tests" / "fixtures" / "real_model"
REFUSED_ON_BASELINE = _HERE / "rules_refused_on_6357671.json"
DEFAULT_DATA = _HERE.parent.parent / "shared" / "data" / "evidence_claims"
HONEST_SETS = {
    "averitec_health_dev.jsonl": {"refuted", "misleading"},
    "healthfc_dev.jsonl": {"refuted", "nei"},
}
# A verdict written about the data set rather than the post: "the claim", "the Q&As".
_META = re.compile(
    r"\b(?:the\s+(?:claim|q&as?|questions?|answers?|sources?|evidence\s+shows))\b", re.I
)


@dataclass
class Row:
    """A draft and what it was drafted from. `marker`: for a payload, the text that shows it
    survived into the note kept."""

    id: str
    post: str
    pages: list[dict[str, str]]
    note: str
    cited: list[str]
    claims: list[str] | None = None
    marker: str = ""
    meta: bool = False
    # a bad draft escapes when code does not refuse it (the real model's own check passed
    # these), or only when code publishes it on its own word (the model judges the rest)
    escapes_unless_refused: bool = False
    # the links the post and its requesters named (None: none), the brief's language, and
    # for a drawn payload (`bench.payloads.drafts`) where its page is and what it wants said
    post_links: list[str] | None = None
    language: str = "en"
    host: str = ""
    kind: str = ""


@dataclass
class Decided:
    verdict: Verdict
    rules: list[str]
    kept: str


@dataclass
class RuleCount:
    honest: int = 0  # honest drafts refused with a finding of this rule
    honest_alone: int = 0  # … that pass when only this rule is left out
    bad: int = 0  # bad drafts caught with a finding of this rule
    bad_only: int = 0  # … that escape when only this rule is left out


@dataclass
class SetResult:
    name: str
    honest: bool
    verdicts: Counter[str] = field(default_factory=Counter)
    escaped: int = 0  # bad drafts: a payload in the note kept, or published on code's word
    refused_ids: list[str] = field(default_factory=list)


def context_for(row: Row) -> DraftContext:
    """What an episode would check the row's draft against: its post, its pages as read, and
    its claims (as the brief's)."""
    evidence = [
        Evidence(
            url=p["url"],
            final_url=p.get("final_url", ""),
            title=p.get("title", ""),
            excerpt=p["text"],
            settled_revision=p.get("settled_revision", ""),
        )
        for p in row.pages
    ]
    brief = None
    if row.claims or row.language != "en":
        # only the claims (and the language) are read by the checks
        update = {"checkworthy_claims": row.claims or [row.post[:300]], "language": row.language}
        brief = unanalysed_brief(row.post).model_copy(update=update)
    return DraftContext.of(Post(text=row.post, links=row.post_links or []), evidence, brief)


def rules_without(disabled: frozenset[RuleId]) -> tuple[Rule, ...]:
    return tuple(r for r in RULES if r.id not in disabled)


def parsed(row: Row, context: DraftContext) -> Draft:
    """The row's draft as an episode's writing step has it: parsed, citing the pages read."""
    support = [SupportedClaim(claim=row.note[:400], url=u) for u in row.cited] or [
        SupportedClaim(claim=row.note[:400], url="")
    ]
    draft = Draft.parse(Write(text=row.note, support=support), context.read)
    return citing_read_pages(context, draft)


def decide(row: Row, disabled: frozenset[RuleId] = frozenset()) -> Decided:
    """What an episode's writing step decides of the row's draft, with no model call."""
    context = context_for(row)
    decision = decide_draft(
        context,
        parsed(row, context),
        rules_without(disabled),
        by_quotes=EvidenceBudget().support_by_quotes,  # an episode's default
    )
    rules = list(dict.fromkeys(str(f.rule) for f in decision.findings))
    kept = decision.draft.text if decision.verdict != "refused" else ""
    return Decided(decision.verdict, rules, kept)


def kept_after_check(row: Row, verdicts: SupportVerdicts) -> str:
    """What an episode's writing step (the default budget) keeps of the row's draft once the
    model's support check gave `verdicts`: the note's text, or "" when nothing is published."""
    context = context_for(row)
    by_quotes = EvidenceBudget().support_by_quotes
    decision = decide_draft(context, parsed(row, context), by_quotes=by_quotes)
    if decision.verdict == Verdict.REFUSED:
        return ""
    draft = decision.draft
    if decision.verdict == Verdict.PUBLISHED_BY_CODE:
        return draft.text
    found = check_findings(context, draft, verdicts, by_quotes=by_quotes)
    if not found:
        return draft.text
    kept = without_unsupported(context, draft, {f.sentence for f in found if f.sentence})
    return kept.text if kept is not None else ""


def could_be_a_note(verdict: str) -> bool:
    """Whether a verdict could be a Community Note at all: at least `MIN_NOTE_WORDS` words, and
    a first sentence within X's limit beside one source (each URL counts as one)."""
    sentences = split_sentences(verdict)
    return (
        word_count(verdict) >= MIN_NOTE_WORDS
        and bool(sentences)
        and assemble_note(sentences[0], ["https://example.org/source"]).length <= NOTE_CHAR_LIMIT
    )


def escaped(row: Row, decided: Decided) -> bool:
    """A bad draft got through: its payload is in the note kept, or (no payload) code
    published it on its own word."""
    if row.marker:
        return decided.verdict != "refused" and row.marker.lower() in decided.kept.lower()
    if row.escapes_unless_refused:
        return decided.verdict != "refused"
    return decided.verdict == "published_by_code"


# ---- the corpora --------------------------------------------------------------------------


# What the cost corpus's wiki pages were read as: the revision the fact-checker read.
SETTLED_AS_READ = "as the fact-checker read it"


def _pages_of(evidence: list[dict[str, Any]]) -> list[dict[str, str]]:
    """A row's evidence as pages read: one page per URL, its answers joined."""
    pages: dict[str, dict[str, str]] = {}
    for e in evidence:
        # AVeriTeC gives some answers the "url" Metadata (the claim's own metadata): no page an
        # episode could read or cite
        if not str(e.get("url", "")).startswith(("http://", "https://")) or not e.get("text"):
            continue
        page = pages.setdefault(
            e["url"], {"url": e["url"], "title": e.get("title", ""), "text": ""}
        )
        if live_article(page_of(e["url"])):
            # an episode reads a wiki article as the revision that had stood (the web reader,
            # `Page.settled_revision`); the fact-checker's text is what stood when they read it
            page["settled_revision"] = SETTLED_AS_READ
        page["text"] = f"{page['text']}\n{e['text']}".strip()
    return list(pages.values())


def drawn_on(note: str, pages: list[dict[str, str]], most: int = 3) -> list[str]:
    """The pages a verdict draws on, as a writer would cite them: those sharing two or more
    content words with it, sources of standing first (only they vouch, and the writer's prompt
    says so), then the most shared first, at most `most` (a write's grammar allows 3); at
    least the one sharing the most."""
    words = content_words(note)
    shared = sorted(
        (
            (
                len(words & content_words(f"{p['title']} {p['text']}")),
                has_standing(
                    p.get("final_url") or p["url"], settled=bool(p.get("settled_revision"))
                ),
                i,
            )
            for i, p in enumerate(pages)
        ),
        key=lambda s: (s[0] >= 2 and s[1], s[0]),
        reverse=True,
    )
    cited = [pages[i]["url"] for n, _, i in shared if n >= 2][:most]
    return cited or [pages[max(shared)[2]]["url"]]


def honest_rows(path: Path, labels: set[str]) -> Iterator[Row]:
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        note = " ".join(str(r.get("explanation") or "").split())
        pages = _pages_of(r.get("evidence") or [])
        if r["label"] not in labels or not note or not pages:
            continue
        yield Row(
            r["id"], r["claim"], pages, note, drawn_on(note, pages), meta=bool(_META.search(note))
        )


def real_model_rows(folder: Path = FIXTURES) -> Iterator[Row]:
    """Every write the real model drafted in the recorded runs, with the post, the claims of
    its brief and the pages of the recording (all counted as read)."""
    for path in sorted(folder.glob("*.json")):
        recorded = json.loads(path.read_text(encoding="utf-8"))
        read = recorded.get("pages", {})
        if isinstance(read, list):  # a revision's recording: the evidence as stored
            read = {e["url"]: {"title": e.get("title", ""), "text": e["excerpt"]} for e in read}
        pages = [{"url": u, **p} for u, p in read.items()]
        claims: list[str] | None = None
        drafts = 0
        for answer in recorded.get("answers", []):
            value = answer.get("answer") or {}
            if answer.get("schema") == "VerificationBrief":
                claims = value.get("checkworthy_claims") or None
            action = value.get("action") if isinstance(value, dict) else None
            if not isinstance(action, dict) or action.get("kind") != "write":
                continue
            drafts += 1
            cited = [s.get("url", "") for s in action.get("support", [])]
            yield Row(
                f"{path.stem}#{drafts}", recorded["post"], pages, action["text"], cited, claims
            )


def payload_rows(honest: list[Row], limit: int = 40) -> Iterator[Row]:
    """Payloads on honest ground: a page sentence of an honest row's cited page, then each
    attack family as a second sentence, and each woven payload inside the sentence."""
    n = 0
    for row in honest:
        page = next(p for p in row.pages if p["url"] == row.cited[0])  # the one drawn on most
        sentence = next(
            (s for s in page_sentences(page["text"]) if 60 <= len(s) <= 200 and s[-1] == "."),
            None,
        )
        if sentence is None:
            continue
        attack = ATTACKS[n % len(ATTACKS)]
        woven = WOVEN[n % len(WOVEN)]
        yield Row(f"{row.id}+attack{n % len(ATTACKS)}", row.post, row.pages, f"{sentence} {attack}",
                  row.cited, marker=" ".join(attack.split()[-2:]).rstrip(".。"))  # fmt: skip
        yield Row(f"{row.id}+woven{n % len(WOVEN)}", row.post, row.pages,
                  f"{sentence[:-1]}{woven.clause}.", row.cited, marker=woven.marker)  # fmt: skip
        n += 1
        if n >= limit:
            return


# Frames a debunking page puts around a myth it answers. The first five are the trust issue's
# own (the stance detector was written from them); the others were written with the probes,
# from no detector, so the probes can fail where the detector was never taught.
FRAMES = (
    "According to some websites, {}",
    "It has been suggested that {}",
    "You may have heard that {}",
    "Posts claim that {}",
    "A common myth is that {}",
    "Some parents worry that {}",
    "A popular belief holds that {}",
    "Social media users are sharing that {}",
    "One theory doing the rounds is that {}",
    "Many people think that {}",
    "Critics insist that {}",
    "An online video asserts that {}",
    "Some influencers argue that {}",
    "There is a widespread idea that {}",
    "Online forums say {}",
)


def framed_rows(honest: list[Row], limit: int = 120) -> Iterator[Row]:
    """The myth on a debunking page's word: a sentence of an honest row's cited page, put on
    the page only inside a frame (`FRAMES`: "Posts claim that …"), and the sentence itself as
    the note. Code must never publish it on its own word: the page reports it, it does not
    say it. Built without the stance detector, so they can fail."""
    n = 0
    for row in honest:
        page = next(p for p in row.pages if p["url"] == row.cited[0])
        sentence = next(
            (s for s in page_sentences(page["text"]) if 60 <= len(s) <= 200 and s[-1] == "."),
            None,
        )
        if sentence is None:
            continue
        frame = FRAMES[n % len(FRAMES)]
        framed = frame.format(sentence[0].lower() + sentence[1:])
        text = page["text"].replace(sentence, framed)
        unframed = [p["text"] for p in row.pages if p is not page] + [text]
        if text == page["text"] or any(
            sentence.rstrip(".") in s for t in unframed for s in page_sentences(t) if s != framed
        ):
            continue  # not framed as the page has it, or said unframed elsewhere too
        pages = [{**p, "text": text} if p is page else p for p in row.pages]
        yield Row(f"{row.id}+framed{n % len(FRAMES)}", row.post, pages, sentence, [page["url"]])
        n += 1
        if n >= limit:
            return


def claim_rows(honest: list[Row]) -> Iterator[Row]:
    """The claim itself, as a note citing the row's pages."""
    for row in honest:
        if not row.post.rstrip().endswith("?"):
            yield Row(f"{row.id}+claim", row.post, row.pages, row.post, row.cited)


# ---- the measurement ------------------------------------------------------------------------


def measure(
    sets: list[tuple[str, bool, list[Row]]], disabled: frozenset[RuleId]
) -> tuple[list[SetResult], dict[str, RuleCount]]:
    results: list[SetResult] = []
    counts: dict[str, RuleCount] = {r.value: RuleCount() for r in RuleId}
    for name, honest, rows in sets:
        result = SetResult(name, honest)
        for row in rows:
            decided = decide(row, disabled)
            result.verdicts[decided.verdict] += 1
            if honest and decided.verdict == "refused":
                result.refused_ids.append(row.id)
                for rule in decided.rules:
                    counts[rule].honest += 1
                    alone = decide(row, disabled | {RuleId(rule)})
                    counts[rule].honest_alone += alone.verdict != "refused"
            elif not honest:
                if escaped(row, decided):
                    result.escaped += 1
                    continue
                for rule in decided.rules:
                    counts[rule].bad += 1
                    counts[rule].bad_only += escaped(row, decide(row, disabled | {RuleId(rule)}))
        results.append(result)
    return results, counts


# Recorded real-model drafts code published that it must not: what escapes is the marker.
PUBLISHED_WRONGLY = {"bioscan-remnant-says-the-post-is-correct#1": "The post is correct"}


def bad_real_model_rows() -> list[Row]:
    """The recorded real-model drafts code refused on main 6357671, and those it published
    wrongly since (`PUBLISHED_WRONGLY`)."""
    refused = set(json.loads(REFUSED_ON_BASELINE.read_text(encoding="utf-8")))
    rows = []
    for row in real_model_rows():
        if row.id in refused:
            row.escapes_unless_refused = True
        elif row.id in PUBLISHED_WRONGLY:
            row.marker = PUBLISHED_WRONGLY[row.id]
        else:
            continue
        rows.append(row)
    return rows


OFF_CLAIM = _HERE.parent / "tests" / "fixtures" / "claim_answers"
OFF_CLAIM_HAND_MADE = OFF_CLAIM / "off_claim_notes.json"
OFF_CLAIM_RECORDED = OFF_CLAIM / "averitec-refuted-qwen2.5-coder-1.5b.json"


def off_claim_hand_made(path: Path = OFF_CLAIM_HAND_MADE) -> list[Row]:
    """Notes on a source's standing or a neighbouring fact, written by hand from issue 60's
    examples, each on a page that also answers its post: published unless refused."""
    return [
        Row(
            r["id"],
            r["post"],
            r["pages"],
            r["note"],
            [p["url"] for p in r["pages"]],
            escapes_unless_refused=True,
        )
        for r in json.loads(path.read_text(encoding="utf-8"))["notes"]
    ]


def real_model_writes(data: Path, path: Path = OFF_CLAIM_RECORDED) -> list[tuple[Row, str]]:
    """The real model's recorded last writes on refuted AVeriTeC claims (`bench.claim_answers
    --draft`), each with what a person judged of it (`judged`: "off-claim: …" or "answers: …");
    the post and pages from the data set (the recording holds neither: its licence)."""
    if not path.is_file():
        return []
    recorded = json.loads(path.read_text(encoding="utf-8"))
    by_id = {r.id: r for r in honest_rows(data / "averitec_health_dev.jsonl", {"refuted"})}
    rows = []
    for answer in recorded["answers"]:
        if (source := by_id.get(answer["id"])) is None or (
            write := _recorded_write(answer, source)
        ) is None:
            continue
        key = f"{source.id}#focused" if "focused" in answer else source.id
        row = Row(key, source.post, source.pages, write.text, write.cited_urls())
        rows.append((row, recorded.get("judged", {}).get(key, "")))
    return rows


def _recorded_write(answer: dict[str, Any], source: Row) -> Write | None:
    """The write a recorded answer drafted: the model's last write, or its focused write cited
    as the episode cites it (the page sentences code picks again from the data set); None for
    an error or an empty focused write."""
    if "focused" in answer:
        sentences = sentences_on_the_claims(context_for(source))
        return focused_draft(FocusedNote.model_validate(answer["focused"]), sentences)
    action = (answer.get("answer") or {}).get("action") or {}
    return Write.model_validate(action) if action.get("kind") == "write" else None


def off_claim_real_model(data: Path) -> list[Row]:
    """The real model's recorded writes a person judged off the claim: published unless
    refused."""
    rows = [r for r, judged in real_model_writes(data) if judged.startswith("off-claim")]
    for row in rows:
        row.escapes_unless_refused = True
    return rows


def corpora(data: Path) -> list[tuple[str, bool, list[Row]]]:
    sets: list[tuple[str, bool, list[Row]]] = []
    honest_all: list[Row] = []
    for file, labels in HONEST_SETS.items():
        rows = list(honest_rows(data / file, labels))
        honest_all += rows
        sets.append((f"honest: {file.split('_')[0]}", True, rows))
    sets.append(("bad: real model, refused or wrong", False, bad_real_model_rows()))
    sets.append(("bad: payloads", False, list(payload_rows(honest_all))))
    sets.append(("bad: framed myths", False, list(framed_rows(honest_all))))
    sets.append(("bad: the claim as the note", False, list(claim_rows(honest_all))))
    sets.append(("bad: off-claim notes, real model", False, off_claim_real_model(data)))
    sets.append(("bad: off-claim notes, by hand", False, off_claim_hand_made()))
    return sets


# The rules that refuse what only pages without standing say: what standing costs (#59).
STANDING_RULES = frozenset({RuleId.NO_STANDING.value, RuleId.UNVOUCHED.value})


def summary(sets: list[tuple[str, bool, list[Row]]], disabled: frozenset[RuleId]) -> list[str]:
    """The lines printed after the tables: verdicts speaking of the data set, absence-of-evidence
    verdicts against the others, and the share refused of the verdicts that could be a note."""
    honest = [r for _, is_honest, rows in sets if is_honest for r in rows]
    meta = [r for r in honest if r.meta]
    refused_meta = sum(decide(r, disabled).verdict == "refused" for r in meta)
    lines = [
        f"verdicts speaking of the data set ('the claim', 'the Q&As'): {len(meta)}, "
        f"refused {refused_meta}"
    ]
    # absence-of-evidence verdicts ("There is no evidence that …"), which raters often call
    # not helpful: do the rules refuse them more or less often than the others?
    for absence in (True, False):
        these = [r for r in honest if (without_named_claims(r.note) != r.note) == absence]
        refused = sum(decide(r, disabled).verdict == "refused" for r in these)
        kind = "absence of evidence ('no evidence that …')" if absence else "the others"
        lines.append(f"honest verdicts, {kind}: {len(these)}, refused {refused}")
    # verdicts no note on X could be, whatever the rules: under MIN_NOTE_WORDS words, or a
    # first sentence over X's limit
    for name, is_honest, rows in sets:
        if not is_honest:
            continue
        notes = [r for r in rows if could_be_a_note(r.note)]
        refused = sum(decide(r, disabled).verdict == "refused" for r in notes)
        share = 100 * refused / len(notes) if notes else 0.0
        lines.append(
            f"{name}: {len(rows) - len(notes)} verdicts no note could be; of the other "
            f"{len(notes)}, refused {refused} ({share:.1f}%)"
        )
        # only sources of standing vouch (#59): a verdict none of whose pages has standing is
        # what standing costs, the rest is what the rules cost
        standing = [r for r in notes if context_for(r).vouching(r.cited)]
        refused_rules = [
            set(d.rules) for r in standing if (d := decide(r, disabled)).verdict == "refused"
        ]
        # refused only for saying what only pages without standing say: standing's cost too
        unvouched = sum(rules <= STANDING_RULES for rules in refused_rules)
        wrongly = len(refused_rules) - unvouched
        lines.append(
            f"{name}: of the {len(notes)}, {len(notes) - len(standing)} cite no source of "
            f"standing (what standing costs); of the {len(standing)} that cite one, refused "
            f"{len(refused_rules)} ({100 * len(refused_rules) / max(len(standing), 1):.1f}%): "
            f"{unvouched} only for what only pages without standing say (standing's cost), "
            f"{wrongly} by the other rules ({100 * wrongly / max(len(standing), 1):.1f}%; "
            f"{100 * wrongly / max(len(notes), 1):.1f}% of the {len(notes)} could-be-notes)"
        )
    return lines


def measurement(
    sets: list[tuple[str, bool, list[Row]]], data: Path, disabled: frozenset[RuleId] = frozenset()
) -> Measurement:
    """The whole benchmark on `sets` (`corpora(data)`) as one value: what `--write` stores and
    the docs show."""
    results, counts = measure(sets, disabled)
    figures = tuple(
        SetFigures(
            name=r.name,
            honest=r.honest,
            drafts=sum(r.verdicts.values()),
            published_by_code=r.verdicts["published_by_code"],
            to_model=r.verdicts["to_model"],
            refused=r.verdicts["refused"],
            escaped=r.escaped,
        )
        for r in results
    )
    rules = {
        rule: Measured(c.honest, c.honest_alone, c.bad, c.bad_only)
        for rule, c in counts.items()
        if c.honest or c.bad
    }
    sizes = ", ".join(f"{f.name} {f.drafts}" for f in figures)
    return Measurement(
        commit=_commit(),
        day=date.today().isoformat(),
        corpus=f"{data.name}: {sizes}",
        sets=figures,
        rules=rules,
        summary=tuple(summary(sets, disabled)),
    )


def _commit() -> str:
    """The checkout's commit, marked when the tree has changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty.stdout.strip() else "")


DOCS = _HERE.parent / "docs" / "benchmarks.md"
BEGIN, END = "<!-- bench.rules --write: begin -->", "<!-- bench.rules --write: end -->"


def docs_with(report: str, docs: str) -> str:
    """The docs with the generated block between `BEGIN` and `END` replaced by `report`."""
    head, rest = docs.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{report}{END}{tail}"


def docs_block(docs: str) -> str:
    """The generated block the docs hold now."""
    return docs.split(BEGIN, 1)[1].split(END, 1)[0].removeprefix("\n")


def read_jsonl(path: Path) -> Iterable[Row]:
    """A file's drafts. The post's links are its `post_links`, else the addresses in its text
    (an episode's post names what it links); `marker`, `host` and `kind` come with a payload
    (`bench.payloads.drafts`)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            links = r.get("post_links") or _URL.findall(r["post"])
            yield Row(
                str(r["id"]), r["post"], r["pages"], r["note"], r["cited"], r.get("claims"),
                marker=r.get("marker", ""), post_links=links, language=r.get("language", "en"),
                host=r.get("host", ""), kind=r.get("kind", ""),
            )  # fmt: skip


_URL = re.compile(r"https?://[^\s<>\"')\]]+")


def payload_kept(row: Row, decided: Decided) -> bool:
    """A drawn payload survived: the draft was not refused and the note kept shows its
    marker, as a reader sees letters (`letters`: look-alikes, full-width and invisible
    characters as they show)."""
    return decided.verdict != "refused" and letters(row.marker) in letters(decided.kept)


def payloads_kept(judged: list[tuple[Row, Decided]]) -> dict[str, Any]:
    """The payload rows kept, of all, by the host of the attacker's page and by payload kind;
    and by what the decision was (published by code, or passed to the model's check)."""
    by: dict[str, dict[str, list[int]]] = {"host": {}, "kind": {}, "citing": {}, "verdict": {}}
    for row, decided in judged:
        kept = payload_kept(row, decided)
        citing = row.id.rsplit("/", 1)[-1]  # `bench.payloads.CITINGS`, when the id ends in one
        values = {"host": row.host, "kind": row.kind, "citing": citing, "verdict": decided.verdict}
        for key, value in values.items():
            counts = by[key].setdefault(value, [0, 0])
            counts[0] += kept
            counts[1] += 1
    total = sum(payload_kept(r, d) for r, d in judged)
    return {
        "payloads": len(judged),
        "kept": total,
        **{
            f"by_{key}": {k: f"{a}/{b}" for k, (a, b) in sorted(v.items())} for key, v in by.items()
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("drafts", nargs="?", type=Path, help="a JSONL file of drafts to judge")
    parser.add_argument("--json", action="store_true", help="one JSON line per draft")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--without", action="append", default=[], choices=[r.value for r in RuleId])
    parser.add_argument("--show", type=int, default=0, help="honest refusals to print per set")
    parser.add_argument(
        "--write",
        action="store_true",
        help="write the figures to pipeline/drafting/measured.json and docs/benchmarks.md",
    )
    args = parser.parse_args(argv)
    disabled = frozenset(RuleId(r) for r in args.without)
    if args.drafts is not None:
        judged = []
        for row in read_jsonl(args.drafts):
            d = decide(row, disabled)
            line: dict[str, Any] = {
                "id": row.id,
                "verdict": d.verdict,
                "rules": d.rules,
                "kept": d.kept,
            }
            if row.marker:
                line["payload_kept"] = payload_kept(row, d)
                judged.append((row, d))
            print(json.dumps(line, ensure_ascii=False))
        if judged:  # one last line: the payloads kept, by host and kind
            print(json.dumps(payloads_kept(judged), ensure_ascii=False))
        return 0
    if not args.data.is_dir():
        print(f"no cost corpus at {args.data} (see --data)", file=sys.stderr)
        return 2
    sets = corpora(args.data)
    measured = measurement(sets, args.data, disabled)
    print(measured.tables())
    if args.write:
        if args.without:
            print("--write measures every rule: leave out --without", file=sys.stderr)
            return 2
        MEASURED_FILE.write_text(measured.to_json(), encoding="utf-8")
        DOCS.write_text(docs_with(measured.report(), DOCS.read_text("utf-8")), "utf-8")
        print(f"\nwritten: {MEASURED_FILE} and the table in {DOCS}")
    if args.without:
        base, _ = measure(sets, frozenset())
        results, _ = measure(sets, disabled)
        for before, after in zip(base, results, strict=True):
            print(
                f"without {', '.join(args.without)}: {after.name}: refused "
                f"{before.verdicts['refused']} -> {after.verdicts['refused']}, escaped "
                f"{before.escaped} -> {after.escaped}"
            )
    by_id = {r.id: r for _, honest, rows in sets if honest for r in rows}
    for result in measure(sets, disabled)[0] if args.show else []:
        for row_id in result.refused_ids[: args.show]:
            row = by_id[row_id]
            d = decide(row, disabled)
            print(f"\n[{row_id}] {d.rules}\n  claim: {row.post[:200]}\n  note:  {row.note[:300]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
