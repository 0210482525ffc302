"""The website's tests: a fake clock at noon, the GM credential and players of webtools."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

from webtools import GM_CREDENTIAL, PLAYERS


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def gm_credential() -> str:
    return GM_CREDENTIAL


@pytest.fixture
def players() -> dict[str, str]:
    return dict(PLAYERS)
