"""A long PostgreSQL outage under `evonote serve`, by hand: signed Slack requests arrive while
the database is stopped, `serve` is SIGTERMed during the outage, the database comes back,
`serve` is restarted and more requests come. Prints what was stored, in what order, which
cards show their note, and what the log said; asserts nothing.

    python -m bench.outage [--outage-s 90] [--per-batch 3]

Starts a throwaway PostgreSQL (the machine's binaries), the scripted model server and the mock
Slack Web API. Measured 2026-12-03: 90 s outage, 9 of 9 stored in the order asked, 9 cards
showing their note, 0 tracebacks, 0 ERROR lines, 7 retry lines (docs/architecture.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import tempfile
import time
from pathlib import Path

import aiohttp

from adapters.sqlstore.engine import make_engine, upgrade
from adapters.sqlstore.episodes import EpisodeStore
from pipeline.desk.episode import Episode
from tests.conftest import CORPUS_DOCS
from tests.fakes.model_server import ScriptedModelServer
from tests.fakes.policy import ResearchPolicy
from tests.fakes.postgres import fresh_database, start_postgres
from tests.fakes.processes import evonote, free_port, slack_serving_env, wait_for_line
from tests.fakes.slack_api import MockSlackApi
from tests.fakes.slack_requests import command

POST = "The measles vaccine causes autism, skip the MMR shot"


async def send(port: int, texts: list[str], first: int) -> None:
    """Signed /note commands over HTTP, as Slack sends them."""
    async with aiohttp.ClientSession() as http:
        for n, text in enumerate(texts, start=first):
            request = command(text, trigger=f"T-{n}")
            headers = {k: v[0] for k, v in request.headers.items()}
            async with http.post(
                f"http://127.0.0.1:{port}/slack/events", data=request.body, headers=headers
            ) as answer:
                if answer.status != 200:
                    print(f"request {n} answered HTTP {answer.status}")


async def finished(url: str, expected: int, seconds: float) -> list[Episode]:
    engine = make_engine(url)
    store = EpisodeStore(engine)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            rows = await store.recent(100)
            if sum(r.status in ("noted", "abstained", "failed") for r in rows) >= expected:
                break
            await asyncio.sleep(1)
        return sorted(await store.recent(100), key=lambda r: r.id or 0)
    finally:
        await engine.dispose()


def shows_its_result(row: Episode, updates: list[dict[str, object]]) -> bool:
    return any(
        u.get("ts") == row.reply_message and f"episode {row.id}" in json.dumps(u.get("blocks"))
        for u in updates
    )


async def run(outage_s: float, per_batch: int) -> None:
    pg = start_postgres()
    if pg is None:
        raise SystemExit("PostgreSQL is not installed on this machine")
    folder = Path(tempfile.mkdtemp(prefix="evonote-outage-"))
    corpus = folder / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in CORPUS_DOCS) + "\n", encoding="utf-8")
    model = ScriptedModelServer(ResearchPolicy()).start()
    slack = MockSlackApi()
    await slack.start()
    url = await fresh_database(pg.port, "outage")
    await upgrade(url)
    port = free_port()
    env = slack_serving_env(url, folder, model, corpus, port, slack)
    logs = [folder / "serve-1.log", folder / "serve-2.log"]
    serve = evonote(env, "serve", log=logs[0])
    asked: list[str] = []
    try:
        await asyncio.to_thread(wait_for_line, logs[0], b"serving", 180)
        began = time.monotonic()
        pg.pause()
        for label, first in (("as it stops", 0), (f"at {outage_s * 0.8:.0f} s", per_batch)):
            batch = [f"{POST} ({label}, {n})" for n in range(per_batch)]
            asked += batch
            await send(port, batch, first)
            if first == 0:
                await asyncio.sleep(outage_s * 0.8)
        await asyncio.sleep(max(0.0, outage_s - (time.monotonic() - began) - 5))
        serve.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(serve.wait, 90)
        spooled = len(list((folder / "spool").glob("*.json")))
        print(
            f"serve SIGTERMed {time.monotonic() - began:.0f} s into the outage: exit {code}, "
            f"{spooled} requests in the spool"
        )
        pg.resume()
        print(f"PostgreSQL back after {time.monotonic() - began:.0f} s; serve restarted")
        serve = evonote(env, "serve", log=logs[1])
        await asyncio.to_thread(wait_for_line, logs[1], b"serving", 180)
        batch = [f"{POST} (after the restart, {n})" for n in range(per_batch)]
        asked += batch
        await send(port, batch, 2 * per_batch)
        rows = await finished(url, len(asked), 240)
    finally:
        serve.terminate()
        await asyncio.to_thread(serve.wait, 60)
        await slack.stop()
        model.stop()
        pg.stop()
    updates = slack.called("chat.update")
    text = "".join(log.read_text(errors="replace") for log in logs)
    lines = text.splitlines()
    print(
        f"asked {len(asked)}, stored {len(rows)}, "
        f"in the order asked: {[r.post.text for r in rows] == asked}"
    )
    print(f"statuses: {sorted(str(r.status) for r in rows)}")
    print(
        f"cards posted {len(slack.called('chat.postMessage'))}, showing their result "
        f"{sum(shows_its_result(r, updates) for r in rows)} of {len(rows)}"
    )
    print(
        f"log: {text.count('Traceback')} tracebacks, {sum(' ERROR ' in x for x in lines)} ERROR "
        f"lines, {sum('kept in the spool' in x for x in lines)} retry lines"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage-s", type=float, default=90.0)
    parser.add_argument("--per-batch", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.outage_s, args.per_batch))


if __name__ == "__main__":
    main()
