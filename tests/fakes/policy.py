"""A deterministic stand-in for the model's judgement: reads the prompt, answers the schema.

The same policy drives the in-process fake model and the scripted HTTP server, so unit tests
and end-to-end tests exercise one behaviour.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

Policy = Callable[[str, list[dict[str, Any]]], Any]

_STATE = re.compile(r"<untrusted_state>\n(.*)\n</untrusted_state>", re.DOTALL)

DEFAULT_BRIEF: dict[str, Any] = {
    "claim_pattern": "vaccine_risk",
    "checkworthy_claims": ["The measles vaccine causes autism."],
    "gaps": [
        {
            "type": "unsubstantiated_claim",
            "description": "No evidence is given that the vaccine causes autism.",
            "priority": 5,
            "suggested_query": "measles vaccine autism",
        }
    ],
    "evidence_needs": ["health agency guidance on vaccine safety"],
    "note_intent": "correction",
    "language": "en",
    "applicable_memories": [],
}

DEFAULT_PROSE = (
    "Large studies have found no link between the MMR vaccine and autism; health agencies "
    "recommend two doses to prevent measles."
)


def state_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    match = _STATE.search(messages[-1]["content"])
    if match is None:
        raise AssertionError("the prompt carries no <untrusted_state> block")
    state: dict[str, Any] = json.loads(match.group(1))
    return state


class ResearchPolicy:
    """Search the top gap, read the best results, write citing what was read."""

    def __init__(
        self,
        *,
        brief: dict[str, Any] | None = None,
        prose: str = DEFAULT_PROSE,
        pages_per_visit: int = 2,
        cite: int = 2,
    ) -> None:
        self.brief = brief or DEFAULT_BRIEF
        self.prose = prose
        self.pages_per_visit = pages_per_visit
        self.cite = cite
        self.calls: list[str] = []

    def __call__(self, schema: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls.append(schema)
        if schema == "VerificationBrief":
            return self.brief
        state = state_of(messages)
        if schema == "FinalTurn":
            return self.write_or_abstain(state)
        if not state["searches_done"]:
            query = self.brief["gaps"][0]["suggested_query"]
            return {"thought": "search the top gap", "action": {"kind": "search", "query": query}}
        unread = [r for r in state["search_results"] if r["status"] == "not visited"]
        if not state["evidence"] and unread:
            targets = [
                {"url": r["url"], "goal": "what the page says about the claim"}
                for r in unread[: self.pages_per_visit]
            ]
            return {
                "thought": "read the best results",
                "action": {"kind": "visit", "targets": targets},
            }
        return self.write_or_abstain(state)

    def write_or_abstain(self, state: dict[str, Any]) -> dict[str, Any]:
        read = [e["url"] for e in state["evidence"]]
        if not read:
            return {
                "thought": "nothing readable",
                "action": {"kind": "abstain", "reason": "no source could be read"},
            }
        support = [{"claim": self.prose[:200], "url": u} for u in read[: self.cite]]
        return {
            "thought": "write",
            "action": {"kind": "write", "text": self.prose, "support": support},
        }
