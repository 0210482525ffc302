"""Fixtures for the website's tests: a store in a temporary directory, a fake clock, the app."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

from sitetools import open_site, seven_player_game, site_client
from webtools import GM_CREDENTIAL, PLAYERS


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def _site(tmp_path, clock):
    gm, app, store = open_site(tmp_path, clock, GM_CREDENTIAL)
    yield gm, app
    store.dispose()


@pytest.fixture
def site_gm(_site):
    return _site[0]


@pytest.fixture
def app(_site):
    return _site[1]


@pytest.fixture
def client(app):
    with site_client(app) as c:
        yield c


@pytest.fixture
def game(site_gm) -> dict[str, str]:
    """A running seven-player game 'club' (powers assigned); returns power -> credential."""
    return seven_player_game(site_gm, PLAYERS)
