"""A lesson that restates its post in other words is the post speaking through the memory.

The 8-word rule catches copying; synonyms, reordering and near-paraphrase pass it. The memory's
own embedder measures meaning: a lesson sentence too close to a sentence of the post it was
learned from is refused. The strategy and the rationale say how to check a kind of claim, never
what a post claims. The trigger describes the claim by design ("posts claiming cures are
hidden"), which no embedder can tell from "posts claiming that the industry hides every cure";
it is only ever shown as the situation a lesson is for, so only a near-restatement is refused.
Calibrated on the local MiniLM (a dozen real posts): honest strategies reach 0.60, honest
triggers 0.65; strategies that restate the post 0.62-0.93.
"""

from __future__ import annotations

import numpy as np

from memory.ports import Embedder, Vectors
from memory.prompts import DistilledLesson
from pipeline.drafting.words import clauses

# The trigger names the claim it is for; that much closeness is its purpose.
TRIGGER_ALLOWANCE = 0.12
_SHORTEST = 3  # words: "Vaccines work." says too little to be anyone's claim


def sentences(text: str) -> list[str]:
    return [s.strip() for s in clauses(text) if len(s.split()) >= _SHORTEST]


class PostEcho:
    def __init__(self, embedder: Embedder, similarity: float = 0.62) -> None:
        self.embedder = embedder
        self.similarity = similarity
        # The last post's sentence vectors: an episode's lessons are checked one after another
        # against the same post, which is embedded once.
        self._post: tuple[str, Vectors | None] | None = None

    async def _post_vectors(self, post_text: str) -> Vectors | None:
        if self._post is None or self._post[0] != post_text:
            found = sentences(post_text)
            self._post = (post_text, await self.embedder.embed(found) if found else None)
        return self._post[1]

    async def restated(self, lesson: DistilledLesson, post_text: str) -> str | None:
        """Why `lesson` restates the post (None: it does not)."""
        parts = [
            ("trigger", s, self.similarity + TRIGGER_ALLOWANCE) for s in sentences(lesson.trigger)
        ]
        for field in ("strategy", "rationale"):
            parts += [(field, s, self.similarity) for s in sentences(getattr(lesson, field))]
        post = await self._post_vectors(post_text)
        if post is None or not parts:
            return None
        mine = await self.embedder.embed([s for _, s, _ in parts])
        closest = (mine @ post.T).max(axis=1)
        for (field, _, limit), score in zip(parts, np.asarray(closest), strict=True):
            if float(score) >= limit:
                return (
                    f"its {field} restates the post in other words (similarity {score:.2f}): "
                    "a lesson says how to check a kind of claim, not what a post claims"
                )
        return None
