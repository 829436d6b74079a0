"""A latency-simulating OpenAI-compatible server: schema-valid answers after a set delay.

The real `openai` client talks to it over real HTTP, so request building, JSON schemas,
timeouts and error mapping are exercised without a model; `delay_s` (per call) and
`per_token_s` (per output token) make it stand in for a real server's latency in benchmarks;
a `profile` (bot/simulator/profile.py) charges prefill, contended decoding and realistic
output lengths instead. Tests also script failures with it (`queue`, `down`).
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bot.simulator.model import Policy, answer
from bot.simulator.profile import ServerProfile
from bot.simulator.vectors import HashingEmbedder
from pipeline.episode import shared_prefix


@dataclass
class Raw:
    """Answer with exactly this (a status and body), to script server failures."""

    status: int = 200
    body: Any = None
    content: str | None = None  # message content sent verbatim (malformed output)


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the persona panel opens 16 connections at once


@dataclass
class SimulatedModelServer:
    policy: Policy
    model: str = "scripted-model"
    delay_s: float = 0.0
    per_token_s: float = 0.0  # added per output token (4 characters), like decoding
    bind_port: int = 0  # 0: any free port
    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)  # each request's header, in order
    queue: list[Raw] = field(default_factory=list)
    embedder: HashingEmbedder = field(default_factory=lambda: HashingEmbedder(64))
    down: bool = False  # answer every chat call with HTTP 503
    # Sequences served at full speed at once; beyond it every call slows in proportion, as a
    # saturated GPU server's batch does (0: no contention).
    batch_capacity: int = 0
    in_flight: int = 0
    caption: str = 'A bar chart titled "Autism diagnoses" rising from 2000 to 2020.'
    # When set, it alone decides the time (delay_s, per_token_s, batch_capacity are ignored).
    profile: ServerProfile | None = None
    time_scale: float = 1.0  # multiplies the profile's times (tests run it faster)
    seed: int = 0
    decoding: int = 0

    def __post_init__(self) -> None:
        server = self
        self.lock = threading.Lock()
        self.prefill_lock = threading.Lock()  # one prompt is prefilled at a time
        self.rng = random.Random(self.seed)
        self.recent_prompts: dict[str, list[str]] = {}

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(data)

            def do_GET(self) -> None:
                # As vLLM: the OpenAI API under /v1 only, so a base URL without it fails here
                # as it would there.
                if self.path == "/v1/models":
                    self._send(
                        200,
                        {
                            "object": "list",
                            "data": [{"id": server.model, "object": "model", "owned_by": "tests"}],
                        },
                    )
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                request = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(request)
                server.authorizations.append(self.headers.get("Authorization", ""))
                with server.lock:
                    server.in_flight += 1
                    load = server.in_flight
                try:
                    if server.delay_s and server.profile is None:
                        time.sleep(server.delay_s * server.slowdown(load))
                    self._answer(request)
                finally:
                    with server.lock:
                        server.in_flight -= 1

            def _answer(self, request: dict[str, Any]) -> None:
                if self.path == "/v1/embeddings":
                    texts = request["input"]
                    vectors = server.embedder.vector
                    self._send(
                        200,
                        {
                            "object": "list",
                            "model": request["model"],
                            "data": [
                                {
                                    "object": "embedding",
                                    "index": i,
                                    "embedding": [float(x) * 3 for x in vectors(t)],
                                }
                                for i, t in reversed(list(enumerate(texts)))
                            ],
                        },
                    )
                    return
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}})
                    return
                if server.down:
                    self._send(503, {"error": {"message": "model server overloaded"}})
                    return
                scripted = server.queue.pop(0) if server.queue else None
                if scripted is not None and scripted.content is None:
                    self._send(scripted.status, scripted.body)
                    return
                if scripted is not None:
                    content = scripted.content or ""
                elif "response_format" not in request:  # a plain answer: the captioner
                    content = server.caption
                else:
                    schema = request["response_format"]["json_schema"]["name"]
                    content = json.dumps(answer(server.policy, schema, request["messages"]))
                prompt = json.dumps(request["messages"])
                prompt_tokens = len(prompt) // 4
                completion_tokens = len(content) // 4
                if server.profile is not None:
                    schema = (request.get("response_format") or {}).get("json_schema", {})
                    uncached = prompt_tokens - server.cached_tokens(prompt)
                    completion_tokens = server.generate(uncached, schema.get("name", ""))
                elif server.per_token_s:
                    time.sleep(server.per_token_s * completion_tokens)
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": server.model,
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content},
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": completion_tokens,
                            "total_tokens": 0,
                        },
                    },
                )

        self.httpd = _Server(("127.0.0.1", self.bind_port), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def slowdown(self, load: int) -> float:
        return max(1.0, load / self.batch_capacity) if self.batch_capacity else 1.0

    def cached_tokens(self, prompt: str) -> int:
        """Tokens at the start of `prompt` that a recent prompt already began with (prefix
        caching); prompts are grouped by their first 1,000 characters to compare few."""
        if self.profile is None or not self.profile.prefix_caching:
            return 0
        key = prompt[:1000]
        with self.lock:
            recent = self.recent_prompts.setdefault(key, [])
            best = max((shared_prefix(prompt, other) for other in recent), default=0)
            recent.append(prompt)
            del recent[:-8]
            if len(self.recent_prompts) > 512:  # forget the oldest groups
                self.recent_prompts.pop(next(iter(self.recent_prompts)))
        return best // 4

    def generate(self, prompt_tokens: int, schema: str) -> int:
        """Spend the profile's time on one call (blocking this request's thread): prefill
        first-come, then decode in chunks at the rate the current batch allows. Returns the
        simulated number of output tokens."""
        assert self.profile is not None
        profile, scale = self.profile, self.time_scale
        with self.lock:
            tokens = profile.completion_tokens(schema, self.rng)
        with self.prefill_lock:
            time.sleep(profile.prefill_s(prompt_tokens) * scale)
        with self.lock:
            self.decoding += 1
        try:
            left = tokens
            while left > 0:
                chunk = min(16, left)
                with self.lock:
                    batch = self.decoding
                time.sleep(chunk / profile.decode_rate(batch) * scale)
                left -= chunk
        finally:
            with self.lock:
                self.decoding -= 1
        return tokens

    def start(self) -> SimulatedModelServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
