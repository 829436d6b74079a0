"""`evonote doctor`: every configured dependency checked, one line each, with a fix for what
fails. Exit code 0 when everything configured works, 1 otherwise."""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx
from pydantic import BaseModel, Field
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import (
    make_chat_model,
    make_embedder,
    make_notes_api,
    make_notes_destinations,
    make_web_search,
    open_corpus,
    prepare_data_dir,
)
from bot.database import schema_of
from bot.schedule_plan import planned_jobs
from bot.settings import ConfigurationError, Settings
from pipeline.errors import EvoNoteError
from pipeline.ports import ChatMessage, MemoryMode
from pipeline.redact import redact

VLLM_HINT = "start deploy/vllm/serve.sh or set EVONOTE_LLM__BASE_URL"


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    mark: str | None = None  # "·": information (a job not scheduled), neither pass nor fail

    def line(self) -> str:
        return f"{self.mark or ('✓' if self.ok else '✗')} {self.name}: {self.detail}"


class DoctorProbe(BaseModel):
    ok: bool


class SpeedProbe(BaseModel):
    text: str = Field(max_length=800, description="three sentences")


SPEED_PROMPT = (
    'Answer as JSON {"text": "..."}: three sentences on why two doses of measles vaccine '
    "are recommended."
)
# Measured on a real server (llama.cpp, Qwen2.5-1.5B): an agent turn's prompt is ~2,400
# tokens (the first of an episode uncached), and an answer may use the 800-token cap.
PROMPT_TOKENS = 2_500
LONGEST_ANSWER_TOKENS = 800
_FILLER = "Measles spreads through the air when an infected person coughs or sneezes. "


def prefill_prompt(nonce: str) -> str:
    """~1,000 tokens the server has not cached (the nonce comes first), answered in a few."""
    return f'{nonce}\n{_FILLER * 70}\nAnswer {{"ok": true}} as JSON.'


@dataclass(frozen=True)
class ServerSpeed:
    prefill_tokens_per_s: float  # prompt tokens read per second
    decode_tokens_per_s: float  # answer tokens written per second

    def call_s(self) -> float:
        """A long agent turn: its whole prompt read, a cap-long answer written."""
        return PROMPT_TOKENS / max(self.prefill_tokens_per_s, 0.1) + LONGEST_ANSWER_TOKENS / max(
            self.decode_tokens_per_s, 0.1
        )


def speed_advice(speed: ServerSpeed, settings: Settings) -> str:
    """What the measured speeds mean for the configured timeouts and budgets."""
    rates = f"{speed.prefill_tokens_per_s:.0f} tokens/s in, {speed.decode_tokens_per_s:.1f} out"
    needed = speed.call_s()
    if needed * 1.5 <= settings.llm.call_timeout_s:
        return f"{rates}: fits the call timeout"
    call = int(needed * 1.5) + 1
    advice = (
        f"{rates}: a {PROMPT_TOKENS:,}-token prompt and a {LONGEST_ANSWER_TOKENS}-token answer "
        f"take ~{needed:.0f} s, over the {settings.llm.call_timeout_s:.0f} s call timeout — for "
        f"this server set EVONOTE_LLM__CALL_TIMEOUT_S={call} EVONOTE_BUDGET__DEADLINE_S="
        f"{call * 4} EVONOTE_BUDGET__WRITING_RESERVE_S={call} EVONOTE_FORECAST__ENABLED=false"
    )
    if needed > 60:  # page notes each read ~2,000 tokens more: fewer pages, none noted
        advice += " EVONOTE_BUDGET__PRESET=slow-server"
    return advice


def admission_advice(speed: ServerSpeed, settings: Settings) -> str:
    """How many episodes a process will run at once against this server, and why."""
    ops = settings.ops
    line = (
        f"admission: up to {ops.workers} episodes at once per process "
        f"(EVONOTE_OPS__WORKERS), halved while answers take over {ops.slow_call_s:.0f} s"
    )
    typical = PROMPT_TOKENS / max(speed.prefill_tokens_per_s, 0.1) + 200 / max(
        speed.decode_tokens_per_s, 0.1
    )
    if typical > ops.slow_call_s:
        line += (
            f"; a typical turn here takes ~{typical:.0f} s, so the limit will stay at 1 "
            "(right for a server this slow)"
        )
    return line


async def check_model(settings: Settings) -> Check:
    model, client = make_chat_model(settings)
    try:
        name = await model.model_name(timeout_s=10)
        reply = await model.structured(
            [ChatMessage(role="user", content='Answer {"ok": true} as JSON.')],
            DoctorProbe,
            timeout_s=min(60.0, settings.llm.call_timeout_s),
        )
        note = "" if not reply.repaired else " (needed a repair: check structured outputs)"
        timed = await model.structured(
            [ChatMessage(role="user", content=SPEED_PROMPT)],
            SpeedProbe,
            timeout_s=max(120.0, settings.llm.call_timeout_s),
        )
        decode = timed.completion_tokens / max(timed.latency_s, 1e-3)
        read = await model.structured(
            [ChatMessage(role="user", content=prefill_prompt(uuid.uuid4().hex))],
            DoctorProbe,
            timeout_s=max(120.0, settings.llm.call_timeout_s),
        )
        writing_s = read.completion_tokens / max(decode, 0.1)
        prefill = read.prompt_tokens / max(read.latency_s - writing_s, 1e-3)
        return Check(
            "model server",
            True,
            f"{settings.llm.base_url} serves {name}; structured output works{note}; "
            + speed_advice(ServerSpeed(prefill, decode), settings)
            + "; "
            + admission_advice(ServerSpeed(prefill, decode), settings),
        )
    except EvoNoteError as e:
        return Check("model server", False, f"{e} — {VLLM_HINT}")
    finally:
        await client.close()


async def check_search(settings: Settings) -> Check:
    backend = settings.search.backend
    try:
        if backend == "local":
            if settings.search.corpus is not None and not (await check_data_dir(settings)).ok:
                # the corpus's index is cached there: the folder is what to fix
                return Check(
                    "search (local)", False, "its index lives in EVONOTE_DATA_DIR: fix that first"
                )
            corpus = await open_corpus(settings)
            return Check("search (local)", True, f"{len(corpus.documents):,} documents")
        async with httpx.AsyncClient(timeout=settings.search.timeout_s) as http:
            results = await make_web_search(settings, http).search("measles vaccine", limit=3)
        return Check(f"search ({backend})", True, f"a test query returned {len(results)}")
    except EvoNoteError as e:
        return Check(f"search ({backend})", False, str(e))


async def check_embedder(settings: Settings) -> Check:
    if settings.memory.mode == MemoryMode.OFF:
        return Check("embedder", True, "not needed (memory off)")
    try:
        vectors = await make_embedder(settings).embed(["a test sentence"])
        return Check("embedder", True, f"{settings.memory.embedder}: {vectors.shape[1]} dimensions")
    except EvoNoteError as e:
        return Check("embedder", False, str(e))


async def check_data_dir(settings: Settings) -> Check:
    try:
        await asyncio.to_thread(prepare_data_dir, settings)
    except ConfigurationError as e:
        return Check("data folder", False, str(e))
    return Check("data folder", True, str(settings.data_dir.expanduser()))


def check_schedule(settings: Settings) -> list[Check]:
    """The periodic jobs `serve` runs with these settings, and why the others do not."""
    return [
        Check(
            f"job {job.name}",
            True,
            job.why if job.scheduled else f"not scheduled: {job.why}",
            None if job.scheduled else "·",
        )
        for job in planned_jobs(settings)
    ]


async def check_database(settings: Settings) -> Check:
    if settings.db.url is None and not (await check_data_dir(settings)).ok:
        # the SQLite database lives there: the folder is what to fix, not EVONOTE_DB__URL
        return Check("database", False, "SQLite lives in EVONOTE_DATA_DIR: fix that folder first")
    blame = "EVONOTE_DB__URL" if settings.db.url else "EVONOTE_DATA_DIR (its evonote.db)"
    try:
        where, current, head = await schema_of(settings)  # migrated, as every command is
        if current != head:
            return Check(
                "database",
                False,
                f"schema at {current or 'nothing'}, newest is {head}: run evonote db upgrade",
            )
        return Check("database", True, f"{where} at schema {head}")
    except Exception as e:  # any driver error is the finding
        return Check("database", False, f"{type(e).__name__}: {e} — check {blame}")


async def check_slack(settings: Settings) -> Check | None:
    s = settings.slack
    if s.bot_token is None:
        return None
    client = AsyncWebClient(token=s.bot_token.get_secret_value(), base_url=s.api_url)
    try:
        who = await client.auth_test()
    except SlackApiError as e:  # Slack answered: the token is what it refused
        return Check("Slack", False, f"auth.test failed ({e}) — check EVONOTE_SLACK__BOT_TOKEN")
    except Exception as e:  # no answer: the network, not the token
        return Check(
            "Slack",
            False,
            f"cannot reach {s.api_url or 'slack.com'} ({type(e).__name__}): serve retries it, "
            "check the network",
        )
    missing = [
        name
        for name, value in (
            ("APP_TOKEN", s.app_token if s.mode == "socket" else True),
            ("SIGNING_SECRET", s.signing_secret if s.mode == "http" else True),
        )
        if value is None
    ]
    if missing:
        return Check("Slack", False, f"set EVONOTE_SLACK__{missing[0]} for {s.mode} mode")
    return Check(
        "Slack", True, f"bot {who.get('user')} in team {who.get('team_id')} ({s.mode} mode)"
    )


async def check_discord(settings: Settings) -> Check | None:
    d = settings.discord
    if d.bot_token is None:
        return None
    headers = {"Authorization": f"Bot {d.bot_token.get_secret_value()}"}
    try:
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(f"{d.api_url.rstrip('/')}/users/@me", headers=headers)
    except httpx.HTTPError as e:
        return Check(
            "Discord",
            False,
            f"cannot reach {d.api_url} ({type(e).__name__}): serve retries it, check the network",
        )
    if answer.status_code == 401:
        return Check("Discord", False, "the token was refused — check EVONOTE_DISCORD__BOT_TOKEN")
    if answer.status_code != 200:
        return Check("Discord", False, f"{d.api_url} answered HTTP {answer.status_code}")
    who = (
        answer.json()
        if answer.headers.get("content-type", "").startswith("application/json")
        else {}
    )
    return Check("Discord", True, f"bot {who.get('username', '?')} (id {who.get('id', '?')})")


async def check_x(settings: Settings) -> Check | None:
    """Reading X; its Community Notes API is tried with the notes destinations."""
    if settings.x.bearer_token is None:
        return None
    return Check("X posts", True, "bearer token set (posts by URL, watchlists)")


async def check_destinations(settings: Settings) -> list[Check]:
    """Each notes destination configured (X, Open Community Notes): its credentials, tried."""
    async with httpx.AsyncClient(timeout=settings.x.timeout_s) as http:
        destinations = make_notes_destinations(settings, http, make_notes_api(settings, http))
        checks = []
        for destination in destinations:
            mode = "test mode" if destination.test_mode else "live"
            try:
                checks.append(
                    Check(destination.name, True, f"{await destination.whoami()}; {mode}")
                )
            except EvoNoteError as e:
                checks.append(Check(destination.name, False, str(e)))
        return checks


async def run_checks(settings: Settings) -> list[Check]:
    probes: list[Callable[[Settings], Awaitable[Check | None]]] = [
        check_data_dir,
        check_database,
        check_model,
        check_search,
        check_embedder,
        check_slack,
        check_discord,
        check_x,
    ]
    results, destinations = await asyncio.gather(
        asyncio.gather(*(probe(settings) for probe in probes)), check_destinations(settings)
    )
    return [r for r in results if r is not None] + destinations + check_schedule(settings)


async def doctor(settings: Settings) -> int:
    try:
        checks = await run_checks(settings)
    except ConfigurationError as e:
        checks = [Check("configuration", False, str(e))]
    for check in checks:
        print(redact(check.line()), file=sys.stdout)
    return 0 if all(c.ok for c in checks) else 1
