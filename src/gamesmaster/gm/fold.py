"""Folding a game's ledger into its state: the one place that says what each entry means.

`apply(state, entry)` is the effect of one entry; `fold(entries)` replays a whole ledger
from its first entry. The gamesmaster applies each entry it appends, to keep its cached
state; `verify` folds the ledger again from nothing and compares. Decisions are not
made here (who may order, what the orders mean, how the phase comes out): the entries
record them, and `verify` checks them.

Besides the new state, `apply` returns the cache rows the entry adds: a published phase
(and the superseding of the revision it corrects), or a press item.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

from ..ledger import Entry, parse_stamp
from ..rules import Phase
from ..rules.conditional import order_key
from ..store.repo import PhaseRow, PressRow
from .live import LiveConfig, LiveState
from .settings import Settings
from . import keys
from .state import (FORMER, PLAYER, Dispute, Ending, GameState, KeyOnRecord, Live, OrderSet, Pending, Proposal,
                    Question, Seat, owners, replace_seat)


@dataclass(frozen=True)
class Superseded:
    """A correction replaced the current revision of this phase (the phase played `number`th)."""

    game_id: str
    phase: str
    number: int


CacheRow = PhaseRow | PressRow | Superseded


class FoldError(ValueError):
    """An entry the state cannot take (out of place, or unreadable); the message says why."""


def fold(entries: Iterable[Entry], game_id: str | None = None) -> tuple[GameState | None, list[CacheRow]]:
    """A whole ledger replayed from its first entry: the state it ends in and every cache row."""
    state: GameState | None = None
    rows: list[CacheRow] = []
    for entry in entries:
        state, added = apply(state, entry, game_id)
        rows.extend(added)
    return state, rows


def apply(state: GameState | None, entry: Entry, game_id: str | None = None) -> tuple[GameState, list[CacheRow]]:
    """The state after one entry, and the cache rows the entry adds."""
    if state is None:
        if entry.kind != "game-created" or entry.payload_text is None:
            raise FoldError(f"the ledger must begin with the game's creation, not {entry.kind}")
        return _created(entry, game_id or ""), []
    step = _STEPS.get(entry.kind)
    if step is None:
        raise FoldError(f"unknown kind of entry {entry.kind!r}")
    payload = entry.payload
    rows: list[CacheRow] = []
    if payload is None:  # a sealed entry (a public copy): only what everyone may know of it
        new = _sealed(state, entry)
    else:
        new = step(state, payload, entry, rows)
        by = payload.get("by") if entry.kind in SIGNED else None
        if isinstance(by, Mapping) and isinstance(by.get("proof"), Mapping):
            new = keys.spent(new, by["proof"])
    new = new.evolve(head_seq=entry.seq, head_hash=entry.hash)
    if entry.kind in PUBLISHING:
        new = new.evolve(public_seq=entry.seq, public_hash=entry.hash)
    return new, rows


# Entries a seat makes, each proved with one use of a key of the seat (gm.keys) when its `by` names a player.
SIGNED = frozenset({"orders-submitted", "orders-withdrawn", "ready", "draw-vote", "player-resigned", "press",
                    "key-added", "set-disputed", "seat-claimed"})

# Entries that publish: everything up to them is public (private letters sealed). A correction
# publishes too: its announcement carries the head, so that erasing it later breaks a head players hold.
PUBLISHING = frozenset({"game-started", "phase-opened", "game-ended", "correction"})


def _sealed(state: GameState, entry: Entry) -> GameState:
    if entry.kind == "press":
        return state.evolve(press_count=state.press_count + 1)
    return state


def _created(entry: Entry, game_id: str) -> GameState:
    p = entry.payload
    settings = Settings.from_dict(p["settings"])
    return GameState(id=game_id or p.get("id", ""), title=p["title"], variant_name=p["variant"], rules_spec=p["rules"],
                     settings=settings, created=entry.at, start_position=p.get("position"),
                     head_seq=entry.seq, head_hash=entry.hash, keyed=bool(p.get("keys")))


# -- players -------------------------------------------------------------------------------------


def _joined(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    number = int(p["player"])
    if number != len(s.seats) + 1:
        raise FoldError(f"player {number} joins out of turn (there are {len(s.seats)} players)")
    seat = Seat(number, p["name"], p["role"], _powers(p.get("powers") or ()), None, int(p.get("rank") or 0), p["key"])
    return _with_key(s.evolve(seats=s.seats + (seat,)), p.get("credential_key"))


def _with_key(s: GameState, key: Any) -> GameState:
    """The state with a key given on the record (a credential's, or a session's)."""
    if not isinstance(key, Mapping):
        return s
    kept = KeyOnRecord(int(key["player"]), str(key["salt"]), str(key["anchor"]), str(key["anchor"]), 0,
                       "session" if key.get("kind") == "session" else "credential")
    return s.evolve(keys={**s.keys, str(key["id"]): kept})


def _key_added(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return _with_key(s, p["key"])


def _disputed(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    by = p.get("by")
    player = int(by["player"]) if isinstance(by, Mapping) else 0
    dispute = Dispute(e.seq, str(p["phase"]), str(p["power"]), int(p["number"]), player, str(p.get("text") or ""))
    return s.evolve(disputes=s.disputes + (dispute,))


def _credential(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    # A new credential ends an account's hold on the seat too: it was claimed by the old one, or the
    # GM issued a new one because someone else had it.
    # And every key of the seat: the old credential proved them.
    claims = {k: v for k, v in s.claims.items() if k != str(p["player"])}
    kept = {k: v for k, v in s.keys.items() if v.player != int(p["player"])}
    return _with_key(s.evolve(seats=replace_seat(s.seats, int(p["player"]), key=p["key"]), claims=claims, keys=kept),
                     p.get("credential_key"))


def _claimed(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    number = str(int(p["player"]))
    if s.seat(int(number)) is None:
        raise FoldError(f"player {number} is claimed, but the record never signed them up")
    seeking = s.seeking
    if p.get("power"):
        seeking = {**seeking, "choices": {**(seeking.get("choices") or {}), number: p["power"]}}
    return s.evolve(claims={**s.claims, number: p["account"]}, seeking=seeking)


def _drawn(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    drawn = p["powers"]  # player name -> power, or powers where one player commands several
    seats = tuple(replace(x, powers=_powers(drawn[x.name])) if x.role == PLAYER and x.name in drawn else x
                  for x in s.seats)
    return s.evolve(seats=seats)


def _powers(value: Any) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _started(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    seeking = {**s.seeking, "open": False} if s.seeking else s.seeking  # a started game seeks nobody
    return _new_phase(s.evolve(status="active", seeking=seeking), p["position"]).evolve(deadline=p.get("deadline"), phase_opened=e.seq)


def _standby_called(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    # Called for a seat, the stand-by may order for every power of it (older entries name one power).
    return s.evolve(seats=replace_seat(s.seats, int(p["standby"]), standby_for=p["power"],
                                       stands_for=_powers(p.get("powers") or ())))


def _standby_released(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(seats=replace_seat(s.seats, int(p["standby"]), standby_for=None, stands_for=()))


def _replaced(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    # The powers taken over: every power of the seat left (a replacement), or the one a
    # stand-by took over; a player who still commands other powers keeps them.
    moved = _powers(p.get("powers") or p["power"])
    seats = s.seats
    if p.get("old") is not None:
        old = s.seat(int(p["old"]))
        kept = tuple(x for x in old.powers if x not in moved) if old is not None else ()
        seats = replace_seat(seats, int(p["old"]), powers=kept) if kept else \
            replace_seat(seats, int(p["old"]), role=FORMER, ready=False)
    new = s.seat(int(p["new"]))
    had = new.powers if new is not None and new.role == PLAYER else ()
    seats = replace_seat(seats, int(p["new"]), role=PLAYER, powers=had + tuple(x for x in moved if x not in had),
                         standby_for=None, stands_for=(), missed=0)
    return s.evolve(seats=seats)


def _coin_tossed(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(coin_toss={"power": p["power"], "winner": list(p["winner"]), "name": p["name"],
                               "joins": p["joins"], "joined": False})


def _power_joined(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    seats = s.seats
    if p.get("player") is not None:
        seat = s.seat(int(p["player"]))
        if seat is None or seat.role != PLAYER:
            raise FoldError(f"{p['power']} joins player {p['player']}, who plays nothing in {s.id}")
        seats = replace_seat(seats, seat.number, powers=seat.powers + (p["power"],))
    return s.evolve(seats=seats, coin_toss={**s.coin_toss, "joined": True})


def _resigned(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p.get("successor"):
        return s  # the successor's joining and taking over are entries of their own
    return s.evolve(seats=replace_seat(s.seats, int(p["player"]), role=FORMER, ready=False))


# -- orders ----------------------------------------------------------------------------------------


def _submitted(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p["phase"] != s.phase:
        raise FoldError(f"orders for {p['phase']} taken while the game was in {s.phase}")
    note = p.get("note") or {}
    conditional, plans = p.get("conditional"), s.filed_plans
    if p.get("plan"):  # the text is in the plan-filed entry before (None where a public copy seals it)
        conditional = plans.get(p["plan"])
        plans = {k: v for k, v in plans.items() if k != p["plan"]}
    new = OrderSet(e.seq, int(p["number"]), p["power"], p["author"], tuple(p["orders"]), conditional,
                   p["channel"], p["entered_by"], p["commitment"], e.at, note.get("condition"), note.get("filed_phase"))
    kept = tuple(o for o in s.orders if not (o.power == new.power and o.author == new.author))
    return s.evolve(orders=kept + (new,), counts={**s.counts, new.power: new.number}, filed_plans=plans)


def _plan_filed(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p["phase"] != s.phase:
        raise FoldError(f"conditional orders filed with {p['phase']} while the game was in {s.phase}")
    return s.evolve(filed_plans={**s.filed_plans, e.payload_digest: p["conditional"]})


def _plan_read(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    # read at a deadline (the phase open) or for a correction (the phase last published): the results follow
    return s.evolve(plans_read={**s.plans_read, p["power"]: p["plan"]})


def _conditional_chosen(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p["phase"] != s.phase:
        raise FoldError(f"conditional orders for {p['phase']} chosen while the game was in {s.phase}")
    return s.evolve(pending=tuple(x for x in s.pending if not (
        x.power == p["power"] and x.phase == p["phase"] and x.filed_phase == p["filed_phase"])))


def _withdrawn(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(orders=tuple(o for o in s.orders if not (o.power == p["power"] and o.author == p["author"])))


def _ready(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    holder = s.holder(p["power"])
    if holder is None:
        return s
    return s.evolve(seats=replace_seat(s.seats, holder.number, ready=bool(p["ready"])))


def _nothing(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return s


# -- phases ------------------------------------------------------------------------------------------


def _phase_row(s: GameState, p: Mapping[str, Any], e: Entry, number: int) -> PhaseRow:
    used = p.get("used") or {}
    orders = {power: {"texts": list(texts), **(used.get(power) or {})} for power, texts in p["orders"].items()}
    return PhaseRow(s.id, p["phase"], int(p["revision"]), number, True, p["rules"], p["position"], orders,
                    p["results"], p["next"], p.get("winner"), list(p.get("civil_disorder") or ()),
                    parse_stamp(e.at), e.seq, e.hash)


def _filed(s: GameState, p: Mapping[str, Any]) -> tuple[Pending, ...]:
    """Pending conditional orders after a phase (re)adjudicated: those still to come, with the ones it filed.

    A later filing for the same power and phase replaces an earlier one; orders for a
    phase the game passed over (no retreats, no adjustments) lapse."""
    phase, nxt = p["phase"], order_key(Phase.parse(p["next"]["phase"]))
    succeeded = tuple(sorted({str(r["order"]) for r in p["results"] if r.get("order") and r.get("result") == "succeeds"}))
    centres = owners(p["position"])
    plans = {**(p.get("plans") or {}), **s.plans_read}  # in the results (older records), or entries of their own
    new = tuple(Pending(power, phase, sec["phase"], sec, succeeded, tuple(p.get("dislodged") or ()), centres)
                for power, plan in sorted(plans.items()) for sec in plan.get("sections") or ()
                if order_key(Phase.parse(sec["phase"])) >= nxt)
    taken = {(x.power, x.phase) for x in new}
    kept = tuple(x for x in s.pending if x.filed_phase != phase and (x.power, x.phase) not in taken
                 and order_key(x.target) >= nxt)
    return kept + new


def _new_phase(s: GameState, nxt: Mapping[str, Any]) -> GameState:
    """The state moved on to the position a phase led to: orders, readiness and the grace period start afresh."""
    phase = Phase.parse(nxt["phase"])
    spring = dict(s.spring_centres)
    if phase.season == "S" and phase.is_movement:
        spring[str(phase.year)] = {pw: tuple(cs) for pw, cs in (nxt.get("centers") or {}).items() if cs}
    new_year = phase.season == "S" and phase.is_movement
    # A retreat phase played again (Calhamer's second round) numbers its sets on from the first
    # round's, so that every set's receipt names one set.
    counts = s.counts if str(phase) == s.phase else {}
    return s.evolve(phase=str(phase), position_doc=nxt, orders=(), counts=counts, grace_used=False, deadline=None,
                    awaiting={}, filed_plans={},
                    deadlock_year=None if new_year else s.deadlock_year, spring_centres=spring,
                    seats=tuple(replace(x, ready=False) if x.ready else x for x in s.seats))


def _lapse(proposals: tuple[Proposal, ...]) -> tuple[Proposal, ...]:
    return tuple(replace(x, status="lapsed") if x.status == "open" else x for x in proposals)


def _adjudicated(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p["phase"] != s.phase:
        raise FoldError(f"{p['phase']} adjudicated while the game was in {s.phase}")
    rows.append(_phase_row(s, p, e, s.published + 1))
    s = s.evolve(published=s.published + 1, last_published=e.seq, pending=_filed(s, p), proposals=_lapse(s.proposals),
                 disorder=_disorder(s, p), plans_read={})
    return _new_phase(s, p["next"])


def _disorder(s: GameState, p: Mapping[str, Any]) -> tuple[str, ...]:
    """Who was in civil disorder at the last movement deadline, once a phase is (re)adjudicated."""
    if Phase.parse(p["phase"]).is_movement:
        return tuple(p.get("civil_disorder") or ())
    return s.disorder


def _corrected(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    rows.append(Superseded(s.id, p["phase"], int(p["number"])))
    rows.append(_phase_row(s, p, e, int(p["number"])))
    phase = p["phase"]
    if p.get("then") == "stand":
        return s  # the phases published since started from the corrected position: they, and the game, go on
    following = p.get("following") or ()
    for number in following:  # published since, from the position before the correction: withdrawn
        rows.append(Superseded(s.id, "", int(number)))
    if following:
        # Conditional orders filed with the phases withdrawn go with them (those of the corrected phase are
        # chosen again below, from the corrected results).
        def withdrawn(filed: str | None) -> bool:
            return filed is not None and order_key(Phase.parse(filed)) > order_key(Phase.parse(phase))
        s = s.evolve(pending=tuple(x for x in s.pending if not withdrawn(x.filed_phase)),
                     orders=tuple(o for o in s.orders if not withdrawn(o.filed_phase)))
    s = s.evolve(last_published=e.seq, pending=_filed(s, p), rules_spec=p["rules"], disorder=_disorder(s, p),
                 orders=tuple(o for o in s.orders if o.filed_phase != phase), plans_read={})
    if s.status == "finished":
        s = s.evolve(status="active", result=None)
    nxt = p["next"]
    if nxt["phase"] == s.phase:
        return s.evolve(position_doc=nxt)  # the same phase, from the corrected position: orders sent stand
    return _new_phase(s, nxt)


def _opened(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    if p["phase"] != s.phase:
        raise FoldError(f"{p['phase']} opened while the game was in {s.phase}")
    return s.evolve(deadline=p.get("deadline"), paused_remaining=p.get("paused_remaining"), phase_opened=e.seq)


def _ended(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(status="finished", result=Ending.from_dict(p), deadline=None, paused_remaining=None,
                    proposals=_lapse(s.proposals))


# -- the GM's actions on the clock -------------------------------------------------------------------------


def _gm_action(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    action = p["action"]
    if action == "grace":
        return s.evolve(deadline=p["deadline"], grace_used=True)
    if action == "extend":
        return s.evolve(deadline=p["new"])
    if action == "pause":
        return s.evolve(status="paused", deadline=None, paused_remaining=p.get("remaining_seconds"))
    if action == "resume":
        return s.evolve(status="active", deadline=p["deadline"], paused_remaining=None)
    if action == "awaiting-removals":
        return s.evolve(deadline=None, awaiting={"seq": e.seq, "phase": p["phase"],
                                                 "removals": {str(k): int(v) for k, v in p["removals"].items()}})
    if action == "deadlock":
        return s.evolve(deadlock_year=int(p["year"]))
    if action == "civil-disorder":
        return s.evolve(seats=replace_seat(s.seats, int(p["player"]), missed=int(p["missed"]), ready=False))
    if action == "seats-open":
        return s.evolve(seeking={"open": bool(p.get("open")), "seats": p.get("seats") or "lot",
                                 "choices": dict(s.seeking.get("choices") or {})})
    if action == "bots":
        return s.evolve(bots={"open": list(p.get("open") or ()), "civil_disorder": bool(p.get("civil_disorder"))})
    return s  # declare-draw and the like: the entries that follow carry their effect


def _live(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    config = LiveConfig.from_dict(p["config"]) if p.get("config") else (s.live.config if s.live else None)
    if config is None:
        raise FoldError("a live table's entry before the table was set up")
    state = LiveState.from_dict(p["state"])
    live = Live(config, state)
    if s.status != "active":
        return s.evolve(live=live)
    deadline = state.deadline(config)
    return s.evolve(live=live, deadline=deadline.isoformat() if deadline else None)


# -- press and votes ------------------------------------------------------------------------------------------


def _press(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    number = s.press_count + 1
    to = p.get("to")
    rows.append(PressRow(s.id, number, p.get("phase"), parse_stamp(e.at), p["sender"], list(to) if to else None,
                         bool(p.get("anonymous")), p["text"], e.seq))
    questions = s.questions
    if p.get("question") is not None:
        if int(p["question"]) != len(questions) + 1:
            raise FoldError(f"question {p['question']} asked out of turn (there are {len(questions)})")
        questions += (Question(int(p["question"]), p["sender"], number, p.get("phase")),)
    elif p.get("answers") is not None:
        n = int(p["answers"])
        if not 1 <= n <= len(questions):
            return s.evolve(press_count=number)  # a public copy: the question is a sealed letter
        q = questions[n - 1]
        questions = questions[:n - 1] + (replace(q, answers=q.answers + (number,), public=q.public + (not to,)),) + \
            questions[n:]
    return s.evolve(press_count=number, questions=questions)


def _proposed(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    votes = {} if p["proposer"] == "GM" else {p["proposer"]: True}
    proposal = Proposal(int(p["proposal"]), p["kind"], p["phase"], p["proposer"], tuple(p["powers"]), votes, "open", e.at)
    return s.evolve(proposals=s.proposals + (proposal,))


def _voted(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    number = int(p["proposal"])
    return s.evolve(proposals=tuple(replace(x, votes={**x.votes, p["power"]: bool(p["yes"])}) if x.id == number else x
                                    for x in s.proposals))


def _decided(s: GameState, p: Mapping[str, Any], e: Entry, rows: list[CacheRow]) -> GameState:
    number = int(p["proposal"])
    return s.evolve(proposals=tuple(replace(x, status=p["status"]) if x.id == number else x for x in s.proposals))


Step = Callable[[GameState, Mapping[str, Any], Entry, list[CacheRow]], GameState]
_STEPS: dict[str, Step] = {
    "player-joined": _joined,
    "credential-replaced": _credential,
    "seat-claimed": _claimed,
    "lots-drawn": _drawn,
    "powers-assigned": _drawn,
    "game-started": _started,
    "orders-submitted": _submitted,
    "orders-withdrawn": _withdrawn,
    "orders-refused": _nothing,
    "conditional-chosen": _conditional_chosen,
    "plan-filed": _plan_filed,
    "plan-read": _plan_read,
    "ready": _ready,
    "deadline-closed": _nothing,
    "phase-adjudicated": _adjudicated,
    "correction": _corrected,
    "phase-opened": _opened,
    "game-ended": _ended,
    "gm-action": _gm_action,
    "standby-called": _standby_called,
    "standby-released": _standby_released,
    "player-replaced": _replaced,
    "player-resigned": _resigned,
    "coin-tossed": _coin_tossed,
    "power-joined": _power_joined,
    "press": _press,
    "draw-proposed": _proposed,
    "draw-vote": _voted,
    "draw-result": _decided,
    "live": _live,
    "key-added": _key_added,
    "set-disputed": _disputed,
    "league-added": _nothing,  # the standings read it (gm.standings); the game itself is unchanged
}
KINDS = frozenset(_STEPS) | {"game-created"}
