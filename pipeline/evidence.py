"""What searching and reading produce."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, field_validator, model_validator

from pipeline.grammar import Distinct


class SearchResult(BaseModel):
    title: str
    url: str
    snippet: str = ""
    published: datetime | None = None


class Page(BaseModel):
    """The main text of a page as a reader extracted it."""

    url: str
    title: str = ""
    text: str
    published: datetime | None = None
    settled_revision: str = Field(
        default="",
        description="a wiki article's revision read, one that had stood for hours (the reader"
        " asked the wiki's API for it), not the live one anyone may have just edited; empty:"
        " the page as it answered",
    )


class Evidence(BaseModel):
    """A successfully read page, reduced to what bears on the visit's goal."""

    url: str
    final_url: str = Field(
        default="", description="the address that answered, after redirects; empty: `url`"
    )
    title: str = ""
    goal: str = ""
    tier: int = Field(default=1, description="source quality tier, 4 = official body")
    excerpt: str = Field(description="the passages of the page most relevant to the goal")
    relevant: bool | None = Field(
        default=None, description="the page notes' verdict: does it bear on the claims"
    )
    quotes: list[str] = Field(default_factory=list, description="verbatim sentences")
    published: datetime | None = None
    settled_revision: str = Field(
        default="", description="the settled wiki revision read (`Page.settled_revision`)"
    )


class PageNotes(BaseModel):
    """The model's reading of one page against the visit's goal: only what the writer needs.
    Quotes are chosen by the number of the page's sentence and copied by code, so every quote
    is verbatim and the answer is a few tokens (decoding, not reading, is what costs)."""

    relevant: bool = Field(description="does the page bear on the claims at all")
    quote_sentences: Annotated[list[int], Distinct] = Field(
        default_factory=list,
        max_length=3,
        description="the numbers of up to 3 of the page's sentences a note could rely on",
    )


@dataclass(frozen=True)
class NotesTaken:
    """A page's notes as code keeps them: whether the model found it bearing on the claims
    (None: no notes), its quotes (the page's own sentences) and what the agent is told."""

    relevant: bool | None
    quotes: list[str]
    said: str


class SentenceVerdict(BaseModel):
    """The support check's verdict on one numbered clause of a draft."""

    index: int = Field(ge=0, le=100, description="the clause's number as given")
    supported: bool = Field(description="do the cited sources say this, without distortion")
    quote: str = Field(
        default="",
        max_length=600,
        description="for a supported clause, the sentence of a source that says it, copied "
        "word for word",
    )
    problem: str = Field(
        default="", max_length=300, description="what is not borne out or distorted, if anything"
    )

    @field_validator("quote", mode="before")
    @classmethod
    def a_quote_as_text(cls, value: object) -> str:
        """A quote that is no text (a number, a list) or longer than any page sentence is
        read as what it is: no sentence of a page, which code then finds for the clause
        (`carried.quote_problem`) instead of the whole answer failing."""
        return value[:600] if isinstance(value, str) else ""


class SupportVerdicts(BaseModel):
    verdicts: Annotated[list[SentenceVerdict], Distinct] = Field(max_length=30)

    @model_validator(mode="after")
    def counted_from_one(self) -> SupportVerdicts:
        """Sentences are numbered from 1; a model that numbered its verdicts 0, 1, … (seen
        on llama.cpp) means the same sentences, one lower."""
        indices = sorted(v.index for v in self.verdicts)
        if indices and indices == list(range(len(indices))):
            for verdict in self.verdicts:
                verdict.index += 1
        return self
