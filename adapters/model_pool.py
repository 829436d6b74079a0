"""Several OpenAI-compatible endpoints serving the same model: each call goes to the least busy.

vLLM replicas behind one bot: the pool counts calls in flight per endpoint, sends each new call
to the endpoint with the fewest, and moves on to the next endpoint when one cannot be reached.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from adapters.openai_chat import OpenAIChatModel
from pipeline.errors import ModelUnavailable
from pipeline.ports import ChatMessage, ModelReply

T = TypeVar("T", bound=BaseModel)


class ModelPool:
    def __init__(self, endpoints: Sequence[OpenAIChatModel]) -> None:
        if not endpoints:
            raise ValueError("a model pool needs at least one endpoint")
        self.endpoints = list(endpoints)
        self.in_flight = [0] * len(self.endpoints)
        self._turn = itertools.count()

    def _order(self) -> list[int]:
        start = next(self._turn) % len(self.endpoints)  # ties go round the pool
        rotated = [(start + i) % len(self.endpoints) for i in range(len(self.endpoints))]
        return sorted(rotated, key=lambda i: self.in_flight[i])

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        failures: list[str] = []
        for index in self._order():
            self.in_flight[index] += 1
            try:
                return await self.endpoints[index].structured(messages, output, timeout_s=timeout_s)
            except ModelUnavailable as e:
                failures.append(str(e))
            finally:
                self.in_flight[index] -= 1
        raise ModelUnavailable("; ".join(failures))

    async def close(self) -> None:
        for endpoint in self.endpoints:
            await endpoint.client.close()
