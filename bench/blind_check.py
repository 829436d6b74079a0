"""The support check is blind, shown from outside the bot: the requests that reach the model
server, as a logging proxy in front of it saw them, hold no word sequence of the post.

    python -m bench.blind_check [--upstream http://127.0.0.1:8091] [--drafts 6]
        [--model qwen2.5-coder-1.5b-instruct] [--record tests/fixtures/blind_check/real.json]

Opt-in (a real model server, slow). It asks the support check of a few drafts, as an
episode's writing step asks it (`support.support_request`, the configured model port), through
`../shared/realmodel/logproxy.py` and, behind that proxy, a recorder that keeps each request's
body (the shared proxy logs a request's size, not its words); a request is the proxy's when
its schema and size match. The posts are hostile (`bench/data/blind_check_cases.json`, written
for this: a claim and a line to the checker); every draft is checked, whatever code decides of
it. Each request's post words: every run of `SHINGLE` words of the post it holds that neither
the note nor a vouching page holds (the note may quote the post; a page may say what the post
says). The proof holds when there are none. `--record` keeps the drafts and
the model's answers as a fixture a fake replays (`tests/pipeline/test_blind_check_replay.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.configured_model import with_configured_model
from bench.rules import Row, context_for, parsed
from pipeline.drafting.decide import decide
from pipeline.drafting.support import check_findings, support_request
from pipeline.drafting.words import ANY_WORD, note_clauses
from pipeline.evidence import SupportVerdicts
from pipeline.ports import ChatModel

LOGPROXY = Path(__file__).parent.parent.parent / "shared" / "realmodel" / "logproxy.py"
# A run of four words: the brief's test. Three-word runs ("of the vaccine") are common
# English any page shares.
SHINGLE = 4
SCHEMA = SupportVerdicts.__name__


def shingles(text: str, n: int = SHINGLE) -> set[tuple[str, ...]]:
    words = [w.lower() for w in ANY_WORD.findall(text)]
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def post_words_in(request: str, post: str, allowed: list[str]) -> list[str]:
    """The runs of `SHINGLE` words of the post the request holds that none of `allowed` (the
    note, the vouching pages) holds."""
    leaked = shingles(post) & shingles(request)
    for text in allowed:
        leaked -= shingles(text)
    return sorted(" ".join(s) for s in leaked)


def prompt_chars(messages: list[dict[str, Any]]) -> int:
    """A request's size as `logproxy.py` logs it."""
    return sum(len(str(m.get("content", ""))) for m in messages)


@dataclass
class Recorder:
    """A pass-through HTTP server that keeps every request's JSON body, in order."""

    upstream: str
    bodies: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    _server: ThreadingHTTPServer | None = None

    def start(self) -> Recorder:
        recorder, up = self, urlsplit(self.upstream)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet: the proof prints its own
                pass

            def _forward(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else None
                if body:
                    with contextlib.suppress(ValueError):
                        recorder.bodies.append(json.loads(body))
                conn = http.client.HTTPConnection(up.hostname or "", up.port or 80, timeout=3600)
                try:
                    headers = {"Content-Type": self.headers.get("Content-Type", "")}
                    conn.request(self.command, self.path, body=body, headers=headers)
                    answer = conn.getresponse()
                    status, data = answer.status, answer.read()
                finally:
                    conn.close()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _forward

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def logging_proxy(upstream: str, log: Path, port: int = 0) -> Iterator[str]:
    """`logproxy.py` in front of `upstream` (its base URL, no /v1), logging to `log`, on `port`
    (0: a free one); yields the proxy's base URL."""
    port = port or free_port()
    process = subprocess.Popen(
        [sys.executable, str(LOGPROXY), str(port), upstream, str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def seen_through_the_proxy(log: Path, bodies: list[dict[str, Any]]) -> list[str]:
    """Every support-check request the proxy logged, as the server received it (its
    messages joined), in order: the bodies of that schema whose size (`prompt_chars`) the
    proxy logged."""
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    sizes = [r["prompt_chars"] for r in rows if r.get("schema") == SCHEMA]
    seen = []
    for body in bodies:
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        messages = body.get("messages") or []
        if schema == SCHEMA and prompt_chars(messages) in sizes:
            seen.append("\n".join(str(m.get("content", "")) for m in messages))
    return seen


# ---- the opt-in run against a real model server ---------------------------------------------


CASES = Path(__file__).parent / "data" / "blind_check_cases.json"


def hostile_drafts(most: int, cases: Path = CASES) -> list[Row]:
    """The hostile cases (`bench/data/blind_check_cases.json`), at most `most`."""
    found = json.loads(cases.read_text(encoding="utf-8"))["cases"][:most]
    return [Row(c["id"], c["post"], c["pages"], c["note"], c["cited"]) for c in found]


def draft_of(request: str, rows: list[Row]) -> Row:
    """The draft a check's request is about: the one whose first clause it numbers first."""
    return next(r for r in rows if f"[1] {note_clauses(r.note)[0]}" in request)


async def ask(model: ChatModel, rows: list[Row], timeout_s: float) -> list[dict[str, Any]]:
    asked = []
    for row in rows:
        context = context_for(row)
        decision = decide(context, parsed(row, context))
        draft = decision.draft
        messages = support_request(context, draft)
        reply = await model.structured(messages, SupportVerdicts, timeout_s=timeout_s)
        found = check_findings(context, draft, reply.value)
        asked.append(
            {
                "id": row.id,
                "post": row.post,
                "pages": row.pages,
                "note": row.note,
                "cited": row.cited,
                "code_decides": str(decision.verdict),
                "answer": reply.value.model_dump(),
                "not_borne_out": sorted({f.sentence for f in found if f.sentence}),
            }
        )
        print(json.dumps({"id": row.id, "not_borne_out": asked[-1]["not_borne_out"]}), flush=True)
    return asked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", default="http://127.0.0.1:8091", help="model server")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--drafts", type=int, default=6)
    parser.add_argument("--log", type=Path, default=Path("/tmp/evonote-blind-check.jsonl"))
    parser.add_argument("--record", type=Path, help="write the drafts and answers here")
    args = parser.parse_args(argv)
    if not LOGPROXY.is_file():
        print(f"bench.blind_check: needs {LOGPROXY}", file=sys.stderr)
        return 2
    rows = hostile_drafts(args.drafts)
    recorder = Recorder(args.upstream).start()
    args.log.unlink(missing_ok=True)
    try:
        with logging_proxy(f"http://127.0.0.1:{recorder.port}", args.log) as proxy:
            os.environ["EVONOTE_LLM__BASE_URL"] = f"{proxy}/v1"
            os.environ.setdefault("EVONOTE_LLM__WRITER_MODEL", args.model)
            os.environ.setdefault("EVONOTE_LLM__CALL_TIMEOUT_S", "600")
            asked: list[dict[str, Any]] = []

            async def work(model: ChatModel, timeout_s: float) -> None:
                asked.extend(await ask(model, rows, timeout_s))

            asyncio.run(with_configured_model(work))
    finally:
        recorder.stop()
    seen = seen_through_the_proxy(args.log, recorder.bodies)
    leaks = 0
    for request in seen:  # a draft's check may have been asked twice (a cut answer retried)
        row = draft_of(request, rows)
        allowed = [row.note, *(f"{p['title']} {p['text']}" for p in row.pages)]
        found = post_words_in(request, row.post, allowed)
        leaks += len(found)
        print(f"{row.id}: {len(request)} characters, post word runs in its check: {found}")
    print(f"support checks through the proxy: {len(seen)}; post word runs in them: {leaks}")
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        fixture = {"model": args.model, "day": date.today().isoformat(), "drafts": asked}
        args.record.write_text(json.dumps(fixture, indent=1, ensure_ascii=False), "utf-8")
    return 0 if leaks == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
