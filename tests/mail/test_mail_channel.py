"""Mail is one of the channels of the one pass over a game's news (gm.mailing): whichever process runs the pass
decides the mail, once, in the transaction that moves the one cursor; the mail door only renders what was decided.
No SMTP here: what the door queues in the outbox is read back."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from gamesmaster.gm import Gamesmaster, MailKind
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.notify import Dispatcher
from gamesmaster.store.accounts import AccountRecords
from gamesmaster.store.mailbox import MailRecords, outbox
from gamesmaster.store.testing import FakeClock

NAMES = ["Ann", "Bob", "Cat"]


def _outbox(store) -> list[tuple[str, tuple[str, ...], str]]:
    with store.connect(write=False) as conn:
        return sorted((r.kind, r.recipients, r.subject) for r in MailRecords(conn).outbox(limit=1000))


def _decided(store) -> list[tuple[str, str, str]]:
    with store.connect(write=False) as conn:
        return [(d.kind.value, d.address, d.key) for d in MailRecords(conn).mail_due(1000)]


def test_any_pass_decides_the_mail_once_and_the_door_renders_it(sqlite_store):
    store, clock = sqlite_store, FakeClock()
    gm = Gamesmaster(store, clock)
    dispatcher = Dispatcher(gm, MailConfig(address="gm@club.test", maps=False, reminder_hours=24))
    created = gm.setup.create_game("old", players=NAMES, seed=1)
    gm.press.post_press("old", "Welcome, all.", by_gm=True)
    bob = next(p for p in gm.games.game("old").players() if p.name == "Bob")
    with gm.mailroom.open() as books:
        books.set_contact("old", bob.number, "bob@players.test", clock(), "gm")
    # a game first read starts at its head: its past (the start, the GM's welcome) is mailed to no one
    dispatcher.run_once()
    assert _outbox(store) == [] and _decided(store) == []
    # the site's own pass (a player looking at the site) reads the news: the mail is decided there, once
    gm.accounts.sign_up("ann@players.test", "Ann", "http://testserver")
    with gm.desk.reading() as rec:
        link = re.search(r"t=(l\.\S+)", AccountRecords(rec.conn).to_mail()[0].text).group(1)
    gm.joining.claim_seat("old", created.credentials["Ann"], gm.accounts.use_link(link).account.id)
    gm.press.post_press("old", "Hello Bob.", power=created.powers["Ann"], to=[bob.acts_for()[0]],
                        credential=created.credentials["Ann"])
    gm.press.post_press("old", "The deadline stands.", by_gm=True)
    assert gm.notices.notify(["old"]) >= 2 and gm.notices.notify(["old"]) == 0
    assert [(k, a) for k, a, _ in _decided(store)] == [("press", "bob@players.test"), ("notice", "bob@players.test")]
    # the door renders what the pass decided: one pass's mail to one address is one mail (a digest)
    assert dispatcher.run_once()["press"] == 2
    mails = [m for m in _outbox(store) if m[1] == ("bob@players.test",)]
    assert mails == [("digest", ("bob@players.test",), f"old: press from {created.powers['Ann'].capitalize()} to you "
                      "(and 1 more: a notice)")]
    assert _decided(store) == []
    dispatcher.run_once()
    assert [m for m in _outbox(store) if m[1] == ("bob@players.test",)] == mails  # nothing twice
    # a reminder is decided when the deadline is near, once; the results then come without one
    clock.set(gm.games.game("old").deadline - timedelta(hours=2))
    assert dispatcher.run_once()["reminders"] == 1
    assert dispatcher.run_once()["reminders"] == 0
    clock.advance(hours=3)
    gm.deadlines.process_due()
    counts = dispatcher.run_once()
    assert (counts["results"], counts["reminders"]) == (1, 0)
    kinds = [m[0] for m in _outbox(store) if m[1] == ("bob@players.test",)]
    assert sorted(kinds) == ["digest", "reminder", "results"]


def test_a_seat_played_by_mail_at_the_account_s_address_is_mailed_once(sqlite_store):
    """Results go to the seat's mail address by the mail channel; the account's notification of them, at that same
    address, is shown on the site and not mailed again."""
    store, clock = sqlite_store, FakeClock()
    gm = Gamesmaster(store, clock)
    dispatcher = Dispatcher(gm, MailConfig(address="gm@club.test", maps=False))
    created = gm.setup.create_game("g", players=NAMES, seed=1)
    gm.accounts.sign_up("ann@players.test", "Ann", "http://testserver")
    with gm.desk.reading() as rec:
        link = re.search(r"t=(l\.\S+)", AccountRecords(rec.conn).to_mail()[0].text).group(1)
    account = gm.accounts.use_link(link).account.id
    gm.joining.claim_seat("g", created.credentials["Ann"], account)
    ann = next(p for p in gm.games.game("g").players() if p.name == "Ann")
    with gm.mailroom.open() as books:
        books.set_contact("g", ann.number, "ann@players.test", clock(), "mail")
    dispatcher.run_once()
    gm.deadlines.process("g", force=True)
    dispatcher.run_once()
    results = [m for m in _outbox(store) if m[0] == "results"]
    assert [m[1] for m in results] == [("ann@players.test",)]
    assert [n.kind for n in gm.notices.notices(account)] == ["results"]
    assert MailKind.RESULTS.outbox_kind == "results" and MailKind.WELCOME.outbox_kind == "notice"


def test_a_digest_of_many_mails_keeps_a_key_the_outbox_takes_and_its_own(store):
    """On PostgreSQL too (the outbox's key is 200 characters): one pass's many letters to one address make a
    digest whose key is too long to keep whole; it is queued, and so is the next pass's digest alike at the
    start (a key cut short instead failed on PostgreSQL, and would have made the second look queued already)."""
    clock = FakeClock()
    gm = Gamesmaster(store, clock)
    dispatcher = Dispatcher(gm, MailConfig(address="gm@club.test", maps=False, reminder_hours=0))
    game = "a-club-game-with-a-rather-long-name-1901"
    created = gm.setup.create_game(game, players=NAMES, seed=1)
    bob = next(p for p in gm.games.game(game).players() if p.name == "Bob")
    with gm.mailroom.open() as books:
        books.set_contact(game, bob.number, "bob@players.test", clock(), "gm")
    dispatcher.run_once()  # the game is first read: its past is mailed to no one
    ann, to_bob = created.powers["Ann"], [bob.acts_for()[0]]

    def letters(n: int, word: str) -> None:
        for i in range(n):
            gm.press.post_press(game, f"{word} {i}", power=ann, to=to_bob, credential=created.credentials["Ann"])

    letters(6, "First")
    assert dispatcher.run_once()["press"] == 6
    letters(6, "Second")
    assert dispatcher.run_once()["press"] == 6
    digests = [m for m in _outbox(store) if m[1] == ("bob@players.test",)]
    assert [kind for kind, _, _ in digests] == ["digest", "digest"]
    with store.connect(write=False) as conn:
        keys = [k for k, to in conn.execute(select(outbox.c.key, outbox.c.recipients)) if to == ["bob@players.test"]]
    assert len(set(keys)) == 2 and all(len(k) <= 200 for k in keys) and all(k.startswith("press:") for k in keys)
