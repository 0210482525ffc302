"""Fixtures of the security tests: a site on a SQLite store in a temporary directory, a fake clock."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

GM_CREDENTIAL = "gm.security-test-credential-42"
PLAYERS = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
           "RUSSIA": "Fay", "TURKEY": "Gus"}


@pytest.fixture
def sec_clock() -> FakeClock:
    return FakeClock(datetime(2030, 5, 6, 12, 0, tzinfo=timezone.utc))


@pytest.fixture
def sec_gm(tmp_path, sec_clock):
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    yield Gamesmaster(store, clock=sec_clock)
    store.dispose()


@pytest.fixture
def sec_app(sec_gm):
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets
    return create_app(sec_gm, SiteSecrets.for_testing(GM_CREDENTIAL))


@pytest.fixture
def sec_client(sec_app):
    from fastapi.testclient import TestClient
    with TestClient(sec_app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def sec_game(sec_gm) -> dict[str, str]:
    """A running seven-player game 'club' with full press; returns power -> credential."""
    created = sec_gm.create_game("club", title="Club game", players=list(PLAYERS.values()),
                                 assign={name: power for power, name in PLAYERS.items()}, settings={"press": "full"})
    return {created.powers[name]: secret for name, secret in created.credentials.items()}
