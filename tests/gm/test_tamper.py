"""Any edit of the stored record is reported by verify, with the entry it breaks."""

from __future__ import annotations

import json

from sqlalchemy import text

from gamesmaster.gm import Gamesmaster
from gamesmaster.ledger import Entry, canonical, entry_hash

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ASSIGN = dict(zip(NAMES, ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]))


def played(store, clock):
    gm = Gamesmaster(store, clock)
    c = gm.create_game("t", players=NAMES, assign=ASSIGN)
    sub = gm.submit_orders("t", "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao", credential=c.credentials["Bob"])
    gm.submit_orders("t", "GERMANY", "A Mun-Bur\nA Ber-Kie\nF Kie-Den", credential=c.credentials["Cat"])
    gm.post_press("t", "Bonjour", power="FRANCE", to=["GERMANY"], credential=c.credentials["Bob"])
    gm.process("t", force=True)
    later = gm.submit_orders("t", "ENGLAND", "F Lon-Nth", credential=c.credentials["Ann"])
    assert gm.verify("t", receipts=[str(sub.receipt), str(later.receipt)]).ok
    return gm, sub, later


def rows(store):
    with store.connect(write=False) as conn:
        return [dict(r._mapping) for r in conn.execute(text("SELECT * FROM gm_ledger WHERE game_id='t' ORDER BY seq"))]


def find(store, kind, pred=lambda p: True):
    return next(r for r in rows(store) if r["kind"] == kind and pred(json.loads(r["payload"])))


def execute(store, sql, **params):
    with store.connect() as conn:
        conn.execute(text(sql), params)


def test_changed_order_in_the_ledger(store, clock):
    gm, sub, _ = played(store, clock)
    row = find(store, "orders-submitted", lambda p: p["power"] == "FRANCE")
    execute(store, "UPDATE gm_ledger SET payload=:p WHERE game_id='t' AND seq=:s",
            p=row["payload"].replace("A Par-Bur", "A Par-Pic"), s=row["seq"])
    report = gm.verify("t", receipts=[str(sub.receipt)])
    assert not report.ok
    assert all(f"ledger entry {row['seq']}" in p for p in report.problems[:2])
    assert any("altered" in p for p in report.problems)
    assert any("receipt" in p for p in report.problems)  # the orders no longer hash to the receipt's


def test_changed_order_in_the_orders_table(store, clock):
    gm, _, _ = played(store, clock)
    execute(store, "UPDATE gm_orders SET texts=:t WHERE game_id='t' AND power='ENGLAND'", t=json.dumps(["F Lon-Eng"]))
    report = gm.verify("t")
    seq = find(store, "orders-submitted", lambda p: p["power"] == "ENGLAND")["seq"]
    assert report.problems == (f"ledger entry {seq} (orders-submitted): the stored orders of ENGLAND for F1901M "
                               "differ from the orders this entry records",)


def test_changed_result_in_the_phases_table(store, clock):
    gm, _, _ = played(store, clock)
    seq = find(store, "phase-adjudicated")["seq"]
    execute(store, "UPDATE gm_phases SET results=:r WHERE game_id='t'", r=json.dumps([]))
    report = gm.verify("t")
    assert any(p.startswith(f"ledger entry {seq} (phase-adjudicated): the stored results of S1901M") for p in report.problems)


def test_deleted_entry(store, clock):
    gm, _, _ = played(store, clock)
    press = find(store, "press", lambda p: p["text"] == "Bonjour")
    execute(store, "DELETE FROM gm_ledger WHERE game_id='t' AND seq=:s", s=press["seq"])
    report = gm.verify("t")
    assert any(f"entry {press['seq']} missing" in p for p in report.problems)
    assert any("(press): the stored press release differs" in p for p in report.problems)


def test_deleted_last_entry(store, clock):
    gm, _, _ = played(store, clock)
    last = rows(store)[-1]
    execute(store, "DELETE FROM gm_ledger WHERE game_id='t' AND seq=:s", s=last["seq"])
    report = gm.verify("t")
    assert any("entries were removed or added" in p for p in report.problems)


def test_reordered_entries(store, clock):
    gm, _, _ = played(store, clock)
    a = find(store, "orders-submitted", lambda p: p["power"] == "FRANCE")["seq"]
    b = a + 1
    execute(store, "UPDATE gm_ledger SET seq=-1 WHERE game_id='t' AND seq=:a", a=a)
    execute(store, "UPDATE gm_ledger SET seq=:a WHERE game_id='t' AND seq=:b", a=a, b=b)
    execute(store, "UPDATE gm_ledger SET seq=:b WHERE game_id='t' AND seq=-1", b=b)
    report = gm.verify("t")
    assert any(p.startswith(f"ledger entry {a}") for p in report.problems)
    assert any(p.startswith(f"ledger entry {b}") for p in report.problems)


def test_rewritten_chain_is_caught_by_replay_and_receipts(store, clock):
    """Whoever edits a result and recomputes every hash after it still fails the replay and the receipts."""
    gm, _, later = played(store, clock)
    entries = rows(store)
    forged: list[Entry] = []
    for r in entries:
        payload = r["payload"]
        if r["kind"] == "phase-adjudicated":
            doc = json.loads(payload)
            for res in doc["results"]:
                if res["order"] == "A PAR - BUR":
                    res["result"], res["reason"] = "succeeds", "moved"
            payload = canonical(doc)
        prev = forged[-1].hash if forged else "0" * 64
        forged.append(Entry(r["seq"], r["at"], r["kind"], payload, prev, entry_hash(prev, r["seq"], r["kind"], r["at"], payload)))
    for e in forged:
        execute(store, "UPDATE gm_ledger SET payload=:p, prev_hash=:ph, hash=:h WHERE game_id='t' AND seq=:s",
                p=e.payload_text, ph=e.prev_hash, h=e.hash, s=e.seq)
    execute(store, "UPDATE gm_games SET head_hash=:h WHERE id='t'", h=forged[-1].hash)
    report = gm.verify("t", receipts=[str(later.receipt)])
    assert any("published results of S1901M are not what the engine gives" in p for p in report.problems)
    assert any("does not match the receipt the player holds" in p for p in report.problems)
