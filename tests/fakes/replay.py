"""A real model's recorded answers, replayed: what it did stays a test without the model.

A recording is `bench.real_model`'s list of {schema, answer} (or {schema, error}) in the order
the episode asked. Each schema's answers are replayed in their order; past the last one the
last is given again (a weak model repeats itself, seen turn after turn), and a schema never
recorded is an invalid answer.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from pipeline.errors import ModelOutputInvalid, ModelTimeout
from pipeline.ports import ChatMessage, ModelReply

T = TypeVar("T", bound=BaseModel)
RECORDINGS = Path(__file__).parent.parent / "fixtures" / "real_model"


class ReplayedModel:
    def __init__(self, answers: list[dict[str, Any]]) -> None:
        self.queues: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for answer in answers:
            self.queues[answer["schema"]].append(answer)
        self.asked: list[str] = []

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        name = output.__name__
        self.asked.append(name)
        queue = self.queues.get(name)
        if not queue:
            raise ModelOutputInvalid(f"the recording has no {name} answer")
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if answer.get("error") == "ModelTimeout":
            raise ModelTimeout("the recorded call timed out")
        if "error" in answer:
            raise ModelOutputInvalid(f"the recorded call failed: {answer['error']}")
        return ModelReply(
            value=output.model_validate(answer["answer"]),
            model="recorded",
            prompt_tokens=0,
            completion_tokens=0,
            latency_s=0.0,
        )


def recording(name: str) -> dict[str, Any]:
    """A recorded episode: {post, answers, notes}."""
    loaded: dict[str, Any] = json.loads((RECORDINGS / f"{name}.json").read_text())
    return loaded
