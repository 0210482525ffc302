"""A GM with write access to the database tries to act as a player, the five ways issue 23 names.

Bob plays France from his account, in a browser whose key is on the game's record (he
claimed his seat with its credential). The GM, holding the database, forges a session row,
inserts a sign-in link, sets a password on Bob's account, gives the GM's own account Bob's
account ref, or adds a claim to the cached state (and rebuilds after). Each gives the GM a
session that the site takes as Bob's; but its browser key has no key on the record, so
the door refuses every set it sends, and a set the GM writes into the ledger himself (every
hash right, the caches rebuilt) carries no proof, or a proof copied from one of Bob's, and
`verify` names it. Both stores (the `store` fixture).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import text

from gamesmaster.gm import Forbidden, Gamesmaster
from gamesmaster.gm.accounts import HASHER
from gamesmaster.gm.adjudicating import submit
from gamesmaster.gm.credentials import token_id
from gamesmaster.ledger import canonical
from gamesmaster.store.accounts import AccountRecords, LinkRecord
from gamesmaster.store.sessions import SessionRecords, SessionRow, SessionSeat

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ASSIGN = dict(zip(NAMES, ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]))
SITE = "http://testserver"


class Table:
    """Bob on France with his account and browser, and the GM with an account and a browser of his own."""

    def __init__(self, store, clock) -> None:
        self.store, self.clock = store, clock
        self.gm = Gamesmaster(store, clock)
        c = self.gm.setup.create_game("t", players=NAMES, assign=ASSIGN)
        self.bob_id = self.account("bob@example.org", "Bob")
        self.mallory_id = self.account("gm@example.org", "Mallory")
        self.bob = self.browser()
        self.gm.joining.claim_seat("t", c.credentials["Bob"], self.bob_id, token=self.bob)
        self.gm.accounts.attach_account(self.bob, self.bob_id)
        self.first = self.gm.orders.submit_orders("t", "FRANCE", "A Par-Pic", credential=self.bob)
        self.mallory = self.browser()
        assert self.gm.record.verify("t").ok

    def account(self, email: str, name: str) -> int:
        self.gm.accounts.sign_up(email, name, SITE)
        with self.store.connect(write=False) as conn:
            row = AccountRecords(conn).by_email(email)
        assert row is not None
        return row.id

    def browser(self) -> str:
        """A browser's acting token, as the site passes it: 's.TOKEN.KEY'."""
        return f"{self.gm.sessions.new_session_token()}.{self.gm.sessions.new_browser_key()}"

    def sql(self, statement: str, **params) -> None:
        with self.store.connect() as conn:
            conn.execute(text(statement), params)

    def index_game_for_mallory(self) -> None:
        """The forger also lists the game among Mallory's (the index by which an account's seats are found)."""
        self.sql("INSERT INTO gm_account_games (account_id, game_id) VALUES (:i, 't')", i=self.mallory_id)

    def ref(self, account_id: int) -> str:
        return self.gm.accounts.account(account_id).ref

    def mallory_orders_refused(self) -> None:
        """The site takes Mallory's session as Bob's, and refuses the set: it has no key on the record."""
        assert self.gm.sessions.session(self.mallory).seats["t"].player == 2  # type: ignore[union-attr]
        with pytest.raises(Forbidden, match="holds no key on the record"):
            self.gm.orders.submit_orders("t", "FRANCE", "A Par-Bur", credential=self.mallory)
        with pytest.raises(Forbidden, match="holds no key on the record"):
            self.gm.orders.withdraw_orders("t", "FRANCE", credential=self.mallory)
        # Bob's own browser is not troubled
        self.gm.orders.submit_orders("t", "FRANCE", "A Par-Pic", credential=self.bob)

    def forged_sets_found(self) -> None:
        """The GM writes the set himself, without a proof and with one of Bob's copied: verify names both."""
        seat = self.gm.joining.game_state("t").seat(2)
        assert seat is not None
        bare = {"player": 2, "key": seat.key}
        copied = json.loads(self.last_payload("orders-submitted"))["by"]
        seqs = [self.write_set(bare), self.write_set(copied)]
        self.gm = Gamesmaster(self.store, self.clock)
        self.gm.desk.rebuild("t")
        report = self.gm.record.verify("t", receipts=[str(self.first.receipt)])
        assert not report.ok
        assert any(p.startswith(f"ledger entry {seqs[0]} (orders-submitted): made in the name of Bob (player 2), "
                                "but carries no proof") for p in report.problems), report.problems
        assert any(p.startswith(f"ledger entry {seqs[1]} (orders-submitted): made in the name of Bob (player 2), "
                                "but carries a proof that does not follow") for p in report.problems), report.problems

    def write_set(self, by: object) -> int:
        with self.gm.desk.transaction("t") as tx:
            submit(tx, "FRANCE", "player", by, "web", "Bob", ["A Par-Bur"], None)
            return tx.state.head_seq

    def last_payload(self, kind: str) -> str:
        with self.store.connect(write=False) as conn:
            return conn.execute(text("SELECT payload FROM gm_ledger WHERE game_id='t' AND kind=:k ORDER BY seq DESC"),
                                {"k": kind}).first()[0]


@pytest.fixture
def table(store, clock) -> Table:
    return Table(store, clock)


def test_a_forged_session_row(table):
    seat = table.gm.joining.game_state("t").seat(2)
    now = table.clock()
    with table.store.connect() as conn:
        SessionRecords(conn).put(SessionRow(token_id(table.mallory), now, now + timedelta(days=14),
                                            {"t": SessionSeat(2, seat.key)}, None, {}))
    table.mallory_orders_refused()
    table.forged_sets_found()


def test_a_sign_in_link_inserted(table):
    link = "l." + secrets.token_urlsafe(32)
    now = table.clock()
    with table.store.connect() as conn:
        AccountRecords(conn).add_link(LinkRecord(token_id(link), table.bob_id, "sign-in", None, now,
                                                 now + timedelta(minutes=30)))
    used = table.gm.accounts.use_link(link)
    assert used.account.id == table.bob_id
    table.gm.accounts.attach_account(table.mallory, used.account.id)
    table.mallory_orders_refused()
    table.forged_sets_found()


def test_a_password_hash_set_on_the_seat_holder_s_account(table):
    table.sql("UPDATE gm_accounts SET password_hash=:h WHERE id=:i", h=HASHER.hash("mallory's password"),
              i=table.bob_id)
    account = table.gm.accounts.password_sign_in("bob@example.org", "mallory's password")
    table.gm.accounts.attach_account(table.mallory, account.id)
    table.mallory_orders_refused()
    table.forged_sets_found()


def test_the_gm_s_account_given_the_seat_holder_s_ref(table):
    bob_ref = table.ref(table.bob_id)
    table.sql("UPDATE gm_accounts SET ref=:r WHERE id=:i", r=bob_ref + "x", i=table.bob_id)
    table.sql("UPDATE gm_accounts SET ref=:r WHERE id=:i", r=bob_ref, i=table.mallory_id)
    table.index_game_for_mallory()
    table.gm.accounts.attach_account(table.mallory, table.mallory_id)
    table.mallory_orders_refused()
    table.forged_sets_found()


def test_a_claim_added_to_the_cached_state_and_rebuilt(table):
    with table.store.connect(write=False) as conn:
        doc = json.loads(conn.execute(text("SELECT state FROM gm_games WHERE id='t'")).first()[0])
    doc["claims"] = {**doc.get("claims", {}), "2": table.ref(table.mallory_id)}
    table.sql("UPDATE gm_games SET state=:s WHERE id='t'", s=canonical(doc))
    table.index_game_for_mallory()
    table.gm = Gamesmaster(table.store, table.clock)  # a process that reads the edited row
    table.gm.accounts.attach_account(table.mallory, table.mallory_id)
    table.mallory_orders_refused()
    table.forged_sets_found()  # rebuilds the caches: the claim is gone, the sets stay


def test_a_replayed_key_added_entry_gives_no_key(table):
    """The GM copies Bob's `key-added` entry with his own browser's key in it: the proof does not follow."""
    entry = json.loads(table.last_payload("key-added"))
    from gamesmaster.gm import keys
    from gamesmaster.gm.events import parse_payload
    entry["key"] = keys.new_key(keys.Secret(table.mallory.split(".")[2], keys.SESSION), 2)
    with table.gm.desk.transaction("t") as tx:
        tx.record(parse_payload("key-added", entry))
        seq = tx.state.head_seq
    report = table.gm.record.verify("t")
    assert any(p.startswith(f"ledger entry {seq} (key-added): made in the name of Bob (player 2), but carries a "
                            "proof that does not follow") for p in report.problems), report.problems


def test_keys_hold_through_the_public_record_with_letters_sealed(table):
    """Letters between uses of a key are sealed in the public record: the next use still checks."""
    table.gm.press.post_press("t", "Bonjour", power="FRANCE", to=["GERMANY"], credential=table.bob)
    table.gm.orders.submit_orders("t", "FRANCE", "A Par-Bur", credential=table.bob)
    table.gm.deadlines.process("t", force=True)
    from gamesmaster.gm.record import verify_archive
    report = verify_archive(table.gm.record.archive("t"))
    assert report.ok, report.problems


def test_a_used_up_chain_is_refused(table):
    """A key proves LENGTH uses at most (the door then asks for a new sign-in)."""
    from gamesmaster.gm import keys
    state = table.gm.joining.game_state("t")
    kid, key = next((k, v) for k, v in state.keys.items() if v.kind == keys.SESSION)
    spent = state.evolve(keys={**state.keys, kid: replace(key, used=keys.LENGTH - 1)})
    assert keys.proof(spent, 2, keys.Secret(table.bob.split(".")[2], keys.SESSION)) is None


def test_the_chains_a_process_keeps_give_the_values_the_chain_gives():
    """The checkpoints a process keeps (keys.Chains) give, at every distance, what walking the chain gives."""
    from gamesmaster.gm import keys
    chains = keys.Chains(size=4)
    for n in range(6):  # more seeds than it keeps: the oldest are forgotten, and walked again when needed
        seed = secrets.token_bytes(32)
        for steps in (0, 1, 99, 100, 101, 5_555, keys.LENGTH - 1, keys.LENGTH, keys.LENGTH + 150):
            assert chains.value(seed, steps) == keys.value(seed, steps)
    # a key's uses, one link down at a time across three stretches (the values walked up from the lowest)
    low = keys.LENGTH - 260
    walked = [bytes.fromhex(keys.value(seed, low))]
    for _ in range(259):
        walked.append(keys._link(walked[-1]))
    for steps in range(keys.LENGTH - 1, low - 1, -1):
        assert chains.value(seed, steps) == walked[steps - low].hex()
    assert len(chains.known) <= 4 and len(chains.stretches) <= 4
