"""Databases for the store and gm tests: SQLite in a temporary directory, and a schema of its own on
the PostgreSQL test server (skipped, with the reason, only if the server is unreachable)."""

from __future__ import annotations

import pytest

from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock, PostgresDatabase, server_problem


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


@pytest.fixture
def sqlite_store(sqlite_url):
    s = Store(sqlite_url)
    yield s
    s.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()

