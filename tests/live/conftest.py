"""Fixtures for the live table's tests: a store in a temporary directory, a fake clock, the site."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

from livetools import LIVE_GM_CREDENTIAL


@pytest.fixture
def live_clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 19, 0, tzinfo=timezone.utc))


@pytest.fixture
def live_gm(tmp_path, live_clock):
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    yield Gamesmaster(store, clock=live_clock)
    store.dispose()


@pytest.fixture
def live_client(live_gm):
    from fastapi.testclient import TestClient

    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets
    app = create_app(live_gm, SiteSecrets.for_testing(LIVE_GM_CREDENTIAL))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
