"""`Captioner` over a vision model on an OpenAI-compatible endpoint (vLLM serves many).

Only media on X's own media hosts are handed to the model server, which fetches them itself:
a post must not be able to make the server fetch an arbitrary address.
"""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlsplit

import openai

from pipeline.errors import ModelTimeout, ModelUnavailable
from pipeline.prompt_sections import Section, sectioned
from pipeline.prompts import CAPTION_SYSTEM

MEDIA_HOSTS = frozenset({"pbs.twimg.com", "video.twimg.com", "ton.twimg.com"})


class OpenAICaptioner:
    def __init__(self, client: openai.AsyncOpenAI, model: str, max_tokens: int = 300) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens

    def can_read(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme == "https" and (parts.hostname or "") in MEDIA_HOSTS

    async def caption(self, image_url: str, post_text: str, *, timeout_s: float) -> str:
        messages = [
            {"role": "system", "content": CAPTION_SYSTEM},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": sectioned(Section("Post", post_text[:1000], "post"))},
                    {"type": "image_url", "image_url": {"url": image_url}},
                ],
            },
        ]
        try:
            async with asyncio.timeout(timeout_s):
                raw = await self.client.post(
                    "/chat/completions",
                    cast_to=bytes,
                    body={
                        "model": self.model,
                        "messages": messages,
                        "max_tokens": self.max_tokens,
                        "temperature": 0.0,
                    },
                )
        except TimeoutError as e:
            raise ModelTimeout(f"the vision model did not answer within {timeout_s:.0f} s") from e
        except openai.APIError as e:
            raise ModelUnavailable(f"the vision model at {self.client.base_url} failed: {e}") from e
        response = json.loads(raw)
        choices = response.get("choices") or [{}]
        return str((choices[0].get("message") or {}).get("content") or "").strip()
