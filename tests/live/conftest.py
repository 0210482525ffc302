"""Fixtures for the live table's tests: a store in a temporary directory, a fake clock, the site."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

from sitetools import open_site, site_client

from livetools import LIVE_GM_CREDENTIAL


@pytest.fixture
def live_clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 19, 0, tzinfo=timezone.utc))


@pytest.fixture
def _live_site(tmp_path, live_clock):
    gm, app, store = open_site(tmp_path, live_clock, LIVE_GM_CREDENTIAL)
    yield gm, app
    store.dispose()


@pytest.fixture
def live_gm(_live_site):
    return _live_site[0]


@pytest.fixture
def live_client(_live_site):
    with site_client(_live_site[1]) as c:
        yield c
