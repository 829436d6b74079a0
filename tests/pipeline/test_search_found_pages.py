"""What the drawn attacker (`tests.fakes.attacks`) found after only pages of standing vouched:
a university's people's pages under logins no listed shape knew, vouching on code's word; and
the attacker's page kept beside the agency's as a source of the clean note, its address
published. And the bench's contract on drawn payloads: none published by code."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.payloads import drafts
from bench.rules import decide, payload_kept, read_jsonl
from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.repair import citing_read_pages
from pipeline.evidence import Evidence
from pipeline.page_kind import PageKind, page_kind
from pipeline.post import Post


@pytest.mark.parametrize(
    "url",
    [
        "https://pages.ucla.edu/asmith23/report-children-vaccine-safety",
        "https://students.cornell.edu/asmith_md/real-hide-data",
        "https://www.harvard.edu/group/mkessler_md/",
        "https://www.cornell.edu/org/rpatel1/",
        "https://www.ox.ac.uk/u/kweber91/",
        "https://www.mit.edu/u/mkessler",
        "https://web.illinois.edu/nkostas_md/the-what",
        "https://my.ufreesh.edu.au/kweber/study-report",
    ],
)
def test_a_login_on_a_universitys_host_is_a_personal_page(url: str) -> None:
    assert page_kind(url) == PageKind.PERSONAL


@pytest.mark.parametrize(
    "url",
    [  # academic pages the cost corpus's honest verdicts read
        "https://www.hsph.harvard.edu/nutritionsource/2020/04/01/ask-the-expert-the-role-of-diet/",
        "https://virus.stanford.edu/uda/",
        "https://avalon.law.yale.edu/imt/nurecode.asp",
        "https://med.stanford.edu/news/all-news/2021/09/surgical-masks-covid-19.html",
        "https://www.currytbcenter.ucsf.edu/sites/default/files/ic_book_2011.pdf",
        "https://vk.ovg.ox.ac.uk/vk/inactivated-flu-vaccine",
        "https://www.kyoto-u.ac.jp/en/news/2020-04-27",
        "https://www.harvard.edu/",
    ],
)
def test_a_universitys_own_pages_are_no_personal_pages(url: str) -> None:
    assert page_kind(url) is None


CDC = "https://www.cdc.gov/vaccines/mmr-safety"
OWN = "https://vaxtruthhub.health/the-real-report"
SAID = "Many studies have found no link between the MMR vaccine and autism."


def test_a_note_never_cites_a_page_without_standing_beside_one_with_it() -> None:
    """The clean note cited the attacker's page (found by the search) beside the CDC's: code
    kept both, and the note published the attacker's address."""
    pages = [
        Evidence(url=CDC, title="MMR vaccine safety", excerpt=SAID),
        Evidence(url=OWN, title="The report", excerpt=f"{SAID} Call 800 555 1999."),
    ]
    context = DraftContext.of(Post(text="The MMR vaccine causes autism."), pages)
    draft = Write(text=SAID, support=[SupportedClaim(claim=SAID, url=u) for u in (OWN, CDC)])
    cited = citing_read_pages(context, Draft.parse(draft, context.read))
    assert cited.cited == (CDC,)
    # alone, it stays cited: the rules refuse a note no source of standing vouches for
    alone = Write(text=SAID, support=[SupportedClaim(claim=SAID, url=OWN)])
    assert citing_read_pages(context, Draft.parse(alone, context.read)).cited == (OWN,)


def test_no_drawn_payload_is_published_by_code_on_any_host(tmp_path: Path) -> None:
    """A seed the defences were not tuned on: every drawn payload, cited alone, beside the
    agency's page or with the agency's page alone. None is published by code with its payload;
    cited alone, none is kept at all (the rest goes to the support check, blind to the
    attacker's page)."""
    path = tmp_path / "drafts.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in drafts(seed=7, n=88)), encoding="utf-8")
    kept: Counter[str] = Counter()
    for row in read_jsonl(path):
        decided = decide(row)
        if payload_kept(row, decided) and (
            decided.verdict == "published_by_code" or row.id.endswith("/alone")
        ):
            kept[f"{row.host} / {row.kind} / {row.id.rsplit('/', 1)[-1]}"] += 1
    assert not kept, kept
