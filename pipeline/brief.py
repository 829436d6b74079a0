"""The verification brief produced by claim analysis (EvoNote analysis + GitSearch gaps)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, Field

from pipeline.grammar import Distinct

# Every field the model fills is bounded: the brief is on the critical path (nothing is
# searched for the agent until it is written) and sent in every later prompt.
Claim = Annotated[str, Field(max_length=300)]
Need = Annotated[str, Field(max_length=120)]


class ClaimPattern(StrEnum):
    """The nine-pattern taxonomy of misleading health posts."""

    MISLEADING_STATISTICS = "misleading_statistics"
    VACCINE_RISK = "vaccine_risk"
    UNSUPPORTED_CAUSALITY = "unsupported_causality"
    SUPPRESSION_NARRATIVE = "suppression_narrative"
    INSTITUTIONAL_CONTEXT = "institutional_context"
    SCIENTIFIC_EVIDENCE = "scientific_evidence"
    MEDIA_CONTEXT = "media_context"
    MEDICAL_MECHANISM = "medical_mechanism"
    HEALTH_ADVICE = "health_advice"


class GapType(StrEnum):
    """GitSearch's six kinds of information gap."""

    UNSUBSTANTIATED_CLAIM = "unsubstantiated_claim"
    CONTRADICTION = "contradiction"
    VAGUE_REFERENCE = "vague_reference"
    MISSING_CONTEXT = "missing_context"
    SOURCE_VERIFICATION = "source_verification"
    MISSING_COVERAGE = "missing_coverage"


class NoteIntent(StrEnum):
    CORRECTION = "correction"
    CONTEXT = "context"
    MIXED = "mixed"


class InformationGap(BaseModel):
    type: GapType
    description: str = Field(max_length=200)
    priority: int = Field(ge=1, le=5, description="5 = must be closed before writing")
    suggested_query: str = Field(max_length=120)


class VerificationBrief(BaseModel):
    claim_pattern: ClaimPattern
    checkworthy_claims: Annotated[list[Claim], Distinct] = Field(min_length=1, max_length=3)
    gaps: Annotated[list[InformationGap], Distinct] = Field(min_length=1, max_length=4)
    evidence_needs: Annotated[list[Need], Distinct] = Field(default_factory=list, max_length=3)
    note_intent: NoteIntent
    language: str = Field(
        default="en", max_length=12, description="language of the post (BCP-47); notes use it"
    )
    applicable_memories: Annotated[list[int], Distinct] = Field(
        default_factory=list,
        max_length=12,
        description="ids of the retrieved lessons that apply to this post",
    )

    def top_gaps(self, n: int = 3) -> list[InformationGap]:
        return sorted(self.gaps, key=lambda g: -g.priority)[:n]


def unanalysed_brief(post_text: str) -> VerificationBrief:
    """The brief when claim analysis is switched off: the post is the claim and the gap."""
    text = " ".join(post_text.split())
    return VerificationBrief(
        claim_pattern=ClaimPattern.SCIENTIFIC_EVIDENCE,
        checkworthy_claims=[text[:300]],
        gaps=[
            InformationGap(
                type=GapType.UNSUBSTANTIATED_CLAIM,
                description="Is the post's claim supported by authoritative evidence?",
                priority=5,
                suggested_query=text[:120],
            )
        ],
        note_intent=NoteIntent.MIXED,
    )
