"""`ChatModel` over any OpenAI-compatible endpoint (vLLM, llama.cpp server, Ollama, OpenAI).

Structured output goes through `response_format` json_schema (vLLM's structured outputs); the
answer is always validated with pydantic, and one repair attempt quotes the validation error.
The client's own timeout is per read, so each call also runs under a total `asyncio.timeout`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import openai
from pydantic import BaseModel, ValidationError

from pipeline.errors import ModelOutputInvalid, ModelTimeout, ModelUnavailable
from pipeline.ports import ChatMessage, ModelReply
from pipeline.prompts import REPAIR_INSTRUCTION
from pipeline.redact import redacted_answer

T = TypeVar("T", bound=BaseModel)
LONGEST_ANSWER = 4096  # tokens: the most a lengthened retry asks for

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def _cut_off(response: dict[str, Any]) -> bool:
    """The server stopped the answer at `max_tokens` (OpenAI, vLLM and llama.cpp all say so)."""
    choices = response.get("choices") or [{}]
    return bool(choices) and choices[0].get("finish_reason") == "length"


def _json_text(content: str) -> str:
    """Some servers wrap JSON in a Markdown fence even when asked for a schema."""
    match = _FENCE.match(content)
    return match.group(1) if match else content.strip()


@functools.cache
def response_format_for(output: type[BaseModel]) -> dict[str, Any]:
    """The json_schema response format for a model class (built once per class)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": output.__name__, "schema": serving_schema(output)},
    }


def serving_schema(output: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the subset every grammar engine compiles (xgrammar, vLLM's
    default; llguidance, vLLM's `guidance` and SGLang; llama.cpp's converter): `oneOf` becomes
    `anyOf` (llguidance refuses `oneOf`; the branches stay exclusive because each has its own
    `const` tag), OpenAPI's `discriminator` is dropped, and the tag is required."""
    schema: dict[str, Any] = _portable(output.model_json_schema())
    return schema


def _portable(node: Any) -> Any:
    if isinstance(node, list):
        return [_portable(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {("anyOf" if k == "oneOf" else k): _portable(v) for k, v in node.items()}
    out.pop("discriminator", None)
    properties = out.get("properties")
    if isinstance(properties, dict):
        tags = [n for n, p in properties.items() if isinstance(p, dict) and "const" in p]
        required = list(out.get("required", []))
        out_required = required + [t for t in tags if t not in required]
        if out_required:
            out["required"] = out_required
    return out


def _connection_failed(error: BaseException) -> bool:
    """Whether the error comes from a connection that failed (refused, unreachable) rather than
    a slow answer: the SDK's aiohttp transport reports a refused connection as a connect
    *timeout*, so look at what it wraps."""
    cause = error.__cause__
    while cause is not None:
        if isinstance(cause, OSError) and not isinstance(cause, TimeoutError):
            return True
        cause = cause.__cause__
    return False


def _short_error(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "(root)"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class OpenAIChatModel:
    """One model on one OpenAI-compatible server."""

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        *,
        model: str | None,
        temperature: float = 0.2,
        max_tokens: int = 1500,
        extra_body: dict[str, Any] | None = None,
        max_tokens_for: Mapping[str, int] | None = None,
    ) -> None:
        self.client = client
        self._model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_tokens_for = dict(max_tokens_for or {})  # by the answer's schema name
        self.extra_body = extra_body or {}
        self._model_lock = asyncio.Lock()

    @property
    def base_url(self) -> str:
        return str(self.client.base_url)

    async def model_name(self, timeout_s: float = 10.0) -> str:
        """The configured model, or the first one the server lists (vLLM serves one)."""
        async with self._model_lock:
            if self._model is None:
                try:
                    async with asyncio.timeout(timeout_s):
                        page = await self.client.models.list()
                except (openai.APIError, TimeoutError) as e:
                    raise self._unavailable(e) from e
                if not page.data:
                    raise ModelUnavailable(f"the model server at {self.base_url} serves no model")
                self._model = page.data[0].id
            return self._model

    async def structured(
        self,
        messages: Sequence[ChatMessage],
        output: type[T],
        *,
        timeout_s: float,
    ) -> ModelReply[T]:
        started = time.monotonic()
        deadline = started + timeout_s
        model = await self.model_name(timeout_s)
        conversation: list[dict[str, str]] = [m.model_dump() for m in messages]
        request = {
            **self.extra_body,
            "model": model,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens_for.get(output.__name__, self.max_tokens),
            "response_format": response_format_for(output),
        }
        prompt_tokens = completion_tokens = 0
        lengthened = False
        attempt = 0
        while attempt < 2:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ModelTimeout(f"the model did not answer within {timeout_s:.0f} s")
            try:
                async with asyncio.timeout(remaining):
                    # The client's documented custom-request path: its auth, retries and error
                    # types, without the typed transform of the request and the parse of the
                    # response into models, which cost ~2 ms of CPU per call.
                    raw = await self.client.post(
                        "/chat/completions",
                        cast_to=bytes,
                        body={**request, "messages": conversation},
                    )
            except TimeoutError as e:
                raise ModelTimeout(f"the model did not answer within {timeout_s:.0f} s") from e
            except openai.APITimeoutError as e:
                if not _connection_failed(e):
                    raise ModelTimeout(f"the model server at {self.base_url} timed out") from e
                raise self._unavailable(e) from e
            except openai.APIError as e:
                raise self._unavailable(e) from e
            response = self._decode(raw)
            usage = response.get("usage") or {}
            prompt_tokens += int(usage.get("prompt_tokens") or 0)
            completion_tokens += int(usage.get("completion_tokens") or 0)
            content = self._content(response)
            try:
                value = output.model_validate_json(_json_text(content))
            except ValidationError as e:
                if _cut_off(response) and not lengthened:
                    # Stopped at the token cap mid-answer: the same request once more with
                    # twice the room, before any repair (a repair of a cut answer is cut too).
                    lengthened = True
                    request["max_tokens"] = min(2 * int(request["max_tokens"]), LONGEST_ANSWER)
                    continue
                if attempt == 1:
                    raise ModelOutputInvalid(
                        f"the model's answer does not fit {output.__name__} even after a "
                        f"repair attempt: {_short_error(e)}"
                    ) from e
                conversation.append({"role": "assistant", "content": content[:4000]})
                conversation.append(
                    {"role": "user", "content": REPAIR_INSTRUCTION.format(error=_short_error(e))}
                )
                attempt += 1
                continue
            return ModelReply(
                value=redacted_answer(value),
                model=str(response.get("model") or model),
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                latency_s=time.monotonic() - started,
                repaired=attempt > 0,
            )
        raise AssertionError("unreachable")

    def _decode(self, raw: bytes) -> dict[str, Any]:
        try:
            response = json.loads(raw)
        except ValueError as e:
            raise ModelUnavailable(
                f"the model server at {self.base_url} answered with something other than JSON"
            ) from e
        if not isinstance(response, dict):
            raise ModelUnavailable(f"the model server at {self.base_url} answered oddly")
        return response

    @staticmethod
    def _content(response: dict[str, Any]) -> str:
        choices = response.get("choices") or [{}]
        message = choices[0].get("message") or {}
        # Reasoning models served without thinking disabled may answer in reasoning_content.
        return str(message.get("content") or message.get("reasoning_content") or "")

    def _unavailable(self, error: Exception) -> ModelUnavailable:
        if isinstance(error, openai.APIConnectionError):  # timeouts too: a subclass
            return ModelUnavailable(f"cannot reach the model server at {self.base_url}")
        if isinstance(error, openai.AuthenticationError):
            return ModelUnavailable(f"the model server at {self.base_url} rejected the API key")
        if isinstance(error, openai.NotFoundError):
            base = self.base_url.rstrip("/")
            if not urlsplit(base).path.endswith("/v1"):
                # vLLM, llama.cpp, Ollama and hosted APIs all serve the OpenAI API under /v1.
                return ModelUnavailable(
                    f"the model server at {self.base_url} answered 404 (not found): "
                    f"OpenAI-compatible servers answer under /v1 — set "
                    f"EVONOTE_LLM__BASE_URL={base}/v1"
                )
            if self._model is None:
                return ModelUnavailable(
                    f"the model server at {self.base_url} lists no models (HTTP 404): set "
                    "EVONOTE_LLM__WRITER_MODEL to the model it serves"
                )
            return ModelUnavailable(
                f"the model server at {self.base_url} does not serve model "
                f"'{self._model}' (or has no chat completions endpoint): set "
                "EVONOTE_LLM__WRITER_MODEL to the model it serves"
            )
        if isinstance(error, openai.APIStatusError):
            detail = str(error.message)[:300]
            return ModelUnavailable(
                f"the model server at {self.base_url} answered HTTP {error.status_code}: {detail}"
            )
        return ModelUnavailable(f"the model server at {self.base_url} failed: {error}")
