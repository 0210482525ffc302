"""`gamesmaster import FILE --as COPY` (docs/gm.md's example) makes a new game: its seats are empty, so the
original's credentials and the accounts holding its seats do not act in the copy; --seated keeps them."""

from __future__ import annotations

import json

import pytest

from gamesmaster.gm import Forbidden, Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.accounts import AccountRecords
from gamesmaster.store.db import default_url

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def test_a_copy_is_unseated_unless_the_gm_says_so(gm_cli, tmp_path):
    code, _, _ = gm_cli("new", "club", "--players", ",".join(NAMES), "--seed", "3")
    assert code == 0
    store = Store(default_url(tmp_path / "data"))
    try:
        gm = Gamesmaster(store)
        who = {s.name: s for s in gm.games.game("club").seats}
        secret = gm.players.new_credential("club", "Ann")  # a credential the test knows
        gm.accounts.sign_up("ann@club.test", "Ann", "http://127.0.0.1:8000")
        with gm.desk.reading() as rec:
            account = AccountRecords(rec.conn).by_email("ann@club.test").id
        gm.joining.claim_seat("club", secret, account)
        assert "club" in gm.accounts.account_seats(account)
        archive = tmp_path / "club.json"
        assert gm_cli("export", "club", str(archive))[0] == 0
        assert json.loads(archive.read_text())["game"] == "club"

        code, out, _ = gm_cli("import", str(archive), "--as", "club-copy")
        assert code == 0 and "a new game with its seats empty" in out
        assert "gamesmaster credential club-copy NAME" in out
        assert set(gm.accounts.account_seats(account)) == {"club"}  # not in Ann's "My games"
        with pytest.raises(Forbidden):
            gm.orders.identify("club-copy", secret)  # the original's credential does not act in the copy
        assert gm.orders.identify("club", secret).name == "Ann"  # ... and still does in the original
        assert gm.record.verify("club-copy").ok
        new = gm.players.new_credential("club-copy", "Ann")  # the GM seats her
        assert gm.orders.identify("club-copy", new).power == who["Ann"].power

        code, out, _ = gm_cli("import", str(archive), "--as", "club-seated", "--seated")
        assert code == 0 and out.startswith("Imported club-seated.")
        assert gm.orders.identify("club-seated", secret).name == "Ann"
        assert set(gm.accounts.account_seats(account)) == {"club", "club-seated"}
    finally:
        store.dispose()
