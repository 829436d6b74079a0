"""What a writing step decides of a draft without a model call: refused (with the findings),
repaired by code, published on code's word (every sentence borne out by a cited page
sentence) or passed to the model's support check. The same decision serves a draft in an
episode (`pipeline.writing`), a revision asked for later (`pipeline.revision`) and the
per-rule benchmark (`bench.rules`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pipeline.drafting.context import DraftContext
from pipeline.drafting.draft import Draft
from pipeline.drafting.findings import Finding
from pipeline.drafting.repair import repaired_by_code
from pipeline.drafting.rulebook import Rule
from pipeline.drafting.rules import RULES, findings
from pipeline.drafting.support import quotes_bear_out


class Verdict(StrEnum):
    """What the writing step decides of a draft without a model call."""

    PUBLISHED_BY_CODE = "published_by_code"
    TO_MODEL = "to_model"
    REFUSED = "refused"


@dataclass(frozen=True)
class CodeDecision:
    """What a writing step decides of a draft with no model call: `refused` (with the
    findings), `published_by_code` (every sentence borne out by a cited page sentence) or
    `to_model` (the model's support check judges it). `draft` is the draft as it goes on:
    repaired when code repaired it."""

    verdict: Verdict
    draft: Draft
    findings: tuple[Finding, ...]
    repaired: bool = False


def decide(
    context: DraftContext,
    draft: Draft,
    rules: tuple[Rule, ...] = RULES,
    *,
    by_quotes: bool = False,
) -> CodeDecision:
    """What the writing step decides of the draft without a model call: refused, repaired by
    code, published on code's word (only `by_quotes`: `EVONOTE_BUDGET__SUPPORT_BY_QUOTES`),
    or passed to the model's support check. `rules`: every rule unless a benchmark leaves some
    out (`bench.rules --without`)."""
    found = findings(context, draft, rules)
    repaired = False
    if found:
        fixed = repaired_by_code(context, draft, found, rules)
        if fixed is None:
            return CodeDecision(Verdict.REFUSED, draft, tuple(found))
        draft, repaired = fixed, True
    by_code = by_quotes and quotes_bear_out(context, draft)
    verdict = Verdict.PUBLISHED_BY_CODE if by_code else Verdict.TO_MODEL
    return CodeDecision(verdict, draft, tuple(found), repaired)
