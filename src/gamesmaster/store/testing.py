"""Helpers for tests of anything that keeps a record: throw-away databases and a fake clock.

PostgreSQL: `TEST_POSTGRES_URL` (default postgresql://postgres@127.0.0.1:5432/postgres)
names a server where the tests may create databases. Each test session creates its own
database (gm_test_<random>) and each test its own schema in it, so tests run in
parallel (pytest -n) without meeting; the database is dropped at the end.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import create_engine, text

from ..config import DEFAULT_TEST_POSTGRES, TEST_POSTGRES_URL, TestHooks
from sqlalchemy.engine import make_url

SERVER_ENV = TEST_POSTGRES_URL
DEFAULT_SERVER = DEFAULT_TEST_POSTGRES


def server_url() -> str:
    url = TestHooks.from_environ().postgres_url
    return url.replace("postgresql://", "postgresql+psycopg://", 1) if url.startswith("postgresql://") else url


def server_problem() -> str | None:
    """Why the PostgreSQL server cannot be used (None: it can)."""
    try:
        engine = create_engine(server_url(), isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return None
    except Exception as exc:  # noqa: BLE001 - any failure means: not reachable
        return f"PostgreSQL at {make_url(server_url()).render_as_string(hide_password=True)} is unreachable: {exc}"


class PostgresDatabase:
    """A database of its own on the test server, dropped by drop()."""

    def __init__(self, prefix: str = "gm_test") -> None:
        self.name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        self.admin = create_engine(server_url(), isolation_level="AUTOCOMMIT")
        with self.admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{self.name}"'))
        self.url = make_url(server_url()).set(database=self.name).render_as_string(hide_password=False)
        self._engine = create_engine(self.url, isolation_level="AUTOCOMMIT")

    def new_schema(self) -> str:
        """A fresh schema in this database; returns a URL whose connections use it."""
        schema = f"s_{uuid.uuid4().hex[:12]}"
        with self._engine.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        return f"{self.url}?options=-csearch_path%3D{schema}"

    def drop(self) -> None:
        self._engine.dispose()
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self.admin.dispose()


class FakeClock:
    """A clock for tests: stands still until moved."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2024, 5, 6, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: Any) -> datetime:
        self.now += timedelta(**kwargs)
        return self.now

    def set(self, when: datetime) -> datetime:
        self.now = when
        return when
