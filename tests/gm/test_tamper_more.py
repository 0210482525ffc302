"""More edits an attacker with the database (or with the clock) may try, and the one `verify` must name.

These go beyond test_tamper: edits of the caches made only for as long as one action
needs them and then repaired (`rebuild`), which leave a ledger that is consistent but
records a ruling the game's rules forbid; times written out of order; entries dropped with
the chain recomputed; a public record with entries sealed that must be public.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from gamesmaster.gm import Gamesmaster, Refused, Settings
from gamesmaster.gm.record import verify_archive
from gamesmaster.ledger import GENESIS, Entry, canonical, commitment, entry_hash, sha256

from test_tamper import ASSIGN, NAMES, Game


@pytest.fixture
def game(store, clock) -> Game:
    return Game(store, clock)


def rechain(game: Game, keep) -> list[Entry]:
    """Write the ledger again from the rows keep() lets through (payloads as keep() returns them), renumbered,
    every hash recomputed, and the caches rebuilt from it: a ledger consistent in itself."""
    out: list[Entry] = []
    for r in game.entries():
        payload = keep(r, json.loads(r["payload"]))
        if payload is None:
            continue
        text = canonical(payload)
        seq = len(out) + 1
        prev = out[-1].hash if out else GENESIS
        out.append(Entry(seq, r["at"], r["kind"], text, prev, entry_hash(prev, seq, r["kind"], r["at"], sha256(text))))
    game.sql("DELETE FROM gm_ledger WHERE game_id='t'")
    for e in out:
        game.sql("INSERT INTO gm_ledger (game_id, seq, at, kind, payload, prev_hash, hash) VALUES "
                 "('t', :s, :a, :k, :p, :ph, :h)", s=e.seq, a=e.at, k=e.kind, p=e.payload_text, ph=e.prev_hash, h=e.hash)
    game.gm = Gamesmaster(game.store, game.gm.desk.clock)
    try:
        game.gm.desk.rebuild("t")
    except ValueError:
        pass  # a ledger the caches cannot be folded from: they stay as they were, and verify says why
    return out


def problem(report, seq: int, kind: str, words: str) -> bool:
    return any(p.startswith(f"ledger entry {seq} ({kind}): ") and words in p for p in report.problems)


# -- the clock ---------------------------------------------------------------------------------------------------------


def test_a_late_set_written_with_an_earlier_time_is_found(game):
    """After the deadline, a set is written straight into the ledger with a time before it, every hash
    recomputed: its time comes before the entry before it, which verify names."""
    clock = game.gm.desk.clock
    deadline = game.gm.games.game("t").deadline
    clock.set(deadline + timedelta(minutes=1))
    with pytest.raises(Refused):
        game.order("ENGLAND", "F Lon-Eng")  # on the record, after the deadline
    # the gamesmaster itself will not date anything before its last entry, even with its clock set back
    clock.set(deadline - timedelta(minutes=1))
    with pytest.raises(Refused):
        game.order("ENGLAND", "F Lon-Eng")
    last = game.entries()[-1]
    p = json.loads(game.entry("orders-submitted", lambda p: p["power"] == "ENGLAND")["payload"])
    p.update(number=2, orders=["F Lon-Eng"])
    p["commitment"] = commitment(p["phase"], "ENGLAND", 2, p["orders"], None, p["salt"])
    forged = Entry.following(last["seq"], last["hash"], "orders-submitted", p, deadline - timedelta(minutes=1))
    game.sql("INSERT INTO gm_ledger (game_id, seq, at, kind, payload, prev_hash, hash) VALUES "
             "('t', :s, :a, :k, :p, :ph, :h)", s=forged.seq, a=forged.at, k=forged.kind, p=forged.payload_text,
             ph=forged.prev_hash, h=forged.hash)
    game.gm = Gamesmaster(game.store, clock)
    game.gm.desk.rebuild("t")
    clock.set(deadline + timedelta(minutes=2))
    game.gm.deadlines.process("t")
    receipt = f"t/{p['phase']}/ENGLAND/2:{p['commitment']}"
    for receipts in ((), [receipt]):
        report = game.verify(receipts)
        assert problem(report, forged.seq, "orders-submitted", "is dated before the entry before it"), report.problems


def test_an_on_time_set_refused_as_late(game):
    """The cached deadline is set back for one submission (then the caches are rebuilt): the refusal says late,
    but the ledger's deadline had not passed."""
    doc = game.state()
    doc["deadline"] = (game.gm.desk.clock() - timedelta(hours=1)).isoformat()
    game.put_state(doc)
    with pytest.raises(Refused, match="late"):
        game.order("FRANCE", "A Pic-Bel")
    game.gm.desk.rebuild("t")
    refused = game.entry("orders-refused")
    report = game.verify()
    assert problem(report, refused["seq"], "orders-refused", "refused as late, but the deadline"), report.problems


def test_orders_refused_as_for_another_phase_when_they_named_this_one(game):
    """A refusal for another phase must name a phase other than the one open."""
    with pytest.raises(Refused):
        game.gm.orders.submit_orders("t", "FRANCE", "A Pic H", credential=game.cred["FRANCE"], phase="S1901M")

    def forged(r, p):
        if r["kind"] == "orders-refused":
            p["named"] = "F1901M"
        return p
    out = rechain(game, forged)
    seq = next(e.seq for e in out if e.kind == "orders-refused")
    assert problem(game.verify(), seq, "orders-refused", "named the phase open"), game.verify().problems


def test_a_movement_processed_early_without_everyone_ready(game):
    """The cached state marks every player ready for one action: the phase is closed 'early', which the
    ledger's own readiness does not allow."""
    doc = game.state()
    doc["settings"]["early_movement"] = True
    for seat in doc["seats"]:
        seat["ready"] = True
    game.put_state(doc)
    for power in ASSIGN.values():
        if not any(o["power"] == power for o in doc["orders"]):
            game.order(power, "")
    game.gm.desk.rebuild("t")
    closed = game.entry("deadline-closed", lambda p: p["phase"] == "F1901M")
    assert closed is not None and json.loads(closed["payload"])["trigger"] == "early"
    report = game.verify()
    assert problem(report, closed["seq"], "deadline-closed", "closed early"), report.problems


def test_the_grace_period_skipped(store, clock):
    """A game with a grace period: its deadline is closed with powers missing, without the grace it promises."""
    gm = Gamesmaster(store, clock)
    gm.setup.create_game("t", players=NAMES, assign=ASSIGN, settings=Settings.from_dict({"grace_hours": 24}))
    g = Game.__new__(Game)
    g.store, g.gm = store, gm
    doc = g.state()
    doc["grace_used"] = True  # the cache says the grace was given already
    g.put_state(doc)
    clock.set(g.gm.games.game("t").deadline + timedelta(minutes=1))
    g.gm.deadlines.process("t")
    g.gm.desk.rebuild("t")
    closed = g.entry("deadline-closed")
    report = g.verify()
    assert problem(report, closed["seq"], "deadline-closed", "grace period"), report.problems


def test_a_time_written_otherwise(game):
    """The same moment written another way, every hash recomputed: the entry is named."""
    rows = game.entries()
    target = next(r for r in rows if r["kind"] == "ready" or r["kind"] == "press")
    out: list[Entry] = []
    for r in rows:
        at = r["at"].replace(".000000Z", "Z").replace("T", " ") if r["seq"] == target["seq"] else r["at"]
        prev = out[-1].hash if out else GENESIS
        out.append(Entry(r["seq"], at, r["kind"], r["payload"], prev,
                         entry_hash(prev, r["seq"], r["kind"], at, sha256(r["payload"]))))
    for e in out:
        game.sql("UPDATE gm_ledger SET at=:a, prev_hash=:ph, hash=:h WHERE game_id='t' AND seq=:s",
                 a=e.at, ph=e.prev_hash, h=e.hash, s=e.seq)
    report = game.verify()
    assert problem(report, target["seq"], target["kind"], "is not written as the ledger writes times"), report.problems


# -- entries dropped or moved, the chain recomputed ---------------------------------------------------------------------


def test_a_submission_moved_to_another_phase(game):
    def moved(r, p):
        if r["kind"] == "orders-submitted" and p["power"] == "ENGLAND" and p["phase"] == "F1901M":
            p["phase"] = "S1901M"
        return p
    out = rechain(game, moved)
    seq = next(e.seq for e in out if e.kind == "orders-submitted" and e.payload["power"] == "ENGLAND")
    report = game.verify()
    assert problem(report, seq, "orders-submitted", "taken while the game was in F1901M"), report.problems


def test_a_withdrawal_dropped(store, clock):
    """France withdrew and was in civil disorder: the withdrawal is taken out, the chain recomputed, the caches
    rebuilt; the deadline's ruling then contradicts the record."""
    g = Game(store, clock)
    g.gm.orders.withdraw_orders("t", "ENGLAND", credential=g.cred["ENGLAND"])
    g.gm.deadlines.process("t", force=True)
    out = rechain(g, lambda r, p: None if r["kind"] == "orders-withdrawn" else p)
    closed = next(e for e in out if e.kind == "deadline-closed" and e.payload["phase"] == "F1901M")
    report = g.verify()
    assert problem(report, closed.seq, "deadline-closed", "ENGLAND ruled in civil disorder, but had orders"), \
        report.problems


def test_a_correction_erased(game):
    """A correction and what follows it are taken out, the chain recomputed and the caches rebuilt: only the
    head the correction published can tell, and it does."""
    game.gm.corrections.correct("t", "France's orders were mistyped", orders={"FRANCE": "A Par-Pic\nA Mar-Spa\nF Bre-Mao"})
    head = game.gm.games.game("t").head
    correction = game.entry("correction")
    assert head.seq >= correction["seq"]  # the correction's announcement carries a head that covers it
    rechain(game, lambda r, p: None if r["seq"] >= correction["seq"] else p)
    assert game.verify().ok  # consistent in itself
    report = game.verify(heads=[str(head)])
    assert any(p.startswith(f"ledger entry {head.seq}") for p in report.problems), report.problems


# -- a public record with entries sealed that must be public -------------------------------------------------------------


def test_a_public_record_that_seals_what_must_be_public(game):
    """A copy of the public record with its hashes intact, but with a withdrawal, a refusal or a GM action
    of a published phase sealed (its contents hidden): verify --archive names each."""
    game.gm.orders.withdraw_orders("t", "ENGLAND", credential=game.cred["ENGLAND"])
    game.gm.deadlines.extend("t", hours=1)
    game.gm.deadlines.process("t", force=True)
    doc = game.gm.record.archive("t")
    assert verify_archive(doc).ok
    for kind in ("orders-withdrawn", "gm-action", "orders-submitted"):
        bad = json.loads(json.dumps(doc))
        e = next(x for x in bad["entries"] if x["kind"] == kind and "payload" in x)
        e["payload_sha256"] = sha256(e.pop("payload"))
        report = verify_archive(bad)
        assert any(p.startswith(f"ledger entry {e['seq']} ({kind}): sealed") for p in report.problems), \
            (kind, report.problems)


# -- the games row ----------------------------------------------------------------------------------------------------------


def test_a_changed_creation_time(game):
    game.sql("UPDATE gm_games SET created_at=:t WHERE id='t'", t=(game.gm.desk.clock() - timedelta(days=30)).replace(tzinfo=None))
    report = game.verify()
    assert any(p.startswith("ledger entry 1 (game-created): the games table's created_at") for p in report.problems), \
        report.problems
