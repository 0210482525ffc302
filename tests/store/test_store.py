"""The store on both databases: migrations, times in UTC, the append-only ledger, claims."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import inspect, text

from gamesmaster.ledger import check_chain
from gamesmaster.store import Records, Store, StoreError, default_url
from gamesmaster.store.db import normalise_url

T = datetime(2024, 5, 7, 21, 0, tzinfo=timezone.utc)


def game(rec: Records, gid: str, deadline: datetime | None = None, status: str = "active") -> None:
    rec.insert_game(id=gid, title=gid, status=status, variant="standard", rules="2023", settings={}, phase="S1901M",
                    position=None, deadline=deadline, paused_remaining=None, flags={}, result=None,
                    created_at=T, updated_at=T)


def test_migrations_create_every_table_and_can_run_again(store):
    tables = set(inspect(store.engine).get_table_names())
    assert {"gm_games", "gm_players", "gm_orders", "gm_pending", "gm_phases", "gm_press", "gm_proposals",
            "gm_ledger", "alembic_version"} <= tables
    store.migrate()  # up to date: nothing to do
    from alembic.script import ScriptDirectory
    from gamesmaster.store.db import MIGRATIONS
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    with store.connect(write=False) as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == head


def test_times_come_back_aware_utc(store):
    with store.connect() as conn:
        game(Records(conn, store.is_postgresql), "g", deadline=datetime(2024, 5, 7, 22, 0, tzinfo=timezone(timedelta(hours=1))))
    with store.connect(write=False) as conn:
        row = Records(conn, store.is_postgresql).game("g")
    assert row["deadline"] == T and row["deadline"].tzinfo is not None
    with pytest.raises(Exception):
        with store.connect() as conn:
            game(Records(conn, store.is_postgresql), "naive", deadline=datetime(2024, 5, 7, 22, 0))


def test_ledger_appends_in_a_chain(store):
    with store.connect() as conn:
        rec = Records(conn, store.is_postgresql)
        game(rec, "g")
        for i in range(5):
            rec.append("g", "press", {"text": f"note {i}", "é": "ü"}, T + timedelta(minutes=i))
    with store.connect(write=False) as conn:
        rec = Records(conn, store.is_postgresql)
        entries = rec.entries("g")
        row = rec.game("g")
    assert [e.seq for e in entries] == [1, 2, 3, 4, 5]
    assert check_chain(entries) == []
    assert (row["head_seq"], row["head_hash"]) == (5, entries[-1].hash)
    # append-only in code: the store offers no way to change or remove an entry
    assert not any(name for name in dir(Records) if name.startswith(("update_entr", "delete_entr", "remove_entr")))


def test_a_failed_transaction_leaves_nothing(store):
    with pytest.raises(RuntimeError):
        with store.connect() as conn:
            rec = Records(conn, store.is_postgresql)
            game(rec, "g")
            rec.append("g", "press", {"text": "lost"}, T)
            raise RuntimeError("crash")
    with store.connect(write=False) as conn:
        rec = Records(conn, store.is_postgresql)
        assert rec.game("g") is None and rec.entries("g") == []


def test_claim_due_takes_only_active_games_past_their_deadline(store):
    with store.connect() as conn:
        rec = Records(conn, store.is_postgresql)
        game(rec, "later", T + timedelta(hours=1))
        game(rec, "due", T - timedelta(hours=1))
        game(rec, "earlier", T - timedelta(hours=2))
        game(rec, "paused", T - timedelta(hours=3), status="paused")
    with store.connect() as conn:
        rec = Records(conn, store.is_postgresql)
        assert rec.claim_due(T)["id"] == "earlier"
        assert rec.claim_due(T, skip=["earlier"])["id"] == "due"
        assert rec.claim_due(T - timedelta(days=1)) is None


def test_postgresql_claims_skip_a_game_another_transaction_holds(url_for):
    store = Store(url_for("postgresql"))
    try:
        with store.connect() as conn:
            rec = Records(conn, True)
            game(rec, "a", T - timedelta(hours=2))
            game(rec, "b", T - timedelta(hours=1))
        with store.connect() as one:
            assert Records(one, True).claim_due(T)["id"] == "a"
            with store.connect() as two:
                assert Records(two, True).claim_due(T)["id"] == "b"  # a is locked by the first
                with store.connect() as three:
                    assert Records(three, True).claim_due(T) is None
    finally:
        store.dispose()


def test_sqlite_is_in_wal_mode(sqlite_store):
    with sqlite_store.connect(write=False) as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_urls_and_the_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("GAMESMASTER_DATABASE_URL", raising=False)
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'gamesmaster.db'}"
    monkeypatch.setenv("GAMESMASTER_DATABASE_URL", "postgresql://u@h/db")
    assert default_url() == "postgresql://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    with pytest.raises(StoreError, match="not a database URL"):
        Store("nonsense", migrate=False)
    with pytest.raises(StoreError, match="unsupported database"):
        Store("mysql://u@h/db", migrate=False)
    with pytest.raises(StoreError, match="cannot open the database"):
        Store("postgresql://nobody@127.0.0.1:1/none")
