"""Nothing lost in a long outage (issue 58): requests that arrive while PostgreSQL is down are
kept in a spool on local disk, acknowledged as queued, and stored in order once it is back —
across a SIGTERM and a restart; every request gets its card; one log line per retry, no
traceback. (A 75 s outage, or a SIGTERM during one, stored 0 of 3 + 3 requests.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.request_spool import FileSpool
from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from pipeline.desk.episode import Episode
from pipeline.desk.spool import SpooledRequest
from pipeline.request import NoteRequest
from tests.conftest import NetworkGuard
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.postgres import own_postgres
from tests.fakes.processes import evonote, free_port, slack_serving_env, wait_for_line
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import command

POST = "The measles vaccine causes autism, skip the MMR shot"


def carded(rows: list[Episode], updates: list[dict[str, Any]]) -> list[int]:
    """The episodes whose card (the message they were asked in) shows the episode."""
    return [
        row.id or 0
        for row in rows
        if any(
            u["ts"] == row.reply_message and f"episode {row.id}" in json.dumps(u["blocks"])
            for u in updates
        )
    ]


async def test_the_spool_keeps_entries_in_order_across_a_new_process(tmp_path: Path) -> None:
    first = FileSpool(tmp_path / "spool")
    seqs = []
    for n in range(5):
        seq = first.next_seq()
        seqs.append(seq)
        await first.put(SpooledRequest(seq=seq, request=NoteRequest(post_ref=f"post {n}")))
    await first.put(SpooledRequest(seq=seqs[2], request=NoteRequest(post_ref="post 2"), card="9.1"))
    await first.drop(seqs[0])
    (tmp_path / "spool" / "junk.json").write_text("{not json")  # kept aside, not replayed
    again = FileSpool(tmp_path / "spool")  # a restarted process
    entries = await again.entries()
    assert [e.request.post_ref for e in entries] == ["post 1", "post 2", "post 3", "post 4"]
    assert entries[1].card == "9.1"
    assert again.next_seq() > seqs[-1]
    assert (tmp_path / "spool" / "junk.unreadable").exists()


async def _send(port: int, texts: list[str], first: int) -> None:
    async with aiohttp.ClientSession() as http:
        for n, text in enumerate(texts, start=first):
            request = command(text, trigger=f"T-{n}")
            headers = {k: v[0] for k, v in request.headers.items()}
            events = f"http://127.0.0.1:{port}/slack/events"
            async with http.post(events, data=request.body, headers=headers) as answer:
                assert answer.status == 200  # acknowledged at once, whatever the database


async def test_requests_in_an_outage_survive_a_sigterm_and_each_gets_its_card(
    model_server: ScriptedModelServer,
    corpus_file: Path,
    tmp_path: Path,
    slack_api: MockSlackApi,
    monkeypatch: pytest.MonkeyPatch,
    network_guard: NetworkGuard,
) -> None:
    async with own_postgres(network_guard, monkeypatch, "spool") as server:
        url = os.environ["EVONOTE_DB__URL"]
        await upgrade(url)
        port = free_port()
        network_guard.allow(port)
        env = slack_serving_env(url, tmp_path, model_server, corpus_file, port, slack_api)
        logs = [tmp_path / "serve-1.log", tmp_path / "serve-2.log"]
        during = [f"{POST} during {n}" for n in range(3)]
        after = [f"{POST} after {n}" for n in range(3)]
        serve = evonote(env, "serve", log=logs[0])
        engine = make_engine(url)
        try:
            await asyncio.to_thread(wait_for_line, logs[0], b"serving", 120)
            server.pause()
            await _send(port, during, 0)
            await asyncio.sleep(6)  # retries meanwhile: one line each
            spooled = sorted((tmp_path / "spool").glob("*.json"))
            assert len(spooled) == 3
            serve.send_signal(signal.SIGTERM)  # during the outage
            code = await asyncio.to_thread(serve.wait, 60)
            assert code == 0, logs[0].read_text(errors="replace")[-3000:]
            server.resume()
            serve = evonote(env, "serve", log=logs[1])
            await asyncio.to_thread(wait_for_line, logs[1], b"serving", 120)
            await _send(port, after, 3)
            store = EpisodeStore(engine)
            deadline = time.monotonic() + 180
            finished: list[str] = []
            while time.monotonic() < deadline:
                with contextlib.suppress(Exception):  # the database may still be starting
                    rows = await store.recent(20)
                    finished = [r.post.text for r in rows if r.status in ("noted", "abstained")]
                # stored, run, and each card edited (the edit follows the stored result)
                if len(finished) == 6 and len(carded(rows, slack_api.called("chat.update"))) == 6:
                    break
                await asyncio.sleep(0.5)
            assert serve.poll() is None, logs[1].read_text(errors="replace")[-2000:]
            rows = sorted(await store.recent(20), key=lambda r: r.id or 0)
        finally:
            serve.terminate()
            await asyncio.to_thread(serve.wait, 60)
            await engine.dispose()
        assert sorted(finished) == sorted(during + after)  # none lost, each run
        assert [r.post.text for r in rows][:3] == during  # stored in the order asked
        assert list((tmp_path / "spool").glob("*.json")) == []
        posted = slack_api.called("chat.postMessage")
        assert len(posted) == 6  # one card each; the spooled ones said they were queued
        queued = [p for p in posted if "queued on disk" in json.dumps(p.get("blocks"))]
        # those of the outage; a request that comes while the spool still holds some joins them
        assert all("during" in json.dumps(p.get("blocks")) for p in posted[:3])
        assert len(queued) >= 3
        # every card shows its episode: the spooled ones, the card they had
        assert carded(rows, slack_api.called("chat.update")) == [r.id for r in rows]
        log_text = "".join(log.read_text(errors="replace") for log in logs)
        assert "Traceback" not in log_text and " ERROR " not in log_text, log_text[-3000:]
        retries = [line for line in log_text.splitlines() if "kept in the spool" in line]
        assert 2 <= len(retries) <= 6  # 1, 2, 4 s: one line per retry
