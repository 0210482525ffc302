"""Databases for the store and gm tests: SQLite in a temporary directory, and a schema of its own on
the PostgreSQL test server (skipped, with the reason, only if the server is unreachable); and the
site (app, client, GM, a running game) that the web, security and live tests share. A directory's
own conftest sets the clock, the GM's credential and the players. Every test's recorded events are held to
reading back as they were built."""

from __future__ import annotations

import pytest

from gamesmaster.gm.events import Event
from gamesmaster.gm.tx import Transaction
from gamesmaster.ledger import Entry
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock, PostgresDatabase, server_problem

from eventforms import read_back_differs
from sitetools import open_site, seven_player_game, site_client


@pytest.fixture(scope="session")
def pg_db():
    problem = server_problem()
    if problem:
        yield problem
        return
    db = PostgresDatabase()
    try:
        yield db
    finally:
        db.drop()


def make_url(kind: str, tmp_path, pg_db) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'gm.db'}"
    if isinstance(pg_db, str):
        pytest.skip(pg_db)
    return pg_db.new_schema()


@pytest.fixture
def url_for(tmp_path, pg_db):
    """url_for("sqlite" | "postgresql"): a fresh database of that kind."""
    return lambda kind: make_url(kind, tmp_path, pg_db)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path, pg_db) -> str:
    return make_url(request.param, tmp_path, pg_db)


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'gm.db'}"


@pytest.fixture
def store(store_url):
    s = Store(store_url)
    yield s
    s.dispose()


@pytest.fixture(autouse=True)
def _recorded_events_read_back_as_built(monkeypatch):
    """Every event a test has recorded is the very event its entry reads back as (eventforms): record folds the
    event it is given, so an event class that stopped normalising itself would fail whatever test writes one."""
    record = Transaction.record

    def checked(tx: Transaction, event: Event) -> Entry:
        entry = record(tx, event)
        difference = read_back_differs(event, entry)
        assert difference is None, difference
        return entry
    monkeypatch.setattr(Transaction, "record", checked)


@pytest.fixture
def sqlite_store(sqlite_url):
    s = Store(sqlite_url)
    yield s
    s.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()



# -- the site ----------------------------------------------------------------------------


@pytest.fixture
def gm_credential() -> str:
    return "gm.test-credential-0123456789"


@pytest.fixture
def players() -> dict[str, str]:
    """Power -> player name for the seven-player game."""
    return {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
            "RUSSIA": "Fay", "TURKEY": "Gus"}


@pytest.fixture
def _site(tmp_path, clock, gm_credential):
    gm, app, store = open_site(tmp_path, clock, gm_credential)
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
def game(site_gm, players) -> dict[str, str]:
    """A running seven-player game 'club' (powers assigned); returns power -> credential."""
    return seven_player_game(site_gm, players)


@pytest.fixture
def gm_cli(tmp_path, monkeypatch, capsys):
    """Run the `gamesmaster` console in-process on a fresh data directory: run(*argv, stdin=...) -> (code, out, err)."""
    monkeypatch.delenv("GAMESMASTER_DATABASE_URL", raising=False)
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            import io
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        from gamesmaster.cli import main
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err
    return run
