"""Migration 0010 merges the mail door's cursor (gm_mail_cursor) into the one cursor of a game's news, on both
stores: a database at the previous head, its two cursors apart either way, mails and notifies nothing twice after the
upgrade, and loses nothing."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import JSON, DateTime, Integer, String, column, delete, insert, table, text

NAMES = ["Ann", "Bob", "Cat"]
ANN, BOB = "ann@players.test", "bob@players.test"


def _migrate(store, target: str) -> None:
    from alembic import command
    from alembic.config import Config

    from gamesmaster.store.db import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if target != "head" else command.upgrade)(cfg, target)


def _results_mails(store, game: str) -> list[tuple[str, ...]]:
    from gamesmaster.store.mailbox import MailRecords
    with store.connect(write=False) as conn:
        return [r.recipients for r in MailRecords(conn).outbox() if r.kind == "results" and r.game_id == game
                and BOB in r.recipients]


def _results_notices(store, game: str) -> list[str]:
    with store.connect(write=False) as conn:
        return [str(k) for k in conn.execute(text(
            "SELECT key FROM gm_account_notices WHERE game_id = :g AND kind = 'results'"), {"g": game}).scalars()]


def test_the_mail_cursor_is_merged_into_the_one_cursor(store):
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.mail.config import MailConfig
    from gamesmaster.mail.notify import Dispatcher
    from gamesmaster.store.accounts import AccountRecords
    from gamesmaster.store.testing import FakeClock

    clock = FakeClock()
    gm = Gamesmaster(store, clock)
    config = MailConfig(address="gm@club.test", maps=False, reminder_hours=24)
    dispatcher = Dispatcher(gm, config)
    gm.accounts.sign_up(ANN, "Ann", "http://testserver")
    with gm.desk.reading() as rec:
        link = re.search(r"t=(l\.\S+)", AccountRecords(rec.conn).to_mail()[0].text).group(1)
    account = gm.accounts.use_link(link).account.id
    bob = {}
    for game in ("ahead", "behind", "mailonly"):
        created = gm.setup.create_game(game, players=NAMES, seed=1)
        bob[game] = next(p for p in gm.games.game(game).players() if p.name == "Bob")
        with gm.mailroom.open() as books:
            books.set_contact(game, bob[game].number, BOB, clock(), "gm")  # Bob plays by mail
        if game != "mailonly":
            gm.joining.claim_seat(game, created.credentials["Ann"], account)  # Ann on the site
    dispatcher.run_once()

    def head_seqs() -> dict[str, int]:
        return {h.id: h.head_seq for h in gm.games.heads()}

    seqs = head_seqs()  # both cursors here
    for game in seqs:
        gm.deadlines.process(game, force=True)  # the results: told nobody yet
    # "behind": the site was told of the results; the mail door was not (its decision is lost with the downgrade)
    gm.notices.notify(["behind"])
    assert len(_results_notices(store, "behind")) == 1 and _results_mails(store, "behind") == []
    heads = head_seqs()
    phase = str(gm.games.game("ahead").phase)

    _migrate(store, "0009_webhooks")
    mail_cursor = table("gm_mail_cursor", column("game_id", String), column("ledger_seq", Integer),
                        column("reminded", JSON), column("updated_at", DateTime))
    with store.engine.begin() as conn:
        conn.execute(delete(mail_cursor))
        # "ahead": the mail door mailed the results and a reminder in the phase now open, the site was not told;
        # "behind": the site was told, the mail door was not; "mailonly": mailed, and no site cursor
        conn.execute(insert(mail_cursor), [
            {"game_id": "ahead", "ledger_seq": heads["ahead"], "reminded": {phase: list(bob["ahead"].acts_for())},
             "updated_at": clock().replace(tzinfo=None)},
            {"game_id": "behind", "ledger_seq": seqs["behind"], "reminded": {}, "updated_at": clock().replace(tzinfo=None)},
            {"game_id": "mailonly", "ledger_seq": heads["mailonly"], "reminded": {},
             "updated_at": clock().replace(tzinfo=None)}])
        conn.execute(text("DELETE FROM gm_account_cursor WHERE game_id = 'mailonly'"))
    with gm.mailroom.open() as books:
        for game in ("ahead", "mailonly"):
            books.queue(created_at=clock(), kind="results", game_id=game, key=f"old-results:{game}",
                        sender="gm@club.test", recipients=[BOB], subject=f"{game}: results", message=b"x")
        books.queue(created_at=clock(), kind="digest", game_id="ahead", sender="gm@club.test", recipients=[BOB],
                    key=f"press:ahead:1:{bob['ahead'].number}+reminder:ahead:{phase}:{bob['ahead'].acts_for()[0]}:"
                        f"{bob['ahead'].number}", subject="ahead: a letter (and 1 more: a reminder)", message=b"x")

    _migrate(store, "head")
    with store.connect(write=False) as conn:
        cursors = AccountRecords(conn)
        assert (cursors.cursor("ahead"), cursors.ahead("ahead")) == (seqs["ahead"], {"mail": heads["ahead"]})
        assert (cursors.cursor("behind"), cursors.ahead("behind")) == (
            seqs["behind"], {"site": heads["behind"], "webhook": heads["behind"]})
        assert (cursors.cursor("mailonly"), cursors.ahead("mailonly")) == (heads["mailonly"], {})
        assert "gm_mail_cursor" not in {str(t) for t in conn.execute(text(
            "SELECT table_name FROM information_schema.tables" if store.is_postgresql else
            "SELECT name FROM sqlite_master WHERE type = 'table'")).scalars()}

    gm = Gamesmaster(store, clock)
    dispatcher = Dispatcher(gm, config)
    clock.set(gm.games.game("ahead").deadline - timedelta(hours=1))  # every game's reminders are due
    dispatcher.run_once()
    dispatcher.run_once()
    # what the mail door had mailed is not mailed again; what it had not, is; the site likewise
    assert _results_mails(store, "ahead") == [(BOB,)] and len(_results_notices(store, "ahead")) == 1
    assert _results_mails(store, "behind") == [(BOB,)] and len(_results_notices(store, "behind")) == 1
    assert _results_mails(store, "mailonly") == [(BOB,)] and _results_notices(store, "mailonly") == []
    from gamesmaster.store.mailbox import MailRecords
    with store.connect(write=False) as conn:
        reminders = [r.game_id for r in MailRecords(conn).outbox() if r.kind == "reminder"]
        cursors = AccountRecords(conn)
        assert {g: cursors.cursor(g) for g in heads} == heads and not any(cursors.ahead(g) for g in heads)
    # Bob is reminded where the door had not reminded him: not in "ahead" (the old door did, in a digest), nor in
    # "behind" (the results mailed in this pass gave the deadline)
    assert reminders == ["mailonly"], reminders
