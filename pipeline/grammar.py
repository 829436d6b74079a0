"""What a grammar-constrained server does to answers, undone by code as they are validated.

A small model under a JSON-schema grammar fills a list to its `maxItems` with one item over and
over (seen on llama.cpp: 7 × the same misleading tag, 8 × the same rating reason): repeats are
dropped before the list's bounds are checked.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BeforeValidator


def without_repeats(value: Any) -> Any:
    """A list with each item once, in first-seen order; anything else as it came (for the
    model's own validation to refuse)."""
    if not isinstance(value, list):
        return value
    seen: set[str] = set()
    kept = []
    for item in value:
        key = json.dumps(item, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


Distinct = BeforeValidator(without_repeats)
