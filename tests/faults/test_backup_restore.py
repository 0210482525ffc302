"""`gamesmaster backup` / `gamesmaster restore`: a whole site (games, mail tables, web.json) into an
empty store, SQLite -> PostgreSQL and back, with verify passing on every restored game."""

from __future__ import annotations

import io
import json
import os
from datetime import datetime, timezone

import pytest
from sqlalchemy import select, text

import gamesmaster.store.accounts  # noqa: F401 - the account tables in the metadata
import gamesmaster.store.mailbox  # noqa: F401 - the mail tables in the metadata
from gamesmaster.cli import main
from gamesmaster.gm import Gamesmaster, Settings
from gamesmaster.gm.archive import import_sample
from gamesmaster.gm.backup import backup, restore
from gamesmaster.gm.errors import GMError
from gamesmaster.store import Store
from gamesmaster.store.schema import metadata
from gamesmaster.store.testing import FakeClock
from gamesmaster.web.security import load_secrets

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def populate(url: str, data) -> dict[str, list]:
    """A site: the rulebook's sample game, a running game with orders and press, a mail reply queued."""
    store = Store(url)
    gm = Gamesmaster(store, FakeClock(datetime(2030, 5, 6, 12, tzinfo=timezone.utc)))
    import_sample(gm)
    c = gm.setup.create_game("club", players=NAMES, seed=3, settings=Settings.from_dict({"press": "full"}))
    power = c.powers["Ann"]
    units = gm.games.game("club").position.to_dict()["units"][power]
    gm.orders.submit_orders("club", power, "\n".join(f"{u} H" for u in units), credential=c.credentials["Ann"])
    gm.press.post_press("club", "hello all", credential=c.credentials["Bob"])
    gm.accounts.sign_up("ann@club.test", "Ann", "http://127.0.0.1:8000")  # an account holding Ann's seat, notified
    gm.joining.claim_seat("club", c.credentials["Ann"], 1)
    gm.press.post_press("club", "to Ann's account", credential=c.credentials["Bob"])
    assert gm.notices.notify() == 1
    from email.message import EmailMessage

    from gamesmaster.mail.config import MailConfig
    from gamesmaster.mail.intake import Intake
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@club.test", "gm@club.test", "status"
    msg.set_content(f"SIGNON club {power} {c.credentials['Ann']}\nLIST")
    Intake(gm, MailConfig(address="gm@club.test")).receive(msg.as_bytes(), "ann@club.test", ["gm@club.test"])
    load_secrets(data)
    snapshot = tables(store)
    store.dispose()
    return snapshot


def tables(store: Store) -> dict[str, list]:
    out = {}
    with store.connect(write=False) as conn:
        for t in ("gm_games", "gm_credentials", "gm_phases", "gm_press", "gm_ledger", "gm_mail_outbox",
                  "gm_mail_inbox", "gm_mail_contacts", "gm_accounts", "gm_account_links", "gm_account_notices",
                  "gm_account_cursor"):
            rows = conn.execute(select(metadata.tables[t])).mappings().all()
            # a restored game's caches are written afresh from its ledger: only their time of writing differs
            out[t] = sorted(json.dumps({k: v for k, v in r.items() if k not in ("id", "updated_at")}, sort_keys=True,
                                       default=lambda v: v.isoformat() if isinstance(v, datetime) else repr(v))
                            for r in rows)
    return out


@pytest.mark.parametrize("kinds", [("sqlite", "postgresql"), ("postgresql", "sqlite")])
def test_backup_then_restore_into_an_empty_store(kinds, url_for, tmp_path):
    src, dst = url_for(kinds[0]), url_for(kinds[1])
    if kinds[1] == "sqlite":
        dst = f"sqlite:///{tmp_path / 'restored.db'}"
    before = populate(src, tmp_path / "data")
    assert len(before["gm_ledger"]) > 50 and before["gm_mail_outbox"]
    file = tmp_path / "site.json"
    assert main(["backup", str(file), "--db", src, "--data", str(tmp_path / "data")]) == 0
    assert (file.stat().st_mode & 0o777) == 0o600
    doc = json.loads(file.read_text())
    assert doc["format"] == "gamesmaster-backup" and len(doc["games"]) == 2 and "web.json" in doc["data"]
    out = io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out):
        assert main(["restore", str(file), "--db", dst, "--data", str(tmp_path / "data2")]) == 0
    assert "restored 2 games; verify passes" in out.getvalue()
    store = Store(dst)
    try:
        assert tables(store) == before
        gm = Gamesmaster(store)
        assert all(gm.record.verify(g).ok for g in gm.games.game_ids())
        # the restored site goes on: the next mail row gets a fresh id
        with store.connect() as conn:
            conn.execute(text("INSERT INTO gm_mail_inbox (received_at, source, recipients, size, body, notes, status) "
                              "VALUES (:t, 'pipe', '[]', 1, 'x', '[]', 'received')"), {"t": datetime(2030, 6, 1)})
    finally:
        store.dispose()
    assert (tmp_path / "data2" / "web.json").read_text() == (tmp_path / "data" / "web.json").read_text()
    assert (os.stat(tmp_path / "data2" / "web.json").st_mode & 0o777) == 0o600
    # a second restore into the same store is refused, and nothing is written
    with pytest.raises(GMError, match="empty store"):
        s = Store(dst)
        try:
            restore(Gamesmaster(s), doc)
        finally:
            s.dispose()


def test_a_damaged_backup_is_refused_before_anything_is_written(sqlite_url, tmp_path):
    populate(sqlite_url, tmp_path / "data")
    s = Store(sqlite_url)
    doc = backup(Gamesmaster(s))
    s.dispose()
    doc["games"][1]["ledger"][3]["payload"] = {"tampered": True}
    target = Store(f"sqlite:///{tmp_path / 'target.db'}")
    try:
        with pytest.raises(GMError, match="does not verify"):
            restore(Gamesmaster(target), doc)
        assert Gamesmaster(target).games.game_ids() == []
    finally:
        target.dispose()
    assert main(["restore", str(tmp_path / "nope.json"), "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
