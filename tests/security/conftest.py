"""The security tests: a site on a SQLite store in a temporary directory, a fake clock at noon."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

GM_CREDENTIAL = "gm.security-test-credential-42"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def gm_credential() -> str:
    return GM_CREDENTIAL
