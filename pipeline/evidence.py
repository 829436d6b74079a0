"""What searching and reading produce."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


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


class Evidence(BaseModel):
    """A successfully read page, reduced to what bears on the visit's goal."""

    url: str
    title: str = ""
    goal: str = ""
    excerpt: str = Field(description="the passages of the page most relevant to the goal")
    published: datetime | None = None
