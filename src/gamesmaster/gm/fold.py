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
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from ..ledger import Entry, parse_stamp
from ..rules import Phase
from ..rules.conditional import order_key
from ..store.repo import PhaseRow, PressRow
from .live import LiveConfig, LiveState
from .settings import Settings
from . import keys
from .events import (ABSENT, PUBLISHING, Absent, Adjudicated, AwaitingRemovals, BotsAllowed, CivilDisorder, CoinTossed,
                     ConditionalChosen, Correction, CredentialReplaced, DeadlineClosed, Deadlock, DrawDeclared,
                     DrawProposed, DrawResult, DrawVote, Event, EventError, EventKind, Extended, GameCreated, GameEnded,
                     GameStarted, Grace, KeyAdded, LeagueAdded, LiveChanged, LotsDrawn, OrdersRefused, OrdersSubmitted,
                     OrdersWithdrawn, Paused, PhaseAdjudicated, PhaseOpened, PlanFiled, PlanRead, PlayerJoined,
                     PlayerReplaced, PlayerResigned, PowerJoined, PowersAssigned, Press, Ready, Resumed, SeatClaimed,
                     SeatsOpen, SetDisputed, StandbyCalled, StandbyReleased, handlers, kind_of, parse_event)
from .state import (FORMER, GM, PLAYER, Dispute, Ending, GameState, KeyOnRecord, Live, OrderSet, Pending, Proposal,
                    Question, Seat, owners, replace_seat)


@dataclass(frozen=True)
class Superseded:
    """A correction replaced the current revision of this phase (the phase played `number`th)."""

    game_id: str
    phase: str
    number: int


CacheRow = PhaseRow | PressRow | Superseded
T = TypeVar("T")


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


def read_event(entry: Entry) -> Event:
    """The event an entry holds, as the fold reads it (FoldError: unknown, sealed or malformed)."""
    try:
        return parse_event(entry)
    except EventError as exc:
        raise FoldError(str(exc)) from None


def apply(state: GameState | None, entry: Entry, game_id: str | None = None,
          event: Event | None = None) -> tuple[GameState, list[CacheRow]]:
    """The state after one entry (whose event, if the caller has it, is `event`), and the cache rows it adds."""
    if state is None:
        if entry.kind != EventKind.GAME_CREATED or entry.payload_text is None:
            raise FoldError(f"the ledger must begin with the game's creation, not {entry.kind}")
        created = event if event is not None else read_event(entry)
        assert isinstance(created, GameCreated)
        return _created(created, entry, game_id or ""), []
    rows: list[CacheRow] = []
    if entry.sealed:  # a public copy: only what everyone may know of it
        try:
            kind = kind_of(entry)
        except EventError as exc:
            raise FoldError(str(exc)) from None
        new = _sealed(state, kind)
    else:
        ev = event if event is not None else read_event(entry)
        new = _STEPS[type(ev)](state, ev, entry, rows)
        by = getattr(ev, "by", None) if ev.SIGNED else None
        if isinstance(by, Mapping) and isinstance(by.get("proof"), Mapping):
            new = keys.spent(new, by["proof"])
    new = new.evolve(head_seq=entry.seq, head_hash=entry.hash)
    if entry.kind in PUBLISHING:
        new = new.evolve(public_seq=entry.seq, public_hash=entry.hash)
    return new, rows


def _sealed(state: GameState, kind: EventKind) -> GameState:
    if kind is EventKind.PRESS:
        return state.evolve(press_count=state.press_count + 1)
    return state


def _created(ev: GameCreated, entry: Entry, game_id: str) -> GameState:
    settings = Settings.from_dict(ev.settings)
    return GameState(id=game_id or _given(ev.id) or "", title=ev.title, variant_name=ev.variant, rules_spec=ev.rules,
                     settings=settings, created=entry.at, start_position=_given(ev.position),
                     head_seq=entry.seq, head_hash=entry.hash, keyed=bool(_given(ev.keys)))


def _given(value: T | None | Absent) -> T | None:
    """A field's value, None where the payload leaves it out."""
    return None if value is ABSENT else value


# -- players -------------------------------------------------------------------------------------


def _joined(s: GameState, ev: PlayerJoined, e: Entry, rows: list[CacheRow]) -> GameState:
    number = ev.player
    if number != len(s.seats) + 1:
        raise FoldError(f"player {number} joins out of turn (there are {len(s.seats)} players)")
    seat = Seat(number, ev.name, ev.role, _given(ev.powers) or (), None, _given(ev.rank) or 0, ev.key)
    return _with_key(s.evolve(seats=s.seats + (seat,)), _given(ev.credential_key))


def _with_key(s: GameState, key: Any) -> GameState:
    """The state with a key given on the record (a credential's, or a session's)."""
    if not isinstance(key, Mapping):
        return s
    kept = KeyOnRecord(int(key["player"]), str(key["salt"]), str(key["anchor"]), str(key["anchor"]), 0,
                       "session" if key.get("kind") == "session" else "credential")
    return s.evolve(keys={**s.keys, str(key["id"]): kept})


def _key_added(s: GameState, ev: KeyAdded, e: Entry, rows: list[CacheRow]) -> GameState:
    return _with_key(s, ev.key)


def _disputed(s: GameState, ev: SetDisputed, e: Entry, rows: list[CacheRow]) -> GameState:
    player = int(ev.by["player"]) if isinstance(ev.by, Mapping) else 0
    dispute = Dispute(e.seq, ev.phase, ev.power, ev.number, player, _given(ev.text) or "")
    return s.evolve(disputes=s.disputes + (dispute,))


def _credential(s: GameState, ev: CredentialReplaced, e: Entry, rows: list[CacheRow]) -> GameState:
    # A new credential ends an account's hold on the seat too: it was claimed by the old one, or the
    # GM issued a new one because someone else had it.
    # And every key of the seat: the old credential proved them.
    claims = {k: v for k, v in s.claims.items() if k != str(ev.player)}
    kept = {k: v for k, v in s.keys.items() if v.player != ev.player}
    return _with_key(s.evolve(seats=replace_seat(s.seats, ev.player, key=ev.key), claims=claims, keys=kept),
                     _given(ev.credential_key))


def _claimed(s: GameState, ev: SeatClaimed, e: Entry, rows: list[CacheRow]) -> GameState:
    number = str(ev.player)
    if s.seat(ev.player) is None:
        raise FoldError(f"player {number} is claimed, but the record never signed them up")
    seeking, power = s.seeking, _given(ev.power)
    if power:
        seeking = {**seeking, "choices": {**(seeking.get("choices") or {}), number: power}}
    return s.evolve(claims={**s.claims, number: ev.account}, seeking=seeking)


def _drawn(s: GameState, ev: LotsDrawn | PowersAssigned, e: Entry, rows: list[CacheRow]) -> GameState:
    drawn = ev.powers  # player name -> power, or powers where one player commands several
    seats = tuple(replace(x, powers=_powers(drawn[x.name])) if x.role == PLAYER and x.name in drawn else x
                  for x in s.seats)
    return s.evolve(seats=seats)


def _powers(value: str | Sequence[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _started(s: GameState, ev: GameStarted, e: Entry, rows: list[CacheRow]) -> GameState:
    seeking = {**s.seeking, "open": False} if s.seeking else s.seeking  # a started game seeks nobody
    return _new_phase(s.evolve(status="active", seeking=seeking), ev.position).evolve(
        deadline=_given(ev.deadline), phase_opened=e.seq)


def _standby_called(s: GameState, ev: StandbyCalled, e: Entry, rows: list[CacheRow]) -> GameState:
    # Called for a seat, the stand-by may order for every power of it (older entries name one power).
    return s.evolve(seats=replace_seat(s.seats, ev.standby, standby_for=ev.power, stands_for=_given(ev.powers) or ()))


def _standby_released(s: GameState, ev: StandbyReleased, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(seats=replace_seat(s.seats, ev.standby, standby_for=None, stands_for=()))


def _replaced(s: GameState, ev: PlayerReplaced, e: Entry, rows: list[CacheRow]) -> GameState:
    # The powers taken over: every power of the seat left (a replacement), or the one a
    # stand-by took over; a player who still commands other powers keeps them.
    moved = _given(ev.powers) or (ev.power,)
    seats = s.seats
    if ev.old is not None:
        old = s.seat(ev.old)
        kept = tuple(x for x in old.powers if x not in moved) if old is not None else ()
        seats = replace_seat(seats, ev.old, powers=kept) if kept else replace_seat(seats, ev.old, role=FORMER, ready=False)
    new = s.seat(ev.new)
    had = new.powers if new is not None and new.role == PLAYER else ()
    seats = replace_seat(seats, ev.new, role=PLAYER, powers=had + tuple(x for x in moved if x not in had),
                         standby_for=None, stands_for=(), missed=0)
    return s.evolve(seats=seats)


def _coin_tossed(s: GameState, ev: CoinTossed, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(coin_toss={"power": ev.power, "winner": list(ev.winner), "name": ev.name,
                               "joins": ev.joins, "joined": False})


def _power_joined(s: GameState, ev: PowerJoined, e: Entry, rows: list[CacheRow]) -> GameState:
    seats = s.seats
    if ev.player is not None:
        seat = s.seat(ev.player)
        if seat is None or seat.role != PLAYER:
            raise FoldError(f"{ev.power} joins player {ev.player}, who plays nothing in {s.id}")
        seats = replace_seat(seats, seat.number, powers=seat.powers + (ev.power,))
    return s.evolve(seats=seats, coin_toss={**s.coin_toss, "joined": True})


def _resigned(s: GameState, ev: PlayerResigned, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.successor:
        return s  # the successor's joining and taking over are entries of their own
    return s.evolve(seats=replace_seat(s.seats, ev.player, role=FORMER, ready=False))


# -- orders ----------------------------------------------------------------------------------------


def _submitted(s: GameState, ev: OrdersSubmitted, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.phase != s.phase:
        raise FoldError(f"orders for {ev.phase} taken while the game was in {s.phase}")
    note = _given(ev.note) or {}
    conditional, plans = ev.conditional, s.filed_plans
    plan = _given(ev.plan)
    if plan:  # the text is in the plan-filed entry before (None where a public copy seals it)
        conditional = plans.get(plan)
        plans = {k: v for k, v in plans.items() if k != plan}
    new = OrderSet(e.seq, ev.number, ev.power, ev.author, ev.orders, conditional, ev.channel, ev.entered_by,
                   ev.commitment, e.at, note.get("condition"), note.get("filed_phase"))
    kept = tuple(o for o in s.orders if not (o.power == new.power and o.author == new.author))
    return s.evolve(orders=kept + (new,), counts={**s.counts, new.power: new.number}, filed_plans=plans)


def _plan_filed(s: GameState, ev: PlanFiled, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.phase != s.phase:
        raise FoldError(f"conditional orders filed with {ev.phase} while the game was in {s.phase}")
    return s.evolve(filed_plans={**s.filed_plans, e.payload_digest: ev.conditional})


def _plan_read(s: GameState, ev: PlanRead, e: Entry, rows: list[CacheRow]) -> GameState:
    # read at a deadline (the phase open) or for a correction (the phase last published): the results follow
    return s.evolve(plans_read={**s.plans_read, ev.power: ev.plan})


def _conditional_chosen(s: GameState, ev: ConditionalChosen, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.phase != s.phase:
        raise FoldError(f"conditional orders for {ev.phase} chosen while the game was in {s.phase}")
    return s.evolve(pending=tuple(x for x in s.pending if not (
        x.power == ev.power and x.phase == ev.phase and x.filed_phase == ev.filed_phase)))


def _withdrawn(s: GameState, ev: OrdersWithdrawn, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(orders=tuple(o for o in s.orders if not (o.power == ev.power and o.author == ev.author)))


def _ready(s: GameState, ev: Ready, e: Entry, rows: list[CacheRow]) -> GameState:
    holder = s.holder(ev.power)
    if holder is None:
        return s
    return s.evolve(seats=replace_seat(s.seats, holder.number, ready=ev.ready))


def _nothing(s: GameState, ev: Event, e: Entry, rows: list[CacheRow]) -> GameState:
    return s


# -- phases ------------------------------------------------------------------------------------------


def _phase_row(s: GameState, ev: Adjudicated, e: Entry, number: int) -> PhaseRow:
    p: dict[str, Any] = e.payload  # the row keeps the record's own JSON
    used = p.get("used") or {}
    orders = {power: {"texts": list(texts), **(used.get(power) or {})} for power, texts in p["orders"].items()}
    return PhaseRow(s.id, ev.phase, ev.revision, number, True, p["rules"], p["position"], orders,
                    p["results"], p["next"], p.get("winner"), list(p.get("civil_disorder") or ()),
                    parse_stamp(e.at), e.seq, e.hash)


def _filed(s: GameState, ev: Adjudicated) -> tuple[Pending, ...]:
    """Pending conditional orders after a phase (re)adjudicated: those still to come, with the ones it filed.

    A later filing for the same power and phase replaces an earlier one; orders for a
    phase the game passed over (no retreats, no adjustments) lapse."""
    phase, nxt = ev.phase, order_key(Phase.parse(ev.next["phase"]))
    succeeded = ev.succeeded
    centres = owners(ev.position)
    plans = {**(_given(ev.plans) or {}), **s.plans_read}  # in the results (older records), or entries of their own
    new = tuple(Pending(power, phase, sec["phase"], sec, succeeded, _given(ev.dislodged) or (), centres)
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


def _adjudicated(s: GameState, ev: PhaseAdjudicated, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.phase != s.phase:
        raise FoldError(f"{ev.phase} adjudicated while the game was in {s.phase}")
    rows.append(_phase_row(s, ev, e, s.published + 1))
    s = s.evolve(published=s.published + 1, last_published=e.seq, pending=_filed(s, ev), proposals=_lapse(s.proposals),
                 disorder=_disorder(s, ev), plans_read={})
    return _new_phase(s, ev.next)


def _disorder(s: GameState, ev: Adjudicated) -> tuple[str, ...]:
    """Who was in civil disorder at the last movement deadline, once a phase is (re)adjudicated."""
    if Phase.parse(ev.phase).is_movement:
        return _given(ev.civil_disorder) or ()
    return s.disorder


def _corrected(s: GameState, ev: Correction, e: Entry, rows: list[CacheRow]) -> GameState:
    rows.append(Superseded(s.id, ev.phase, ev.number))
    rows.append(_phase_row(s, ev, e, ev.number))
    phase = ev.phase
    if ev.then == "stand":
        return s  # the phases published since started from the corrected position: they, and the game, go on
    following = _given(ev.following) or ()
    for number in following:  # published since, from the position before the correction: withdrawn
        rows.append(Superseded(s.id, "", number))
    if following:
        # Conditional orders filed with the phases withdrawn go with them (those of the corrected phase are
        # chosen again below, from the corrected results).
        def withdrawn(filed: str | None) -> bool:
            return filed is not None and order_key(Phase.parse(filed)) > order_key(Phase.parse(phase))
        s = s.evolve(pending=tuple(x for x in s.pending if not withdrawn(x.filed_phase)),
                     orders=tuple(o for o in s.orders if not withdrawn(o.filed_phase)))
    s = s.evolve(last_published=e.seq, pending=_filed(s, ev), rules_spec=ev.rules, disorder=_disorder(s, ev),
                 orders=tuple(o for o in s.orders if o.filed_phase != phase), plans_read={})
    if s.status == "finished":
        s = s.evolve(status="active", result=None)
    nxt = ev.next
    if nxt["phase"] == s.phase:
        return s.evolve(position_doc=nxt)  # the same phase, from the corrected position: orders sent stand
    return _new_phase(s, nxt)


def _opened(s: GameState, ev: PhaseOpened, e: Entry, rows: list[CacheRow]) -> GameState:
    if ev.phase != s.phase:
        raise FoldError(f"{ev.phase} opened while the game was in {s.phase}")
    return s.evolve(deadline=ev.deadline, paused_remaining=_given(ev.paused_remaining), phase_opened=e.seq)


def _ended(s: GameState, ev: GameEnded, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(status="finished", result=Ending.from_dict(ev.to_payload()), deadline=None, paused_remaining=None,
                    proposals=_lapse(s.proposals))


# -- the GM's actions on the clock -------------------------------------------------------------------------


def _grace(s: GameState, ev: Grace, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(deadline=ev.deadline, grace_used=True)


def _extended(s: GameState, ev: Extended, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(deadline=ev.new)


def _paused(s: GameState, ev: Paused, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(status="paused", deadline=None, paused_remaining=ev.remaining_seconds)


def _resumed(s: GameState, ev: Resumed, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(status="active", deadline=ev.deadline, paused_remaining=None)


def _awaiting(s: GameState, ev: AwaitingRemovals, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(deadline=None, awaiting={"seq": e.seq, "phase": ev.phase, "removals": dict(ev.removals)})


def _deadlock(s: GameState, ev: Deadlock, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(deadlock_year=ev.year)


def _civil_disorder(s: GameState, ev: CivilDisorder, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(seats=replace_seat(s.seats, ev.player, missed=ev.missed, ready=False))


def _seats_open(s: GameState, ev: SeatsOpen, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(seeking={"open": ev.open, "seats": _given(ev.seats) or "lot",
                             "choices": dict(s.seeking.get("choices") or {})})


def _bots(s: GameState, ev: BotsAllowed, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(bots={"open": list(ev.open), "civil_disorder": ev.civil_disorder})


def _live(s: GameState, ev: LiveChanged, e: Entry, rows: list[CacheRow]) -> GameState:
    given = _given(ev.config)
    config = LiveConfig.from_dict(given) if given else (s.live.config if s.live else None)
    if config is None:
        raise FoldError("a live table's entry before the table was set up")
    state = LiveState.from_dict(ev.state)
    live = Live(config, state)
    if s.status != "active":
        return s.evolve(live=live)
    deadline = state.deadline(config)
    return s.evolve(live=live, deadline=deadline.isoformat() if deadline else None)


# -- press and votes ------------------------------------------------------------------------------------------


def _press(s: GameState, ev: Press, e: Entry, rows: list[CacheRow]) -> GameState:
    number = s.press_count + 1
    to = ev.to
    rows.append(PressRow(s.id, number, ev.phase, parse_stamp(e.at), ev.sender, list(to) if to else None,
                         ev.anonymous, ev.text, e.seq))
    questions = s.questions
    question, answers = _given(ev.question), _given(ev.answers)
    if question is not None:
        if question != len(questions) + 1:
            raise FoldError(f"question {question} asked out of turn (there are {len(questions)})")
        questions += (Question(question, ev.sender, number, ev.phase),)
    elif answers is not None:
        if not 1 <= answers <= len(questions):
            return s.evolve(press_count=number)  # a public copy: the question is a sealed letter
        q = questions[answers - 1]
        questions = questions[:answers - 1] + (replace(q, answers=q.answers + (number,), public=q.public + (not to,)),) + \
            questions[answers:]
    return s.evolve(press_count=number, questions=questions)


def _proposed(s: GameState, ev: DrawProposed, e: Entry, rows: list[CacheRow]) -> GameState:
    votes = {} if ev.proposer == GM else {ev.proposer: True}
    proposal = Proposal(ev.proposal, ev.kind.value, ev.phase, ev.proposer, ev.powers, votes, "open", e.at)  # type: ignore[arg-type]
    return s.evolve(proposals=s.proposals + (proposal,))


def _voted(s: GameState, ev: DrawVote, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(proposals=tuple(replace(x, votes={**x.votes, ev.power: ev.yes}) if x.id == ev.proposal else x
                                    for x in s.proposals))


def _decided(s: GameState, ev: DrawResult, e: Entry, rows: list[CacheRow]) -> GameState:
    return s.evolve(proposals=tuple(replace(x, status=ev.status.value) if x.id == ev.proposal else x
                                    for x in s.proposals))


def _first(s: GameState, ev: GameCreated, e: Entry, rows: list[CacheRow]) -> GameState:
    raise FoldError("the game is created twice: its creation must be the ledger's first entry only")


Step = Callable[[GameState, Any, Entry, list[CacheRow]], GameState]
_STEPS: dict[type[Event], Step] = {
    GameCreated: _first,
    PlayerJoined: _joined,
    CredentialReplaced: _credential,
    SeatClaimed: _claimed,
    LotsDrawn: _drawn,
    PowersAssigned: _drawn,
    GameStarted: _started,
    OrdersSubmitted: _submitted,
    OrdersWithdrawn: _withdrawn,
    OrdersRefused: _nothing,
    ConditionalChosen: _conditional_chosen,
    PlanFiled: _plan_filed,
    PlanRead: _plan_read,
    Ready: _ready,
    DeadlineClosed: _nothing,
    PhaseAdjudicated: _adjudicated,
    Correction: _corrected,
    PhaseOpened: _opened,
    GameEnded: _ended,
    Grace: _grace,
    Extended: _extended,
    Paused: _paused,
    Resumed: _resumed,
    AwaitingRemovals: _awaiting,
    Deadlock: _deadlock,
    CivilDisorder: _civil_disorder,
    SeatsOpen: _seats_open,
    BotsAllowed: _bots,
    DrawDeclared: _nothing,  # the game-ended entry that follows carries its effect
    StandbyCalled: _standby_called,
    StandbyReleased: _standby_released,
    PlayerReplaced: _replaced,
    PlayerResigned: _resigned,
    CoinTossed: _coin_tossed,
    PowerJoined: _power_joined,
    Press: _press,
    DrawProposed: _proposed,
    DrawVote: _voted,
    DrawResult: _decided,
    LiveChanged: _live,
    KeyAdded: _key_added,
    SetDisputed: _disputed,
    LeagueAdded: _nothing,  # the standings read it (gm.standings); the game itself is unchanged
}
handlers("fold", _STEPS)
KINDS = frozenset(EventKind)
