"""The pipeline's tests run under the blocking-call detector (`tests/fakes/blocking.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from blockbuster import BlockBuster

from tests.fakes.blocking import detecting_blocking_calls


@pytest.fixture(autouse=True)
def blockbuster(request: pytest.FixtureRequest) -> Iterator[BlockBuster | None]:
    yield from detecting_blocking_calls(request)
