"""What the agent may do on a turn: search, visit, write, or abstain."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field


class Search(BaseModel):
    kind: Literal["search"] = "search"
    query: str = Field(min_length=1, max_length=300)


class VisitTarget(BaseModel):
    url: str = Field(max_length=2000)
    goal: str = Field(max_length=300, description="what to look for on this page")


class Visit(BaseModel):
    kind: Literal["visit"] = "visit"
    targets: list[VisitTarget] = Field(min_length=1, max_length=6)


class SupportedClaim(BaseModel):
    claim: str = Field(max_length=400, description="a statement in the note")
    url: str = Field(max_length=2000, description="a visited source that supports it")
    quote: str = Field(
        default="",
        max_length=500,
        description="the sentence of that source, copied from the research log, that says it",
    )


class Write(BaseModel):
    kind: Literal["write"] = "write"
    # The schema asks for prose near the 280-character note (a grammar-constrained server stops
    # the string there: real drafts ran to 1,203 characters against the old 1,200 bound);
    # validation still takes up to 1,200, and code trims whole trailing sentences to fit.
    text: str = Field(
        min_length=1,
        max_length=1200,
        json_schema_extra={"maxLength": 420},
        description="the note's prose, without URLs",
    )
    support: list[SupportedClaim] = Field(min_length=1, max_length=6)

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
