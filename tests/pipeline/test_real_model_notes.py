"""Notes a real model published, recorded (`tests/fixtures/real_model_notes/`) and decided
again by today's code: what the recording showed wrong must not be kept."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.context import DraftContext
from pipeline.drafting.decide import Verdict, decide
from pipeline.drafting.draft import Draft
from pipeline.drafting.note import split_sentences
from pipeline.drafting.words import said_as
from pipeline.evidence import Evidence
from pipeline.post import Post

FIXTURES = Path(__file__).parent.parent / "fixtures" / "real_model_notes"


def test_a_sentence_repeated_behind_a_heading_is_said_once() -> None:
    recorded = json.loads((FIXTURES / "sids-heading-repeats-its-sentence.json").read_text())
    pages = [
        Evidence(url=p["url"], title=p["title"], excerpt=p["excerpt"]) for p in recorded["pages"]
    ]
    context = DraftContext.of(Post(text=recorded["post"]), pages)
    note = recorded["note"]
    support = [SupportedClaim(claim=note, url=u, quote="") for u in recorded["cited"]]
    decision = decide(context, Draft.parse(Write(text=note, support=support), context.read))
    kept = split_sentences(decision.draft.text) if decision.verdict != Verdict.REFUSED else []
    tails = [said_as(s) for s in kept]
    # the real run published "SIDS, babies: <sentence> <sentence>"
    assert not any(a != b and a.endswith(b) for a in tails for b in tails), kept
    assert len(set(tails)) == len(tails), kept
