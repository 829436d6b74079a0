"""The verification brief produced by claim analysis (EvoNote analysis + GitSearch gaps)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

import langcodes
from pydantic import BaseModel, Field, field_validator

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


# A BCP-47 tag's shape, for the grammar: a model asked for one may still write "English".
LANGUAGE_TAG = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$"


def language_tag(value: object) -> str:
    """A model's language answer as a valid BCP-47 tag, lower-case primary subtag: what
    langcodes accepts, standardised; anything else ("English", "", "the post mak", "zz") is
    English, the vocabulary every note is held to anyway. Never raises: the word lists look
    languages up by this tag."""
    text = str(value or "").strip()
    try:
        if langcodes.tag_is_valid(text):
            tag = str(langcodes.standardize_tag(text))
            return tag if re.fullmatch(LANGUAGE_TAG, tag) and len(tag) <= 12 else tag.split("-")[0]
    except ValueError:
        pass
    return "en"


class VerificationBrief(BaseModel):
    claim_pattern: ClaimPattern
    checkworthy_claims: Annotated[list[Claim], Distinct] = Field(min_length=1, max_length=3)
    gaps: Annotated[list[InformationGap], Distinct] = Field(min_length=1, max_length=4)
    evidence_needs: Annotated[list[Need], Distinct] = Field(default_factory=list, max_length=3)
    note_intent: NoteIntent
    language: str = Field(
        default="en",
        max_length=12,
        pattern=LANGUAGE_TAG,
        description="language of the post (BCP-47); notes use it",
    )
    applicable_memories: Annotated[list[int], Distinct] = Field(
        default_factory=list,
        max_length=12,
        description="ids of the retrieved lessons that apply to this post",
    )

    @field_validator("language", mode="before")
    @classmethod
    def a_language_tag(cls, value: object) -> str:
        return language_tag(value)

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
