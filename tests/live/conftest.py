"""The live table's tests: a fake clock at seven in the evening, the live GM's credential."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

from livetools import LIVE_GM_CREDENTIAL


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 19, 0, tzinfo=timezone.utc))


@pytest.fixture
def gm_credential() -> str:
    return LIVE_GM_CREDENTIAL
