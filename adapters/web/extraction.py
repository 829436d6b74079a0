"""Page extraction in child processes that a hostile page cannot take down with it.

trafilatura, readability and pypdf are quadratic on some inputs (250,000 inline tags in one
paragraph: 21 GB and the OOM killer with markdown output; 60 s of CPU with text output), and a
thread running them cannot be stopped. Each extraction therefore runs in a child process with
an address-space limit; a child that overruns its deadline is killed (and replaced on the next
read), one that runs out of memory fails alone. Either way the page is "could not be read".

Children are long-lived (the imports are paid once) and take one document at a time; they
exit when their stdin closes, so none outlives the process that started them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import struct
import sys
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import PageUnreadable
from pipeline.evidence import Page

_FRAME = struct.Struct(">I")


@dataclass
class ExtractionLimits:
    timeout_s: float = 10.0
    memory_bytes: int = 1 << 30
    children: int = 2


@dataclass
class _Child:
    process: asyncio.subprocess.Process

    async def ask(self, request: bytes) -> bytes:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(_FRAME.pack(len(request)) + request)
        await self.process.stdin.drain()
        size = _FRAME.unpack(await self.process.stdout.readexactly(_FRAME.size))[0]
        return await self.process.stdout.readexactly(size)

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        await self.process.wait()


@dataclass
class IsolatedExtractor:
    """`extract(data, url, content_type, charset)` in a bounded child process."""

    limits: ExtractionLimits = field(default_factory=ExtractionLimits)
    _idle: list[_Child] = field(default_factory=list)
    _slots: asyncio.Semaphore | None = None
    _closed: bool = False

    async def extract(self, data: bytes, url: str, content_type: str, charset: str | None) -> Page:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.children)
        header = json.dumps({"url": url, "type": content_type, "charset": charset}).encode()
        request = _FRAME.pack(len(header)) + header + data
        async with self._slots:
            child = self._idle.pop() if self._idle else await self._start()
            try:
                async with asyncio.timeout(self.limits.timeout_s):
                    answer = json.loads(await child.ask(request))
            except TimeoutError as e:
                await child.kill()
                raise PageUnreadable(
                    f"the page could not be read within {self.limits.timeout_s:.0f} s of "
                    "processing (too complex)"
                ) from e
            except (asyncio.IncompleteReadError, ConnectionError, ValueError) as e:
                await child.kill()  # it died: out of memory, most likely
                raise PageUnreadable(
                    "the page could not be read: processing it needed more memory than allowed"
                ) from e
            except BaseException:
                await child.kill()  # cancelled mid-answer: its pipe is out of step
                raise
            if self._closed:
                await child.kill()
            else:
                self._idle.append(child)
        if "error" in answer:
            raise PageUnreadable(answer["error"])
        return Page.model_validate(answer["page"])

    async def _start(self) -> _Child:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "adapters.web.extraction",
            str(self.limits.memory_bytes),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        return _Child(process)

    async def aclose(self) -> None:
        self._closed = True
        children, self._idle = self._idle, []
        for child in children:
            await child.kill()


def _serve(memory_bytes: int) -> None:
    """The child's loop: frames in on stdin, one JSON answer per frame out on stdout."""
    import resource

    with contextlib.suppress(ValueError, OSError):  # a platform that refuses: no limit
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    from adapters.web.extract import extract

    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while head := source.read(_FRAME.size):
        request = source.read(_FRAME.unpack(head)[0])
        size = _FRAME.unpack(request[: _FRAME.size])[0]
        meta = json.loads(request[_FRAME.size : _FRAME.size + size])
        data = request[_FRAME.size + size :]
        answer: dict[str, Any]
        try:
            page = extract(data, meta["url"], meta["type"], meta["charset"])
            answer = {"page": page.model_dump(mode="json")}
        except PageUnreadable as e:
            answer = {"error": str(e)}
        except MemoryError:
            answer = {"error": "the page could not be read: it needed more memory than allowed"}
        except RecursionError:
            answer = {"error": "the page could not be read: its markup is nested too deeply"}
        except Exception as e:  # any parser's own failure on odd input: this page only
            answer = {"error": f"the page could not be parsed ({type(e).__name__})"}
        out = json.dumps(answer).encode()
        sink.write(_FRAME.pack(len(out)) + out)
        sink.flush()


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
