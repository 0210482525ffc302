"""The DAIDE door served on a loopback port in a thread for a test, and waiting for a condition."""

from __future__ import annotations

import contextlib
import time
from typing import Callable, Iterator

import pytest

from gamesmaster.daide.server import Limits, start
from gamesmaster.gm import Gamesmaster


@contextlib.contextmanager
def door(gm: Gamesmaster, *games: str, limits: Limits | None = None, poll: float = 0.2) -> Iterator[dict[str, int]]:
    """The DAIDE door serving these games on free loopback ports; yields {game: port}."""
    running = start(gm, [(g, 0) for g in games], "127.0.0.1", limits=limits, poll=poll)
    try:
        yield running.ports
    finally:
        running.stop()


def until(condition: Callable[[], object], timeout: float = 30.0, what: str = "the condition") -> object:
    """Wait until condition() is true (checking often); fail naming what was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)
