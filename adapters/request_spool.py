"""The request spool on local disk: one JSON file per request in a folder of the data
directory, written whole (a temporary file, fsync, rename, the folder fsynced) so that a
SIGTERM, a crash or a power cut leaves each entry there entirely or not at all."""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from pathlib import Path

from pydantic import ValidationError

from pipeline.desk.spool import SpooledRequest


class FileSpool:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._count = itertools.count()

    def next_seq(self) -> str:
        """Sorts as requests arrive, across restarts (nanoseconds, then a counter)."""
        return f"{time.time_ns():020d}-{next(self._count) % 1_000_000:06d}"

    async def put(self, entry: SpooledRequest) -> None:
        await asyncio.to_thread(self._write, entry)

    async def entries(self) -> list[SpooledRequest]:
        return await asyncio.to_thread(self._read_all)

    async def drop(self, seq: str) -> None:
        await asyncio.to_thread(self._remove, seq)

    def _path(self, seq: str) -> Path:
        return self.folder / f"{seq}.json"

    def _write(self, entry: SpooledRequest) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        final = self._path(entry.seq)
        partial = final.with_suffix(".part")
        with open(partial, "w", encoding="utf-8") as out:
            out.write(entry.model_dump_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, final)
        self._sync_folder()

    def _read_all(self) -> list[SpooledRequest]:
        if not self.folder.is_dir():
            return []
        entries = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                entries.append(SpooledRequest.model_validate_json(path.read_bytes()))
            except (ValidationError, ValueError):
                # not ours, or not whole (written by hand): kept aside, never replayed twice
                path.rename(path.with_suffix(".unreadable"))
            except FileNotFoundError:
                continue  # dropped meanwhile
        return entries

    def _remove(self, seq: str) -> None:
        self._path(seq).unlink(missing_ok=True)
        self._sync_folder()

    def _sync_folder(self) -> None:
        descriptor = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
