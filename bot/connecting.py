"""Connecting to an outside service at start-up (Slack, Discord): in the background, retried
with backoff and one line per attempt, so that one unreachable service neither stops the
process nor floods its log, and the rest of the process serves meanwhile."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from bot.background import BackgroundTasks
from bot.settings import ConfigurationError
from pipeline.redact import redact

FIRST_RETRY_S = 5.0
LONGEST_RETRY_S = 300.0
ATTEMPT_TIMEOUT_S = 30.0


def connection_tasks(stack: AsyncExitStack, name: str) -> BackgroundTasks:
    """Background connection attempts, cancelled when the process stops."""
    tasks = BackgroundTasks(name)

    async def cancel() -> None:
        for task in list(tasks.tasks):
            task.cancel()
        await tasks.drain()

    stack.push_async_callback(cancel)
    return tasks


class ServiceRefused(Exception):
    """The service answered and said no (a refused token): retrying cannot help."""


def reason(error: BaseException) -> str:
    """The innermost cause of a failed connection, on one line ('Name or service not known')."""
    while error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, TimeoutError):
        return f"no answer in {ATTEMPT_TIMEOUT_S:.0f} s"
    text = getattr(error, "strerror", None) or str(error)
    return text.splitlines()[0] if text else type(error).__name__


@dataclass
class ServiceState:
    """Where each service stands, for `serve`'s status line and its logs."""

    states: dict[str, str] = field(default_factory=dict)

    def set(self, name: str, state: str) -> None:
        self.states[name] = state

    def connect_in(
        self, tasks: BackgroundTasks, name: str, connect: Callable[[], Awaitable[None]]
    ) -> None:
        """Start connecting in the background; until then the service is 'connecting'."""
        self.set(name, "connecting")
        tasks.spawn(connect_with_retries(name, connect, self))

    def describe(self, name: str) -> str:
        return self.states.get(name, "not configured")


async def connect_with_retries(
    name: str,
    connect: Callable[[], Awaitable[None]],
    state: ServiceState,
    *,
    first_retry_s: float = FIRST_RETRY_S,
    longest_retry_s: float = LONGEST_RETRY_S,
) -> None:
    """Call `connect` until it succeeds or the service refuses (the outcome is in `state`). A
    network failure is one line on stderr and a wait that doubles up to `longest_retry_s`."""
    delay = first_retry_s
    attempt = 1
    while True:
        try:
            async with asyncio.timeout(ATTEMPT_TIMEOUT_S):
                await connect()
        except ServiceRefused as e:
            state.set(name, f"not started: {e}")
            say(f"{name} not started: {e}")
            return
        except (OSError, aiohttp.ClientError, TimeoutError) as e:
            state.set(name, f"unreachable ({reason(e)}), retrying")
            say(f"{name} unreachable ({reason(e)}); attempt {attempt}, next in {delay:.0f} s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, longest_retry_s)
            attempt += 1
        else:
            state.set(name, "connected")
            say(f"{name} connected")
            return


def say(line: str) -> None:
    # A connection error may quote the URL it tried, credentials included.
    print(f"evonote: {redact(line)}", file=sys.stderr, flush=True)


async def listen(runner: web.AppRunner, address: str, port: int, variable: str) -> None:
    """Serve `runner` on address:port, or one line naming the variable when it cannot."""
    try:
        await web.TCPSite(runner, address, port).start()
    except OSError as e:
        raise ConfigurationError(
            f"{variable}: cannot listen on {address}:{port} ({e.strerror or e}): another "
            "process holds the port, or the address is not this machine's; choose another"
        ) from e
