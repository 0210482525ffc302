"""Any edit of the stored record is reported by verify, naming the ledger entry it breaks.

An attacker with the database in hand (the GM included) edits rows of every table: the
ledger, the games table and its cached state, the credentials, the published phases and
the press; a row is changed, deleted, inserted or reordered, with hashes recomputed where
a table carries them. `verify` replays the game from the ledger alone and must report
each edit, with and without the receipts the players hold. The three attacks that once
went through unnoticed are here by name.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Callable

import pytest
from sqlalchemy import text

from gamesmaster.gm import Forbidden, Gamesmaster, Refused
from gamesmaster.gm import credentials as cred
from gamesmaster.gm.adjudicating import submit
from gamesmaster.ledger import GENESIS, Entry, canonical, commitment, entry_hash, fingerprint, sha256

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ASSIGN = dict(zip(NAMES, ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]))


class Game:
    """A played game and what its players hold: their credentials and receipts."""

    def __init__(self, store, clock) -> None:
        self.store = store
        self.gm = Gamesmaster(store, clock)
        c = self.gm.setup.create_game("t", players=NAMES, assign=ASSIGN)
        self.cred = {ASSIGN[n]: c.credentials[n] for n in NAMES}
        self.first = self.order("FRANCE", "A Par-Pic\nA Mar-Spa\nF Bre-Mao")
        self.second = self.order("FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
        self.germany = self.order("GERMANY", "A Mun-Bur\nA Ber-Kie\nF Kie-Den")
        self.gm.press.post_press("t", "Bonjour", power="FRANCE", to=["GERMANY"], credential=self.cred["FRANCE"])
        self.gm.press.post_press("t", "To all: peace", power="ITALY", credential=self.cred["ITALY"])
        self.gm.deadlines.process("t", force=True)
        self.head = self.gm.games.game("t").head  # what the results published
        self.later = self.order("ENGLAND", "F Lon-Nth")
        self.receipts = [str(self.first.receipt), str(self.second.receipt), str(self.germany.receipt),
                         str(self.later.receipt)]
        assert self.verify().ok
        assert self.verify(self.receipts, [str(self.head)]).ok

    def order(self, power: str, orders: str):
        return self.gm.orders.submit_orders("t", power, orders, credential=self.cred[power])

    def verify(self, receipts=(), heads=()):
        return self.gm.record.verify("t", receipts=receipts, heads=heads)

    def rows(self, table: str, order: str) -> list[dict]:
        with self.store.connect(write=False) as conn:
            return [dict(r._mapping) for r in conn.execute(text(f"SELECT * FROM {table} WHERE "
                                                                f"{'id' if table == 'gm_games' else 'game_id'}='t' "
                                                                f"ORDER BY {order}"))]

    def entries(self) -> list[dict]:
        return self.rows("gm_ledger", "seq")

    def entry(self, kind: str, pred: Callable[[dict], bool] = lambda p: True) -> dict:
        return next(r for r in self.entries() if r["kind"] == kind and pred(json.loads(r["payload"])))

    def sql(self, statement: str, **params) -> None:
        with self.store.connect() as conn:
            conn.execute(text(statement), params)

    def state(self) -> dict:
        return json.loads(self.rows("gm_games", "id")[0]["state"])

    def put_state(self, doc: dict) -> None:
        self.sql("UPDATE gm_games SET state=:s WHERE id='t'", s=canonical(doc))
        # what follows is done by a process started after the edit, one that reads the edited row
        self.gm = Gamesmaster(self.store, self.gm.desk.clock)

    def delete_game_row(self) -> None:
        """Delete the games row although other tables refer to it (foreign keys off for this one edit)."""
        if self.store.is_postgresql:
            with self.store.connect() as conn:
                conn.execute(text("SET LOCAL session_replication_role = replica"))
                conn.execute(text("DELETE FROM gm_games WHERE id='t'"))
            return
        path = self.store.engine.url.database
        raw = sqlite3.connect(path)
        raw.execute("DELETE FROM gm_games WHERE id='t'")
        raw.commit()
        raw.close()


@pytest.fixture
def game(store, clock) -> Game:
    return Game(store, clock)


def named(report, seq: int) -> bool:
    return any(p.startswith(f"ledger entry {seq}") or f"ledger entry {seq} " in p or f"ledger entry {seq}:" in p
               for p in report.problems)


# -- the three attacks that went through before ------------------------------------------------------------------


def test_rolling_a_power_back_to_an_earlier_set_before_the_deadline(store, clock):
    """The cached orders in force are set back to France's first set; the deadline uses them."""
    g = Game(store, clock)
    g.order("FRANCE", "A Par-Pic\nA Mar-Spa\nF Bre-Mao")  # F1901M: set #1
    wanted = g.order("FRANCE", "A Pic-Bel\nA Spa-Por\nF Mao-Spa/nc")  # set #2, the one France wants
    doc = g.state()
    first = next(e for e in g.entries() if e["kind"] == "orders-submitted" and json.loads(e["payload"])["power"] ==
                 "FRANCE" and json.loads(e["payload"])["phase"] == "F1901M")
    p = json.loads(first["payload"])
    for o in doc["orders"]:
        if o["power"] == "FRANCE":
            o.update(seq=first["seq"], number=1, orders=p["orders"], commitment=p["commitment"], at=first["at"])
    g.put_state(doc)
    g.gm.deadlines.process("t", force=True)
    closed = g.entry("deadline-closed", lambda p: p["phase"] == "F1901M")
    for receipts in ((), [str(wanted.receipt)]):
        report = g.verify(receipts)
        assert not report.ok
        assert any(x.startswith(f"ledger entry {closed['seq']} (deadline-closed): the orders used for FRANCE are "
                                f"entry {first['seq']} (set #1)") for x in report.problems), report.problems
    report = g.verify([str(wanted.receipt)])
    assert any(f"receipt {wanted.receipt}"[:40] in x and "were not computed from it" in x for x in report.problems)


def test_deleting_a_power_s_orders_before_the_deadline(game):
    """France's orders vanish from the cache: France is put in civil disorder, and verify says it had orders."""
    game.order("FRANCE", "A Pic-Bel")
    doc = game.state()
    doc["orders"] = [o for o in doc["orders"] if o["power"] != "FRANCE"]
    game.put_state(doc)
    done = game.gm.deadlines.process("t", force=True)
    assert "FRANCE" in done[0].civil_disorder
    closed = game.entry("deadline-closed", lambda p: p["phase"] == "F1901M")
    report = game.verify()
    assert any(p.startswith(f"ledger entry {closed['seq']} (deadline-closed): FRANCE's orders on record")
               for p in report.problems), report.problems
    assert any(p == f"ledger entry {closed['seq']} (deadline-closed): FRANCE ruled in civil disorder, but had orders "
               "on record" for p in report.problems)


def test_replacing_a_credential_to_order_in_a_player_s_name(game):
    """A new credential hash is stored for Bob: the new credential is refused, and verify names the row."""
    secret = "stolen-secret-0123456789"
    forged = cred.hash_secret(secret)
    game.sql("UPDATE gm_credentials SET hash=:h WHERE game_id='t' AND player=2", h=forged)
    with pytest.raises(Forbidden):
        game.gm.orders.submit_orders("t", "FRANCE", "A Pic H", credential=f"2.{secret}")
    joined = game.entry("player-joined", lambda p: p["player"] == 2)
    report = game.verify()
    assert any(p.startswith(f"ledger entry {joined['seq']} (player-joined): the stored credential of Bob (player 2) "
                            "is not the one the record issued") for p in report.problems)
    # and the attacker who also edits the cached state so that the forged credential is accepted
    doc = game.state()
    doc["seats"][1]["key"] = fingerprint(forged)
    game.put_state(doc)
    # the door takes the forged credential for Bob's, but it gives no key on the record: refused
    with pytest.raises(Forbidden, match="holds no key on the record"):
        game.gm.orders.submit_orders("t", "FRANCE", "A Pic H", credential=f"2.{secret}")
    # so the attacker writes the set himself, every hash right
    with game.gm.desk.transaction("t") as tx:
        submit(tx, "FRANCE", "player", {"player": 2, "key": fingerprint(forged)}, "web", "Bob", ["A Pic H"], None)
        seq = tx.state.head_seq
    report = game.verify()
    assert any(p.startswith(f"ledger entry {seq} (orders-submitted): made with a credential the record "
                            "never issued to Bob") for p in report.problems), report.problems


# -- the ledger ---------------------------------------------------------------------------------------------------


def test_a_changed_ledger_entry(game):
    row = game.entry("orders-submitted", lambda p: p["power"] == "FRANCE" and p["number"] == 2)
    game.sql("UPDATE gm_ledger SET payload=:p WHERE game_id='t' AND seq=:s",
             p=row["payload"].replace("A Par-Bur", "A Par-Gas"), s=row["seq"])
    for receipts in ((), game.receipts):
        report = game.verify(receipts)
        assert named(report, row["seq"]) and any("altered" in p for p in report.problems)
    assert any("other orders than the receipt commits to" in p for p in game.verify(game.receipts).problems)


def test_a_deleted_ledger_entry(game):
    press = game.entry("press", lambda p: p["text"] == "Bonjour")
    game.sql("DELETE FROM gm_ledger WHERE game_id='t' AND seq=:s", s=press["seq"])
    report = game.verify()
    assert any(p == f"ledger entry {press['seq'] + 1}: entry {press['seq']} missing: the chain jumps from "
               f"{press['seq'] - 1} to {press['seq'] + 1}" for p in report.problems)


def test_a_deleted_last_entry_and_an_inserted_one(game):
    last = game.entries()[-1]
    game.sql("DELETE FROM gm_ledger WHERE game_id='t' AND seq=:s", s=last["seq"])
    report = game.verify()
    assert any("entries were removed or added" in p for p in report.problems)
    assert any(str(game.later.receipt)[:40] in p and "not on the record" in p
               for p in game.verify(game.receipts).problems)


def test_an_inserted_ledger_entry(game):
    last = game.entries()[-1]
    forged = Entry.following(last["seq"], last["hash"], "press", {"sender": "GM", "to": None, "anonymous": False,
                                                                   "text": "forged", "phase": "F1901M"},
                             clock_now())
    game.sql("INSERT INTO gm_ledger (game_id, seq, at, kind, payload, prev_hash, hash) VALUES "
             "('t', :s, :a, :k, :p, :ph, :h)", s=forged.seq, a=forged.at, k=forged.kind, p=forged.payload_text,
             ph=forged.prev_hash, h=forged.hash)
    report = game.verify()
    assert named(report, forged.seq) and any("entries were removed or added" in p for p in report.problems)
    assert any("press table" in p and "item" in p for p in report.problems)


def test_reordered_ledger_entries(game):
    a = game.entry("orders-submitted", lambda p: p["power"] == "FRANCE" and p["number"] == 2)["seq"]
    b = a + 1
    game.sql("UPDATE gm_ledger SET seq=-1 WHERE game_id='t' AND seq=:a", a=a)
    game.sql("UPDATE gm_ledger SET seq=:a WHERE game_id='t' AND seq=:b", a=a, b=b)
    game.sql("UPDATE gm_ledger SET seq=:b WHERE game_id='t' AND seq=-1", b=b)
    report = game.verify()
    assert named(report, a) and named(report, b)


def _rewrite(game: Game, change: Callable[[dict, dict], dict | None]) -> int:
    """Rewrite the chain with every hash recomputed after the first changed entry; returns that entry."""
    out: list[Entry] = []
    first = 0
    for r in game.entries():
        payload = r["payload"]
        doc = json.loads(payload)
        new = change(r, doc)
        if new is not None:
            payload = canonical(new)
            first = first or r["seq"]
        prev = out[-1].hash if out else GENESIS
        out.append(Entry(r["seq"], r["at"], r["kind"], payload, prev,
                         entry_hash(prev, r["seq"], r["kind"], r["at"], sha256(payload))))
    for e in out:
        game.sql("UPDATE gm_ledger SET payload=:p, prev_hash=:ph, hash=:h WHERE game_id='t' AND seq=:s",
                 p=e.payload_text, ph=e.prev_hash, h=e.hash, s=e.seq)
    game.sql("UPDATE gm_games SET head_hash=:h WHERE id='t'", h=out[-1].hash)
    return first


def test_a_rewritten_chain_with_an_edited_result(game):
    """Every hash recomputed after a changed result: the replay finds it, with or without receipts."""
    def change(r: dict, doc: dict) -> dict | None:
        if r["kind"] != "phase-adjudicated":
            return None
        for res in doc["results"]:
            if res["order"] == "A PAR - BUR":
                res["result"], res["reason"] = "succeeds", "moved"
        return doc
    seq = _rewrite(game, change)
    for receipts in ((), game.receipts):
        report = game.verify(receipts)
        assert any(p.startswith(f"ledger entry {seq} (phase-adjudicated): the published results of S1901M are not "
                                "what the engine gives") for p in report.problems)
    assert any(f"ledger entry {game.head.seq}" in p and "rewritten after it was published" in p
               for p in game.verify(heads=[str(game.head)]).problems)


def test_a_reason_worded_otherwise_is_not_a_changed_result(game):
    """A later engine explains better: the record still holds, and verify says how many phases read otherwise."""
    def change(r: dict, doc: dict) -> dict | None:
        if r["kind"] != "phase-adjudicated":
            return None
        for res in doc["results"]:
            res["reason"] = "as an older version of the engine put it"
        return doc
    _rewrite(game, change)
    game.gm.desk.rebuild("t")  # the tables follow the ledger, as they would have when it was written
    report = game.verify()
    assert report.ok, report.problems
    assert report.reworded == 1 and report.phases_replayed == 1
    assert game.verify().reworded == report.reworded


def test_a_consistent_rewrite_is_caught_by_the_receipts_and_the_published_head(game):
    """Orders, commitment and every hash rewritten consistently: only what the players hold can tell."""
    def change(r: dict, doc: dict) -> dict | None:
        if r["kind"] == "orders-submitted" and doc["power"] == "FRANCE" and doc["number"] == 2:
            doc["orders"] = ["A Par-Bur", "A Mar-Spa", "F Bre-Mao", "A Par H"]
            doc["commitment"] = commitment(doc["phase"], "FRANCE", 2, doc["orders"], None, doc["salt"])
            return doc
        return None
    seq = _rewrite(game, change)
    report = game.verify(game.receipts)
    assert any(str(game.second.receipt)[:40] in p and "other orders than the receipt commits to" in p
               for p in report.problems)
    assert named(game.verify(heads=[str(game.head)]), game.head.seq)
    assert seq < game.head.seq


# -- the games table and its cached state --------------------------------------------------------------------------


@pytest.mark.parametrize("column,value", [("status", "finished"), ("phase", "S1905M"), ("title", "Other"),
                                          ("head_seq", 3)])
def test_a_changed_games_row(game, column, value):
    game.sql(f"UPDATE gm_games SET {column}=:v WHERE id='t'", v=value)
    report = game.verify()
    last = game.entries()[-1]["seq"]
    assert not report.ok and named(report, last), report.problems


def test_a_changed_cached_state(game):
    doc = game.state()
    doc["position_doc"]["units"]["FRANCE"] = ["A PAR", "A MAR", "F BRE"]
    game.put_state(doc)
    report = game.verify()
    last = game.entries()[-1]["seq"]
    assert any(p.startswith(f"ledger entry {last}: the game's cached state differs from the ledger's (it differs in "
                            "position_doc") for p in report.problems)


def test_a_deleted_games_row(game):
    game.delete_game_row()
    report = game.verify()
    assert any("the games table has no row for t" in p for p in report.problems)


# -- credentials -------------------------------------------------------------------------------------------------------


def test_a_deleted_and_an_inserted_credential(game):
    game.sql("DELETE FROM gm_credentials WHERE game_id='t' AND player=3")
    game.sql("INSERT INTO gm_credentials (game_id, player, hash) VALUES ('t', 9, :h)", h=cred.hash_secret("x" * 22))
    report = game.verify()
    joined = game.entry("player-joined", lambda p: p["player"] == 3)
    assert any(p.startswith(f"ledger entry {joined['seq']} (player-joined): the credential of Cat (player 3) is "
                            "missing") for p in report.problems)
    assert any("the credentials table holds player 9, whom the record never signed up" in p for p in report.problems)


# -- published phases ----------------------------------------------------------------------------------------------------


def test_a_changed_published_result(game):
    seq = game.entry("phase-adjudicated")["seq"]
    game.sql("UPDATE gm_phases SET results=:r WHERE game_id='t'", r=json.dumps([]))
    report = game.verify()
    assert any(p.startswith(f"ledger entry {seq}: the phases table's row for S1901M (revision 0) differs from what "
                            "this entry published (results)") for p in report.problems)


def test_a_deleted_an_inserted_and_a_reordered_phase(game):
    game.gm.deadlines.process("t", force=True)  # F1901M published too
    rows = game.rows("gm_phases", "number")
    s, f = rows[0], rows[1]

    def swap() -> None:  # the play numbers are the key: one goes aside while the other moves
        game.sql("UPDATE gm_phases SET number=-1 WHERE game_id='t' AND number=:n", n=s["number"])
        game.sql("UPDATE gm_phases SET number=:n WHERE game_id='t' AND number=:m", n=s["number"], m=f["number"])
        game.sql("UPDATE gm_phases SET number=:n WHERE game_id='t' AND number=-1", n=f["number"])
    swap()
    report = game.verify()
    assert named(report, s["ledger_seq"]) and named(report, f["ledger_seq"])
    swap()
    game.sql("DELETE FROM gm_phases WHERE game_id='t' AND phase=:p", p=f["phase"])
    game.sql("INSERT INTO gm_phases (game_id, phase, revision, number, current, rules, position, orders, results, next, "
             "winner, civil_disorder, adjudicated_at, ledger_seq, entry_hash) SELECT game_id, 'S1905M', revision, 99, "
             "current, rules, position, orders, results, next, winner, civil_disorder, adjudicated_at, ledger_seq, "
             "entry_hash FROM gm_phases WHERE game_id='t' AND phase=:p", p=s["phase"])
    report = game.verify()
    assert any(f"ledger entry {f['ledger_seq']}: the published F1901M (revision 0) is missing" in p for p in report.problems)
    assert any("holds S1905M (revision 0), which the ledger never published" in p for p in report.problems)


# -- press ------------------------------------------------------------------------------------------------------------------


def test_changed_deleted_inserted_and_reordered_press(game):
    rows = game.rows("gm_press", "number")
    letter = next(r for r in rows if r["text"] == "Bonjour")
    game.sql("UPDATE gm_press SET text='Guten Tag' WHERE game_id='t' AND number=:n", n=letter["number"])
    report = game.verify()
    assert any(p.startswith(f"ledger entry {letter['ledger_seq']} (press): the press table's item {letter['number']} "
                            "differs from this entry (text)") for p in report.problems)
    public = next(r for r in rows if r["text"] == "To all: peace")
    game.sql("UPDATE gm_press SET number=-1 WHERE game_id='t' AND number=:a", a=letter["number"])
    game.sql("UPDATE gm_press SET number=:a WHERE game_id='t' AND number=:b", a=letter["number"], b=public["number"])
    game.sql("UPDATE gm_press SET number=:b WHERE game_id='t' AND number=-1", b=public["number"])
    report = game.verify()
    assert named(report, letter["ledger_seq"]) and named(report, public["ledger_seq"])
    game.sql("DELETE FROM gm_press WHERE game_id='t' AND number=:n", n=public["number"])
    game.sql("INSERT INTO gm_press (game_id, number, phase, sent_at, sender, recipients, anonymous, text, ledger_seq) "
             "SELECT game_id, 99, phase, sent_at, sender, recipients, anonymous, 'forged', ledger_seq FROM gm_press "
             "WHERE game_id='t' AND number=:n", n=letter["number"])
    report = game.verify()
    assert any("the press table holds item 99, which the ledger never recorded" in p for p in report.problems)


# -- what the players see before the deadline ---------------------------------------------------------------------------


def test_a_late_submission_forged_into_the_ledger_is_found(game):
    """Orders accepted after the deadline (by anyone with the database) are named by verify."""
    clock = game.gm.desk.clock
    deadline = game.gm.games.game("t").deadline
    clock.set(deadline)
    clock.advance(seconds=60)
    with pytest.raises(Refused):
        game.order("FRANCE", "A Pic H")
    doc = game.state()
    doc["deadline"] = None  # a GM lifting the deadline without an entry saying so
    game.put_state(doc)
    late = game.order("FRANCE", "A Pic H")
    entry = game.entry("orders-submitted", lambda p: p["commitment"] == late.receipt.commitment)
    report = game.verify()
    assert any(p.startswith(f"ledger entry {entry['seq']} (orders-submitted): orders of FRANCE accepted after the "
                            "deadline") for p in report.problems)


def clock_now():
    from datetime import datetime, timezone
    return datetime(2030, 1, 1, tzinfo=timezone.utc)


def test_cached_tables_can_be_rebuilt_from_the_ledger(game):
    """What verify finds in the tables, the GM repairs from the ledger: rebuild, then verify holds."""
    game.sql("UPDATE gm_press SET text='edited' WHERE game_id='t'")
    game.sql("UPDATE gm_phases SET results=:r WHERE game_id='t'", r=json.dumps([]))
    doc = game.state()
    doc["title"] = "edited"
    game.put_state(doc)
    assert not game.verify().ok
    game.gm.desk.rebuild("t")
    assert game.verify(game.receipts, [str(game.head)]).ok


def test_a_rewritten_conditional_choice(store, clock):
    gm = Gamesmaster(store, clock)
    c = gm.setup.create_game("t", players=NAMES, assign=ASSIGN)
    cred_ = {ASSIGN[n]: c.credentials[n] for n in NAMES}
    gm.orders.submit_orders("t", "GERMANY", "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\n"
                     "otherwise: A Mun H\nadjustments:\nif Bel changes hands: A Ber B\n", credential=cred_["GERMANY"])
    gm.deadlines.process("t", force=True)
    game = Game.__new__(Game)
    game.store, game.gm = store, gm
    assert gm.record.verify("t").ok

    def chosen(r: dict, doc: dict) -> dict | None:
        if r["kind"] != "conditional-chosen":
            return None
        doc["condition"], doc["orders"] = "otherwise", ["A Mun H"]
        return doc
    seq = _rewrite(game, chosen)
    problems = gm.record.verify("t").problems
    assert any(p.startswith(f"ledger entry {seq} (conditional-chosen): the conditional orders chosen for GERMANY "
                            "are not those the conditions select") for p in problems), problems
    assert any("(orders-submitted): the conditional orders installed for GERMANY are not the clause chosen"
               in p for p in problems), problems

    def plans(r: dict, doc: dict) -> dict | None:
        if r["kind"] != "plan-read":  # the plans read at the deadline, recorded just before the results
            return None
        doc["plan"]["sections"] = []
        return doc
    seq = _rewrite(game, plans)
    problems = gm.record.verify("t").problems
    assert any(p.startswith(f"ledger entry {seq + 1} (phase-adjudicated): the conditional orders recorded are not those "
                            "filed") for p in problems), problems
