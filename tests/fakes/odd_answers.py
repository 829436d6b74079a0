"""A model that answers every schema validly and oddly: each answer is valid against the JSON
schema the server's grammar would enforce (`adapters.openai_chat.serving_schema`), with every
field at an edge — empty, maximal, another script, words cut from the conversation where a code
is expected ("the post mak"), numbers at their bounds, URLs the conversation never named. What a
weak model or a grammar-constrained one can send; the code under test must take it, or refuse it
with a message, never with a traceback."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from adapters.openai_chat import serving_schema
from pipeline.errors import ModelOutputInvalid
from pipeline.ports import ChatMessage, ModelReply

T = TypeVar("T", bound=BaseModel)

_SCRIPTS = ("Ελληνικά λέξεις", "中文的句子", "кириллица", "🙂🙃", "שלום", "\u200b\u2060", "x")
_URL = re.compile(r"https?://[^\s\"'<>)]+")


class OddAnswers:
    """A `ChatModel` whose answers are schema-valid and odd; seeded, so a failure replays."""

    def __init__(self, seed: int, attempts: int = 20) -> None:
        self.random = random.Random(seed)
        self.attempts = attempts
        self.calls: list[str] = []

    async def structured(
        self, messages: Sequence[ChatMessage], output: type[T], *, timeout_s: float
    ) -> ModelReply[T]:
        self.calls.append(output.__name__)
        schema = serving_schema(output)
        conversation = " ".join(m.content for m in messages)
        # Constraints the grammar cannot hold (distinct items, validators) refuse some answers;
        # like a model asked again, it answers anew, so episodes get past every schema.
        error: ValidationError | None = None
        for _ in range(self.attempts):
            value = _Generator(self.random, schema, conversation).value(schema)
            try:
                parsed = output.model_validate_json(json.dumps(value))
                break
            except ValidationError as e:
                error = e
        else:  # what the real adapter does with an answer that stays invalid
            raise ModelOutputInvalid(str(error)[:200])
        return ModelReply(
            value=parsed, model="odd", prompt_tokens=1, completion_tokens=1, latency_s=0.0
        )


class _Generator:
    def __init__(self, rnd: random.Random, root: dict[str, Any], conversation: str) -> None:
        self.rnd = rnd
        self.root = root
        self.words = conversation.split() or ["word"]
        self.urls = _URL.findall(conversation) or ["https://example.org/never-read"]
        self.conversation = conversation

    def value(self, node: dict[str, Any]) -> Any:
        if "$ref" in node:
            name = node["$ref"].split("/")[-1]
            return self.value(self.root["$defs"][name])
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return self.rnd.choice(node["enum"])
        if "anyOf" in node:
            return self.value(self.rnd.choice(node["anyOf"]))
        kind = node.get("type", "string")
        if isinstance(kind, list):
            kind = self.rnd.choice(kind)
        if kind == "object":
            return self.object(node)
        if kind == "array":
            least, most = node.get("minItems", 0), node.get("maxItems", 6)
            count = self.rnd.choice([least, most, self.rnd.randint(least, most)])
            return [self.value(node.get("items", {})) for _ in range(count)]
        if kind == "integer":
            return self.integer(node)
        if kind == "number":
            return float(self.integer(node)) + self.rnd.choice([0.0, 0.5])
        if kind == "boolean":
            return self.rnd.random() < 0.5
        if kind == "null":
            return None
        return self.string(node)

    def object(self, node: dict[str, Any]) -> dict[str, Any]:
        required = set(node.get("required", []))
        return {
            name: self.value(prop)
            for name, prop in node.get("properties", {}).items()
            if name in required or self.rnd.random() < 0.6
        }

    def integer(self, node: dict[str, Any]) -> int:
        low = node.get("minimum", -3)
        high = node.get("maximum", 10**6)
        return int(self.rnd.choice([low, high, 0, 1, 99, self.rnd.randint(low, high)]))

    def string(self, node: dict[str, Any]) -> str:
        least, most = node.get("minLength", 0), node.get("maxLength", 400)
        start = self.rnd.randrange(max(1, len(self.conversation) - most))
        candidates = [
            "",
            self.conversation[start : start + self.rnd.randint(1, max(1, most))],
            " ".join(self.rnd.sample(self.words, min(len(self.words), 4))),
            self.rnd.choice(_SCRIPTS),
            self.rnd.choice(self.urls),
            "A" * most,
            str(self.rnd.randint(0, 10**9)),
            "English",
        ]
        pattern = node.get("pattern")
        if pattern:  # a grammar holds the shape: odd values of it
            candidates = ["en", "zz", "qqq", "en-US", "x-y", "de-DE-1996", "ENG"]
            candidates = [c for c in candidates if re.fullmatch(pattern, c)]
        fitting = [c[:most] for c in candidates if len(c[:most]) >= least] or ["x" * least]
        return self.rnd.choice(fitting)
