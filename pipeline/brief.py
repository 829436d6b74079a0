"""The verification brief produced by claim analysis (EvoNote analysis + GitSearch gaps)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

import langcodes
from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.config import JsonDict

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


class NoteNeed(StrEnum):
    """Whether a post needs a note at all, and if not, why: the kinds of correct notes raters
    reject that an AI note writer on X could have caught before writing (cn-return-bot: 35 of
    57 Not Helpful notes; a Not Helpful note costs more than a missed post)."""

    NEEDED = "needed"
    JOKE = "joke_satire_or_hyperbole"
    OPINION = "opinion_or_prediction"
    PERSONAL = "personal_experience"
    ACCURATE = "accurate_as_posted"
    SIDE_DETAIL = "error_is_a_side_detail"
    TOO_EARLY = "news_too_early_to_check"
    ALREADY_NOTED = "already_carries_a_good_note"


# What a card says after "No note needed: ".
NO_NOTE_BECAUSE: dict[NoteNeed, str] = {
    NoteNeed.JOKE: "a joke, satire or hyperbole",
    NoteNeed.OPINION: "an opinion or a prediction",
    NoteNeed.PERSONAL: "a personal experience",
    NoteNeed.ACCURATE: "accurate as posted",
    NoteNeed.SIDE_DETAIL: "the error is a side detail",
    NoteNeed.TOO_EARLY: "breaking news, too early to check",
    NoteNeed.ALREADY_NOTED: "it already carries a good note",
}


def no_note_needed(need: NoteNeed) -> str:
    """The abstention's one line when the brief says no note is needed."""
    return f"No note needed: {NO_NOTE_BECAUSE[need]}"


def _note_need_first(schema: JsonDict) -> None:
    """`note_need` has a default (briefs stored before it existed still load) but is required
    of the model: a grammar may skip an optional field, and this is the first question."""
    required = schema.setdefault("required", [])
    if isinstance(required, list) and "note_need" not in required:
        required.insert(0, "note_need")


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
    model_config = ConfigDict(json_schema_extra=_note_need_first)

    note_need: NoteNeed = Field(
        default=NoteNeed.NEEDED,
        description="whether the post needs a note; if not, why (decided before anything else)",
    )
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
