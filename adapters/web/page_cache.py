"""Pages already read, on disk by URL with a time-to-live, so a re-run re-reads nothing."""

from __future__ import annotations

import asyncio
import hashlib
import os
import tempfile
import time
from pathlib import Path

from pydantic import ValidationError

from pipeline.evidence import Page


class PageCache:
    def __init__(self, folder: Path, ttl_s: float) -> None:
        self.folder = folder
        self.ttl_s = ttl_s

    def _path(self, url: str) -> Path:
        digest = hashlib.sha256(url.encode()).hexdigest()
        return self.folder / digest[:2] / f"{digest}.json"

    def _get(self, url: str) -> Page | None:
        path = self._path(url)
        try:
            if time.time() - path.stat().st_mtime > self.ttl_s:
                return None
            return Page.model_validate_json(path.read_bytes())
        except (OSError, ValidationError):
            return None

    def _put(self, url: str, page: Page) -> None:
        path = self._path(url)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(page.model_dump_json().encode())
        os.replace(tmp, path)

    async def get(self, url: str) -> Page | None:
        return await asyncio.to_thread(self._get, url)

    async def put(self, url: str, page: Page) -> None:
        await asyncio.to_thread(self._put, url, page)
