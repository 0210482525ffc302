"""`verify`: walk a game's ledger, check every hash and receipt, and replay the game.

Every problem is reported with the ledger entry it breaks. What is checked:
- the chain: numbering without gaps, each entry linked to the one before, each hash
  recomputed from the entry's fields; the game's record of its last entry;
- every receipt: the orders in each submission hash to the receipt's orders hash, and
  receipts a player hands in (GAME#SEQ:ENTRYHASH:ORDERSHASH) match the entry they name;
- the lot: the recorded seed draws the recorded powers;
- every deadline: the orders used are the ones whose hashes were committed before the
  results were computed;
- every published result: the phase is adjudicated again through the engine from the
  recorded position and orders, and must give the recorded results and next position;
  each phase starts where the last one ended; conditional orders are chosen again;
- the tables kept beside the ledger (orders, phases, press, the game's position) must
  agree with the ledger entries they came from.
"""

from __future__ import annotations

import json
import random
from typing import Any, Sequence

from ..ledger import Entry, canonical, check_chain, orders_hash, parse_receipt
from ..rules import OptionError, Position, PositionError, adjudicate
from ..store import Records
from ..variants import VariantError, load_rules, load_variant
from .conditional import evaluate, parse_conditional
from .errors import GMError
from .views import VerifyReport


def verify_game(rec: Records, game_id: str, receipts: Sequence[str] = ()) -> VerifyReport:
    entries = rec.entries(game_id)
    return verify_entries(game_id, entries, rec=rec, receipts=receipts)


def verify_entries(game_id: str, entries: list[Entry], rec: Records | None = None,
                   receipts: Sequence[str] = (), game_row: dict[str, Any] | None = None) -> VerifyReport:
    """Verify a ledger (from the store, with its tables, or from an archive with rec None)."""
    problems: list[str] = [str(p) for p in check_chain(entries)]
    by_seq = {e.seq: e for e in entries}
    row = game_row if game_row is not None else (rec.game(game_id) if rec is not None else None)
    if row is not None and entries:
        last = entries[-1]
        if (row.get("head_seq"), row.get("head_hash")) != (last.seq, last.hash):
            problems.append(f"ledger entry {last.seq}: the ledger ends here, but the game's record says it ends at "
                            f"entry {row.get('head_seq')} ({str(row.get('head_hash'))[:12]}...): entries were removed or added")
    replay = _Replay(game_id, problems, by_seq)
    for e in entries:
        try:
            payload = json.loads(e.payload_text)
        except ValueError:
            continue  # reported by the chain check
        try:
            replay.step(e, payload)
        except (KeyError, TypeError, ValueError, VariantError, OptionError, PositionError, GMError) as exc:
            problems.append(f"ledger entry {e.seq} ({e.kind}): cannot be read back: {exc}")
    checked = replay.receipts
    for text in receipts:
        checked += 1
        problems.extend(_check_receipt(game_id, text, by_seq))
    if rec is not None:
        _check_tables(rec, game_id, by_seq, replay, problems)
    return VerifyReport(game_id, len(entries), replay.replayed, checked, tuple(problems))


class _Replay:
    """The game played again from its ledger."""

    def __init__(self, game_id: str, problems: list[str], by_seq: dict[int, Entry]) -> None:
        self.game_id = game_id
        self.problems = problems
        self.by_seq = by_seq
        self.variant = None
        self.position: dict[str, Any] | None = None
        self.closed: dict[str, Any] | None = None
        self.phases: dict[str, dict[str, Any]] = {}  # phase -> latest adjudication payload
        self.used: dict[str, dict[str, int]] = {}  # phase -> power -> ledger seq of the orders used
        self.last_phase: str | None = None
        self.replayed = 0
        self.receipts = 0

    def bad(self, e: Entry, message: str) -> None:
        self.problems.append(f"ledger entry {e.seq} ({e.kind}): {message}")

    def step(self, e: Entry, p: dict[str, Any]) -> None:
        kind = e.kind
        if kind == "game-created":
            self.variant = load_variant(p["variant"])
        elif kind == "lots-drawn":
            drawn = random.Random(p["seed"]).sample(p["all_powers"], len(p["players"]))
            if dict(zip(p["players"], drawn)) != p["powers"]:
                self.bad(e, f"the seed {p['seed']} does not draw the recorded powers")
        elif kind == "game-started":
            self.position = p["position"]
        elif kind == "orders-submitted":
            self.receipts += 1
            if orders_hash(p["phase"], p["power"], p["orders"], p.get("conditional")) != p["orders_hash"]:
                self.bad(e, f"the orders of {p['power']} for {p['phase']} do not match their receipt hash "
                         f"{p['orders_hash'][:12]}...: the stored orders were changed")
            if self.position is not None and p["phase"] != self.position.get("phase"):
                self.bad(e, f"orders for {p['phase']} taken while the game was in {self.position.get('phase')}")
            note = p.get("note") or {}
            if p.get("channel") == "conditional" and note.get("filed_phase"):
                chosen = (self.phases.get(note["filed_phase"], {}).get("conditional") or {}).get(p["power"])
                if not chosen or chosen.get("orders") != p["orders"] or chosen.get("condition") != note.get("condition"):
                    self.bad(e, f"the conditional orders installed for {p['power']} are not the clause chosen in "
                             f"{note['filed_phase']}")
        elif kind == "deadline-closed":
            self.closed = p
            if self.position is not None and p["phase"] != self.position.get("phase"):
                self.bad(e, f"deadline of {p['phase']} closed while the game was in {self.position.get('phase')}")
            for power, info in p["orders"].items():
                sub = self.by_seq.get(info["ledger_seq"])
                if sub is None or sub.kind != "orders-submitted":
                    self.bad(e, f"{power}'s orders are said to be at entry {info['ledger_seq']}, which holds no orders")
                    continue
                sp = _payload(sub)
                if sp is None or sp.get("orders_hash") != info["orders_hash"] or sp.get("power") != power:
                    self.bad(e, f"{power}'s committed orders hash does not match entry {sub.seq}")
        elif kind == "phase-adjudicated":
            self.adjudicated(e, p, correction=False)
        elif kind == "correction":
            self.adjudicated(e, p, correction=True)

    def adjudicated(self, e: Entry, p: dict[str, Any], correction: bool) -> None:
        if self.variant is None:
            self.bad(e, "a phase adjudicated before the game was created")
            return
        phase = p["phase"]
        if correction:
            before = self.phases.get(phase)
            if before is None or phase != self.last_phase:
                self.bad(e, f"corrects {phase}, which is not the last published phase")
            elif canonical(before["position"]) != canonical(p["position"]):
                self.bad(e, f"the corrected {phase} does not start from the position the original started from")
        else:
            if self.position is None or canonical(self.position) != canonical(p["position"]):
                self.bad(e, f"{phase} does not start where the previous phase ended")
            closed = self.closed
            if closed is not None and closed.get("phase") == phase:
                self.used[phase] = {pw: info.get("ledger_seq") for pw, info in closed["orders"].items()}
            if closed is None or closed.get("phase") != phase:
                self.bad(e, f"no deadline was closed for {phase} before its results were computed")
            else:
                used = {pw: self._hash_of(closed, pw) for pw in closed["orders"]}
                if set(used) != set(p["orders"]):
                    self.bad(e, "the powers whose orders were used differ from those committed at the deadline")
                for pw, texts in p["orders"].items():
                    sub = _payload(self.by_seq.get(closed["orders"].get(pw, {}).get("ledger_seq", -1)))
                    if sub is not None and sub.get("orders") != texts:
                        self.bad(e, f"the orders used for {pw} are not the orders committed at the deadline")
            self.closed = None
        variant = self.variant
        position = Position.from_dict(variant, p["position"])
        options = load_rules(p["rules"], default=variant.default_rules)
        adj = adjudicate(position, p["orders"], options)
        results = [o.as_dict() for o in adj.outcomes]
        if canonical(results) != canonical(p["results"]):
            diff = _first_difference(p["results"], results)
            self.bad(e, f"the published results of {phase} are not what the engine gives: {diff}")
        if canonical(adj.next.to_dict()) != canonical(p["next"]):
            self.bad(e, f"the published position after {phase} is not what the engine gives")
        if adj.winner != p.get("winner"):
            self.bad(e, f"the published winner ({p.get('winner')}) is not the engine's ({adj.winner})")
        dislodged = [str(d.unit) for d in adj.dislodged]
        for power, chosen in (p.get("conditional") or {}).items():
            sub = self._conditional_text(power, p, e)
            if sub is None:
                continue
            try:
                clause = evaluate(parse_conditional(sub, position, power, options), results, dislodged)
            except GMError:
                clause = None
            want = None if clause is None else {"condition": clause.label, "orders": list(clause.orders)}
            if want != chosen:
                self.bad(e, f"the conditional orders chosen for {power} are not those its conditions select")
        self.replayed += 1
        self.phases[phase] = p
        self.last_phase = phase
        self.position = p["next"]

    def _hash_of(self, closed: dict[str, Any], power: str) -> str:
        return closed["orders"][power]["orders_hash"]

    def _conditional_text(self, power: str, p: dict[str, Any], e: Entry) -> str | None:
        """The conditional part filed with the orders used for a power at the phase's deadline."""
        sub = _payload(self.by_seq.get(self.used.get(p["phase"], {}).get(power, -1)))
        if sub is None:
            self.bad(e, f"conditional orders are recorded for {power}, but no orders of {power} were committed")
            return None
        return sub.get("conditional")


def _payload(e: Entry | None) -> dict[str, Any] | None:
    if e is None:
        return None
    try:
        return json.loads(e.payload_text)
    except ValueError:
        return None


def _first_difference(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    for a, b in zip(want, got):
        if a != b:
            return (f"{a.get('power')} {a.get('text')!r}: published {a.get('order')} {a.get('result')} "
                    f"({a.get('reason')}), engine {b.get('order')} {b.get('result')} ({b.get('reason')})")
    return f"{len(want)} results published, the engine gives {len(got)}"


def _check_receipt(game_id: str, text: str, by_seq: dict[int, Entry]) -> list[str]:
    try:
        game, seq, entry_h, orders_h = parse_receipt(text)
    except ValueError as exc:
        return [f"receipt {text!r}: {exc}"]
    if game != game_id:
        return [f"receipt {text!r} is for game {game}, not {game_id}"]
    e = by_seq.get(seq)
    if e is None:
        return [f"ledger entry {seq}: missing, but receipt {text[:40]}... names it"]
    p = _payload(e) or {}
    if e.hash != entry_h:
        return [f"ledger entry {seq} ({e.kind}): does not match the receipt the player holds (entry hash "
                f"{e.hash[:12]}..., receipt {entry_h[:12]}...)"]
    if e.kind != "orders-submitted" or p.get("orders_hash") != orders_h:
        return [f"ledger entry {seq} ({e.kind}): the orders recorded are not those of the receipt"]
    return []


def _check_tables(rec: Records, game_id: str, by_seq: dict[int, Entry], replay: _Replay, problems: list[str]) -> None:
    row = rec.game(game_id) or {}
    if replay.position is not None and row.get("position") is not None:
        if canonical(row["position"]) != canonical(replay.position):
            problems.append(f"ledger entry {max(by_seq) if by_seq else 0}: the game's stored position is not the one "
                            "the ledger's last published phase leads to")
    for o in rec.orders(game_id):
        e = by_seq.get(o["ledger_seq"])
        p = _payload(e) if e is not None and e.kind == "orders-submitted" else None
        if p is None or (p["phase"], p["power"], p["orders"], p.get("conditional"), p["orders_hash"]) != (
                o["phase"], o["power"], list(o["texts"]), o["conditional"], o["orders_hash"]):
            problems.append(f"ledger entry {o['ledger_seq']} (orders-submitted): the stored orders of {o['power']} for "
                            f"{o['phase']} differ from the orders this entry records")
    for ph in rec.phases(game_id):
        e = by_seq.get(ph["ledger_seq"])
        p = _payload(e) if e is not None and e.kind in ("phase-adjudicated", "correction") else None
        if p is None or p["phase"] != ph["phase"] or canonical(p["results"]) != canonical(ph["results"]) \
                or canonical(p["next"]) != canonical(ph["next"]) \
                or canonical({k: v["texts"] for k, v in ph["orders"].items()}) != canonical(p["orders"]):
            problems.append(f"ledger entry {ph['ledger_seq']} ({e.kind if e else 'missing'}): the stored results of "
                            f"{ph['phase']} differ from those this entry published")
    for pr in rec.press(game_id):
        e = by_seq.get(pr["ledger_seq"])
        p = _payload(e) if e is not None and e.kind == "press" else None
        if p is None or (p["sender"], p["to"], p["anonymous"], p["text"]) != (pr["sender"], pr["recipients"],
                                                                              pr["anonymous"], pr["text"]):
            problems.append(f"ledger entry {pr['ledger_seq']} (press): the stored press release differs from this entry")
