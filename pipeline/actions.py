"""What the agent may do on a turn: search, visit, write, or abstain."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from pipeline.grammar import Distinct


class Search(BaseModel):
    kind: Literal["search"] = "search"
    query: str = Field(min_length=1, max_length=300)


# The schema (what a grammar lets the model write) asks for less than validation accepts:
# a small model fills strings and lists to their bounds (real write turns copied 500-character
# quotes six times and were cut at the token cap), so the bounds sent say what is wanted.


class VisitTarget(BaseModel):
    url: str = Field(max_length=2000)
    goal: str = Field(
        max_length=300,
        json_schema_extra={"maxLength": 120},
        description="what to look for on this page, in a few words",
    )


class Visit(BaseModel):
    kind: Literal["visit"] = "visit"
    targets: list[VisitTarget] = Field(min_length=1, max_length=6)


class SupportedClaim(BaseModel):
    claim: str = Field(
        max_length=400, json_schema_extra={"maxLength": 200}, description="a statement in the note"
    )
    url: str = Field(max_length=2000, description="a visited source that supports it")
    quote: str = Field(
        default="",
        max_length=500,
        json_schema_extra={"maxLength": 300},
        description="the one sentence of that source, copied from the research log, that says it",
    )


class Write(BaseModel):
    kind: Literal["write"] = "write"
    # Prose near the 280-character note (real drafts ran to 1,203 characters against the old
    # 1,200 bound); validation still takes up to 1,200, and code trims whole trailing
    # sentences to fit.
    text: str = Field(
        min_length=1,
        max_length=1200,
        json_schema_extra={"maxLength": 420},
        description="the note's prose, without URLs",
    )
    support: Annotated[list[SupportedClaim], Distinct] = Field(
        min_length=1, max_length=6, json_schema_extra={"maxItems": 3}
    )

    def cited_urls(self) -> list[str]:
        return list(dict.fromkeys(s.url.strip() for s in self.support))


class Abstain(BaseModel):
    kind: Literal["abstain"] = "abstain"
    reason: str = Field(min_length=1, max_length=600)


AnyAction = Annotated[Search | Visit | Write | Abstain, Field(discriminator="kind")]
FinalAction = Annotated[Write | Abstain, Field(discriminator="kind")]


class AgentTurn(BaseModel):
    """One decision of the agent loop."""

    thought: str = Field(max_length=240, description="one short sentence: why this action")
    action: AnyAction


class FinalTurn(BaseModel):
    """The last decision when the budget or deadline is spent: write or abstain."""

    thought: str = Field(max_length=240, description="one short sentence")
    action: FinalAction
