"""Evidence acquisition numbers. Prints; asserts nothing.

    python -m bench.evidence [--corpus ../shared/data/medquad/medquad_docs.jsonl]

1. Local corpus: index build time, load time of the saved index, query latency p50/p99.
2. Extraction throughput: HTML pages per second through trafilatura (pages made from the
   corpus texts, with navigation and footer around the article).
3. A 4-URL visit step through the guarded reader against a local server that delays every
   response by 1 s: wall time of the step (concurrent reads: ≈ 1 s, not 4 s).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from adapters.local_corpus import LocalCorpus, read_jsonl
from adapters.web.cookies import no_cookies
from adapters.web.extract import extract
from adapters.web.reader import GuardedPageReader
from bot.simulator.model import ResearchPolicy
from pipeline.budget import EvidenceBudget
from pipeline.episode import EpisodeRunner
from pipeline.evidence import SearchResult
from pipeline.ports import NoMemory
from pipeline.post import Post
from tests.fakes.documents import article_html
from tests.fakes.ports import FakeChatModel

PUBLIC_STAND_IN = "93.184.216.34"  # what the stub resolver answers; the transport maps it home


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def corpus_numbers(path: Path) -> list[dict[str, Any]]:
    documents = read_jsonl(path)
    started = time.perf_counter()
    corpus = LocalCorpus.build(documents)
    build_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        corpus.save(Path(folder))
        started = time.perf_counter()
        LocalCorpus.load(Path(folder))
        load_s = time.perf_counter() - started
    queries = [d.title for d in random.Random(7).sample(corpus.documents, 500) if d.title]
    latencies = []
    for query in queries:
        started = time.perf_counter()
        corpus._search(query, 8, None)
        latencies.append(1000 * (time.perf_counter() - started))
    print(f"1. local corpus ({len(corpus.documents):,} documents from {path.name})")
    print(f"   index build {build_s:.2f} s · load of the saved index {1000 * load_s:.0f} ms")
    print(
        f"   query latency over {len(latencies)} queries: p50 {pct(latencies, 0.5):.2f} ms, "
        f"p99 {pct(latencies, 0.99):.2f} ms"
    )
    return [d.model_dump() for d in corpus.documents[:300]]


def extraction_numbers(documents: list[dict[str, Any]]) -> None:
    pages = [article_html(d["title"] or "Page", d["text"]).encode() for d in documents]
    started = time.perf_counter()
    for i, page in enumerate(pages):
        extract(page, f"https://example.org/{i}", "text/html", "utf-8")
    elapsed = time.perf_counter() - started
    size = sum(len(p) for p in pages) / len(pages) / 1024
    print(
        f"2. extraction: {len(pages) / elapsed:.0f} HTML pages/s "
        f"({len(pages)} pages, mean {size:.1f} KiB, one thread)"
    )


class _Delayed(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay_s = 1.0

    def log_message(self, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        time.sleep(self.delay_s)
        body = article_html(f"Page {self.path}").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _ToLoopback(httpx.AsyncBaseTransport):
    """The benchmark's network: the checked public address is served on loopback."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert request.url.host == PUBLIC_STAND_IN, "the reader connected to an unchecked host"
        request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self.port)
        return await self.inner.handle_async_request(request)


class _Resolver:
    async def resolve(self, host: str, port: int) -> list[str]:
        return [PUBLIC_STAND_IN]


class _FourResults:
    async def search(self, query: str, *, limit: int, published_before: Any = None) -> Any:
        return [
            SearchResult(title=f"Source {i}", url=f"https://site{i}.example/page") for i in range(4)
        ]


async def visit_numbers(delay_s: float) -> None:
    _Delayed.delay_s = delay_s
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Delayed)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    async with httpx.AsyncClient(
        transport=_ToLoopback(server.server_address[1]), cookies=no_cookies()
    ) as client:
        reader = GuardedPageReader(client, _Resolver(), timeout_s=10)
        runner = EpisodeRunner(
            model=FakeChatModel(ResearchPolicy(pages_per_visit=4)),
            search=_FourResults(),
            reader=reader,
            memory=NoMemory(),
            budget=EvidenceBudget(),
        )
        outcome = await runner.run(Post(text="The MMR vaccine causes autism."))
        await reader.aclose()
    server.shutdown()
    print(
        f"3. one visit step of 4 URLs, {delay_s:.1f} s per response: "
        f"{outcome.timings.visit_s:.2f} s wall ({4 * delay_s:.1f} s if read one by one); "
        f"episode {outcome.status}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus", type=Path, default=Path("../shared/data/medquad/medquad_docs.jsonl")
    )
    parser.add_argument("--delay", type=float, default=1.0)
    args = parser.parse_args()
    if args.corpus.is_file():
        documents = corpus_numbers(args.corpus)
        extraction_numbers(documents)
    else:
        print(f"1-2. skipped: {args.corpus} not found")
    asyncio.run(visit_numbers(args.delay))


if __name__ == "__main__":
    main()
