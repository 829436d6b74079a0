"""What a draft got wrong, in the rules' own terms: `Finding` (a rule's id, the writer's
feedback, the sentence) and `RuleCard` (how a card speaks of a rule). Values only: the rules
and their ids are `pipeline.drafting.rules`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One thing a draft got wrong: the rule (its `RuleId`), the feedback the writer reads,
    and the sentence (1-based) it is about, or None for the whole draft."""

    rule: str
    feedback: str
    sentence: int | None = None


@dataclass(frozen=True)
class RuleCard:
    """How a card speaks of a rule: `kind` completes "the last draft …"; `said` is whether it
    is about what the draft said (shown) or its form (code's to repair, or the model's, in the
    trajectory)."""

    kind: str
    said: bool
