"""Migration 0007 fills gm_account_games from the claims on each game's record, on both stores."""

from __future__ import annotations

import re

from sqlalchemy import text


def test_the_accounts_games_are_filled_from_the_claims(store):
    from alembic import command
    from alembic.config import Config

    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store.accounts import AccountRecords
    from gamesmaster.store.db import MIGRATIONS

    gm = Gamesmaster(store)
    gm.setup.create_game("other", players=["Ann", "Bob"], seed=1)
    created = gm.setup.create_game("g", players=["Ann", "Bob"], seed=2)
    gm.accounts.sign_up("ann@players.test", "Ann", "http://testserver")
    with gm.desk.reading() as rec:
        link = re.search(r"t=(l\.\S+)", AccountRecords(rec.conn).to_mail()[0].text).group(1)
    account = gm.accounts.use_link(link).account.id
    gm.joining.claim_seat("g", created.credentials["Ann"], account)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    for step, target in ((command.downgrade, "0005_phases_by_number"), (command.upgrade, "head")):
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            step(cfg, target)
    with store.connect(write=False) as conn:
        rows = conn.execute(text("SELECT account_id, game_id FROM gm_account_games")).all()
    assert [tuple(r) for r in rows] == [(account, "g")]
    assert list(gm.accounts.account_seats(account)) == ["g"]
