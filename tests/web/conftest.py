"""Fixtures for the website's tests: a store in a temporary directory, a fake clock, the app."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

from webtools import GM_CREDENTIAL, PLAYERS


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def site_gm(tmp_path, clock):
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    yield Gamesmaster(store, clock=clock)
    store.dispose()


@pytest.fixture
def app(site_gm):
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets
    return create_app(site_gm, SiteSecrets.for_testing(GM_CREDENTIAL))


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def game(site_gm) -> dict[str, str]:
    """A running seven-player game 'club' (powers assigned); returns power -> credential."""
    created = site_gm.create_game("club", title="Club game", players=list(PLAYERS.values()),
                                  assign={name: power for power, name in PLAYERS.items()},
                                  settings={"press": "full"})
    return {created.powers[name]: secret for name, secret in created.credentials.items()}
