"""The database: SQLite (WAL) in a file by default, PostgreSQL by URL; Alembic migrations."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import create_engine, event, text

if sys.platform == "win32":  # not a POSIX system: writers of other processes fall back on SQLite's own waiting
    fcntl = None
else:
    import fcntl
from sqlalchemy.engine import Connection as Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry, NullPool

from ..config import Paths

MIGRATIONS = Path(__file__).with_name("migrations")
DB_FILE = "gamesmaster.db"


class StoreError(Exception):
    """The database cannot be used; the message names the problem."""


class Conflict(Exception):
    """A write that another transaction made first (a row with the same key): this one was rolled back.

    Not a StoreError: the database works, and the caller decides whether losing the race matters."""


def data_dir(paths: Paths | None = None) -> Path:
    """The data directory: the settings' (default: $GAMESMASTER_DATA or ~/.local/share/gamesmaster)."""
    return (paths or Paths.from_environ()).data_dir


def default_url(data: Path | None = None, paths: Paths | None = None) -> str:
    """The settings' database URL ($GAMESMASTER_DATABASE_URL), or the SQLite file in the data directory (data, else
    the settings')."""
    paths = paths or Paths.from_environ()
    if paths.database_url:
        return paths.database_url
    return f"sqlite:///{(data or paths.data_dir) / DB_FILE}"


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
            if path and path != ":memory:":
                # Connections are kept: opening one costs little, but closing the last one checkpoints
                # and removes the WAL, which costs more than the transaction it served.
                self.engine = create_engine(self.url, pool_size=8, max_overflow=24, pool_timeout=60)
            else:
                self.engine = create_engine(self.url, poolclass=NullPool)
            _sqlite_setup(self.engine)
        elif self.dialect == "postgresql":
            # as many connections as the web door has threads for requests, so none waits for one
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=8, max_overflow=32, pool_timeout=60)
        else:
            raise StoreError(f"unsupported database {self.dialect!r}: use sqlite:/// or postgresql://")
        # SQLite lets one writer in at a time and makes the others poll, sleeping up to 100 ms
        # between looks; writers queue on a lock instead, and go in the moment it is free: the
        # threads of this process on a lock of its own, the processes on one file of the database's.
        self._writer: WriterQueue | None = None
        if self.dialect == "sqlite" and parsed.database and parsed.database != ":memory:":
            self._writer = WriterQueue(Path(parsed.database).expanduser().with_name(
                Path(parsed.database).name + ".writers"))
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
        queue = self._writer if write and self._writer is not None else contextlib.nullcontext()
        try:
            with queue, self.engine.connect() as conn:
                if not write:
                    # One snapshot for every query of a look (SQLite's read transactions are so already):
                    # a game's head and what is derived from it must come from the same moment.
                    options = {"isolation_level": "REPEATABLE READ"} if self.is_postgresql else {}
                    conn = conn.execution_options(gm_readonly=True, **options)
                with conn.begin():
                    yield conn
        except OperationalError as exc:
            raise StoreError(f"database {self.display_url}: {exc.orig}") from exc
        except IntegrityError as exc:
            raise Conflict(f"database {self.display_url}: {exc.orig}") from exc

    def dispose(self) -> None:
        self.engine.dispose()


class WriterQueue:
    """Writers to one SQLite file, one at a time: threads queue on a lock, processes on an flock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.depth = 0  # a writer that opens another write inside its own does not wait for itself
        self.owner: int | None = None
        self.fd: int | None = None

    def __enter__(self) -> None:
        me = threading.get_ident()
        if self.owner == me:
            self.depth += 1
            return
        self.lock.acquire()
        if fcntl is None:
            self.owner, self.depth = me, 1
            return
        try:
            if self.fd is None:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except BaseException:
            self.lock.release()
            raise
        self.owner, self.depth = me, 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth:
            return
        self.owner = None
        try:
            if fcntl is not None and self.fd is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.lock.release()


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: sqlite3.Connection, record: ConnectionPoolEntry) -> None:
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        readonly = conn.get_execution_options().get("gm_readonly")
        conn.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")
