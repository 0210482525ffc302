"""Fixtures of the security tests: a site on a SQLite store in a temporary directory, a fake clock."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.store.testing import FakeClock

from sitetools import open_site, seven_player_game, site_client

GM_CREDENTIAL = "gm.security-test-credential-42"
PLAYERS = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
           "RUSSIA": "Fay", "TURKEY": "Gus"}


@pytest.fixture
def sec_clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def _sec_site(tmp_path, sec_clock):
    gm, app, store = open_site(tmp_path, sec_clock, GM_CREDENTIAL)
    yield gm, app
    store.dispose()


@pytest.fixture
def sec_gm(_sec_site):
    return _sec_site[0]


@pytest.fixture
def sec_app(_sec_site):
    return _sec_site[1]


@pytest.fixture
def sec_client(sec_app):
    with site_client(sec_app) as c:
        yield c


@pytest.fixture
def sec_game(sec_gm) -> dict[str, str]:
    """A running seven-player game 'club' with full press; returns power -> credential."""
    return seven_player_game(sec_gm, PLAYERS)
