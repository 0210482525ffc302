"""The database: SQLite (WAL) in a file by default, PostgreSQL by URL; Alembic migrations."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.pool import NullPool

MIGRATIONS = Path(__file__).with_name("migrations")
DB_FILE = "gamesmaster.db"


class StoreError(Exception):
    """The database cannot be used; the message names the problem."""


def data_dir() -> Path:
    """The data directory: $GAMESMASTER_DATA or ~/.local/share/gamesmaster."""
    env = os.environ.get("GAMESMASTER_DATA")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "gamesmaster"


def default_url() -> str:
    """$GAMESMASTER_DATABASE_URL, or the SQLite file in the data directory."""
    env = os.environ.get("GAMESMASTER_DATABASE_URL")
    if env:
        return env
    return f"sqlite:///{data_dir() / DB_FILE}"


def normalise_url(url: str) -> str:
    """Accept postgres:// and postgresql:// as PostgreSQL through psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    """A connection pool to one gamesmaster database."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = normalise_url(url or default_url())
        try:
            parsed = make_url(self.url)
        except ArgumentError:
            raise StoreError(f"not a database URL: {self.url!r} (e.g. sqlite:///games.db or postgresql://user@host/db)") from None
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            path = parsed.database
            if path and path != ":memory:":
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(self.url, poolclass=NullPool)
            _sqlite_setup(self.engine)
        elif self.dialect == "postgresql":
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=2, max_overflow=4)
        else:
            raise StoreError(f"unsupported database {self.dialect!r}: use sqlite:/// or postgresql://")
        if migrate:
            self.migrate()

    @property
    def is_postgresql(self) -> bool:
        return self.dialect == "postgresql"

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic upgrade to head); safe with several processes."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        try:
            with self.engine.begin() as conn:
                if self.is_postgresql:
                    conn.execute(text("SELECT pg_advisory_xact_lock(72657325)"))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except OperationalError as exc:
            raise StoreError(f"cannot open the database {self.display_url}: {exc.orig}") from None

    @property
    def display_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def connect(self, write: bool = True) -> Iterator[Connection]:
        """A transaction: committed when the block ends, rolled back on an exception.

        On SQLite a writing transaction starts with BEGIN IMMEDIATE, so it holds the
        database's write lock from its first statement."""
        try:
            with self.engine.connect() as conn:
                if not write:
                    conn = conn.execution_options(gm_readonly=True)
                with conn.begin():
                    yield conn
        except OperationalError as exc:
            raise StoreError(f"database {self.display_url}: {exc.orig}") from exc

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, record):  # type: ignore[no-untyped-def]
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):  # type: ignore[no-untyped-def]
        readonly = conn.get_execution_options().get("gm_readonly")
        conn.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")
