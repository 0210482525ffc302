"""The store on both databases: migrations, times in UTC, the append-only ledger, claims."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import inspect, text

from gamesmaster.ledger import Entry, check_chain
from gamesmaster.store import Records, Store, StoreError, default_url
from gamesmaster.store.db import normalise_url
from gamesmaster.store.repo import GameRow

T = datetime(2024, 5, 7, 21, 0, tzinfo=timezone.utc)


def game(rec: Records, gid: str, deadline: datetime | None = None, status: str = "active") -> None:
    rec.put_game(GameRow(gid, gid, status, "standard", "S1901M", deadline, 0, "", "{}", T, T), new=True)


def append(rec: Records, gid: str, kind: str, payload: object, when: datetime) -> Entry:
    last = rec.last_entry(gid)
    entry = Entry.make(last, kind, payload, when)
    rec.append(gid, [entry])
    return entry


def test_migrations_create_every_table_and_can_run_again(store):
    tables = set(inspect(store.engine).get_table_names())
    assert {"gm_games", "gm_credentials", "gm_phases", "gm_press", "gm_ledger", "gm_mail_contacts",
            "gm_legacy_rows", "alembic_version"} <= tables
    assert not tables & {"gm_players", "gm_orders", "gm_pending", "gm_proposals"}  # the ledger holds them now
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
    assert row.deadline == T and row.deadline.tzinfo is not None
    with pytest.raises(Exception):
        with store.connect() as conn:
            game(Records(conn, store.is_postgresql), "naive", deadline=datetime(2024, 5, 7, 22, 0))


def test_ledger_appends_in_a_chain(store):
    with store.connect() as conn:
        rec = Records(conn, store.is_postgresql)
        game(rec, "g")
        for i in range(5):
            append(rec, "g", "press", {"text": f"note {i}", "é": "ü"}, T + timedelta(minutes=i))
    with store.connect(write=False) as conn:
        rec = Records(conn, store.is_postgresql)
        entries = rec.entries("g")
        assert [e.seq for e in rec.entries("g", after=2, upto=4)] == [3, 4]
    assert [e.seq for e in entries] == [1, 2, 3, 4, 5]
    assert check_chain(entries) == []
    with pytest.raises(Exception):  # a second entry with the same number: the chain cannot fork
        with store.connect() as conn:
            Records(conn, store.is_postgresql).append("g", Entry.make(entries[2], "press", {"text": "fork"}, T))
    # append-only in code: the store offers no way to change or remove an entry
    assert not any(name for name in dir(Records) if name.startswith(("update_entr", "delete_entr", "remove_entr")))


def test_a_failed_transaction_leaves_nothing(store):
    with pytest.raises(RuntimeError):
        with store.connect() as conn:
            rec = Records(conn, store.is_postgresql)
            game(rec, "g")
            append(rec, "g", "press", {"text": "lost"}, T)
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
        assert [r.id for r in rec.claim_due(T)] == ["earlier"]
        assert [r.id for r in rec.claim_due(T, skip=["earlier"])] == ["due"]
        assert [r.id for r in rec.claim_due(T, count=5)] == ["earlier", "due"]
        assert rec.claim_due(T - timedelta(days=1)) == []


def test_postgresql_claims_skip_a_game_another_transaction_holds(url_for):
    store = Store(url_for("postgresql"))
    try:
        with store.connect() as conn:
            rec = Records(conn, True)
            game(rec, "a", T - timedelta(hours=2))
            game(rec, "b", T - timedelta(hours=1))
        with store.connect() as one:
            assert [r.id for r in Records(one, True).claim_due(T)] == ["a"]
            with store.connect() as two:
                assert [r.id for r in Records(two, True).claim_due(T)] == ["b"]  # a is locked by the first
                with store.connect() as three:
                    assert Records(three, True).claim_due(T) == []
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


def test_the_migration_to_the_ledger_keeps_every_old_row(url_for):
    """A database of the earlier schema, with a game in it, upgrades; its rows are kept as JSON."""
    from alembic import command
    from alembic.config import Config
    from gamesmaster.store.db import MIGRATIONS

    store = Store(url_for("sqlite"), migrate=False)
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0002_mail")
        with store.connect() as conn:
            conn.execute(text("INSERT INTO gm_games (id, title, status, variant, rules, settings, flags, head_seq, "
                              "head_hash, created_at, updated_at) VALUES ('old', 'Old', 'active', 'standard', "
                              "'\"2023\"', '{}', '{}', 0, '', :t, :t)"), {"t": T.replace(tzinfo=None)})
        store.migrate()
        with store.connect(write=False) as conn:
            kept = conn.execute(text("SELECT source, row FROM gm_legacy_rows")).all()
        assert [k.source for k in kept] == ["gm_games"] and '"title": "Old"' in kept[0].row
        assert "gm_players" not in set(inspect(store.engine).get_table_names())
    finally:
        store.dispose()


def test_published_phases_keep_their_rows_when_rekeyed_by_play_number(store):
    """Migration 0005 keys gm_phases by play number (Calhamer's rounds share a phase name): rows survive it."""
    from alembic import command
    from alembic.config import Config

    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store.db import MIGRATIONS

    gm = Gamesmaster(store)
    gm.setup.create_game("g", players=["Ann", "Bob"])
    gm.deadlines.process("g", force=True)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    from alembic.script import ScriptDirectory
    before = ScriptDirectory(str(MIGRATIONS)).get_revision("0005_phases_by_number").down_revision
    for step, target in ((command.downgrade, before), (command.upgrade, "head")):
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            step(cfg, target)
        with store.connect(write=False) as conn:
            assert [r.phase for r in Records(conn, store.is_postgresql).phases("g")] == ["S1901M"]
    assert inspect(store.engine).get_pk_constraint("gm_phases")["constrained_columns"] == ["game_id", "number",
                                                                                          "revision"]
    assert gm.record.verify("g").ok
