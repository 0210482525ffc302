"""Orders: a power's sets submitted, withdrawn, checked and shown back; readiness for early movement."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from ..ledger import Receipt, parse_stamp
from ..rules import Order, Phase, PhaseError, Position, RuleOptions, check_orders, parse_order, powers_to_act
from ..rules.adjustments import balance
from ..rules.conditional import ConditionalError, read_sections, split_submission
from ..rules.possible import possible_orders
from .adjudicating import run_early, submit
from . import limits
from .desk import Actor, Desk, acting, authenticate
from .errors import GMError, Refused
from .fold import fold
from .games import deadline_text
from .settings import show_time, show_times
from .standing import answers_of, disorder_words, kept_in_disorder
from .state import GameState
from .tx import Transaction
from .views import Checking, LegalOrders, OrdersOnRecord, Seat, Submission
from .events import EventKind, OrdersRefused, OrdersWithdrawn, Ready, RefusalCause

CHANNELS = ("console", "web", "mail", "in-person", "conditional", "import", "daide")


def _refusal(tx: Transaction, actor: Actor, phase: str | None, channel: str, text: str | None,
             written_at: datetime | None = None, answering: int | None = None) -> Refused | None:
    """Why orders cannot be taken now (recorded on the ledger), or None.

    Orders that name no phase but were written (written_at) before the current phase
    opened were written for the phase before it, and came after its deadline: they are
    refused, unless they answer the results that opened this phase (answering: the
    ledger entry of those results)."""
    state = tx.state
    if state.status == "forming":
        raise GMError(f"{state.id} has not started: the powers have not been drawn")
    if state.status == "finished":
        raise GMError(f"{state.id} is over: no more orders are taken")
    position = state.position
    assert position is not None
    reason = None
    # why, in terms verify can check against the ledger: a refusal is a ruling like any other
    cause: dict[str, Any] = {}
    early = published_early(tx)
    if early is not None and text is not None and (
            (phase is not None and phase.strip().upper() == early.phase) or
            (phase is None and written_at is not None and _written_for(tx, written_at, answering)) or
            (phase is None and reads_for_published(state, early, actor.power or "", text))):
        # Brobdingnag procedure 3: the same refusal at every door, however the orders name their phase.
        cause = {"cause": RefusalCause.PUBLISHED_EARLY, "published": early.phase}
        reason = (f"refused: these orders are for {early.title}, published early "
                  f"({show_time(early.at, state.settings.schedule.tz)}), as soon as every power concerned had "
                  "ordered; revisions received after that publication are not considered (Brobdingnag "
                  f"procedure 3). {position.phase.title} is open now: orders for it are taken as usual")
    elif phase is not None and phase.strip().upper() != state.phase:
        cause = {"cause": RefusalCause.OTHER_PHASE, "named": phase.strip().upper()[:16]}
        try:
            title = Phase.parse(phase).title
        except PhaseError:
            title = phase
        reason = (f"refused: these orders are for {title}, but the game is in {position.phase.title}"
                  f" (orders for {title} are no longer taken)")
    elif phase is None and written_at is not None and (written := _written_for(tx, written_at, answering)):
        title, missed = written
        cause = {"cause": RefusalCause.WRITTEN_EARLIER, "written_at": written_at.isoformat(), "answering": answering}
        reason = (f"refused: late. These orders were written {show_time(written_at, state.settings.schedule.tz)}, "
                  f"for {title}: they were due by {missed} and arrived after {title} was adjudicated. "
                  f"{position.phase.title} is open now: to order for it, send them again headed ORDERS {state.phase}, "
                  f"or as an answer to the mail with the results of {title}")
    elif state.status == "active" and state.deadline_at is not None and tx.now > state.deadline_at:
        cause = {"cause": RefusalCause.LATE}
        # to the second when both fall in one minute: "due by 11:55, arrived 11:55" would explain nothing
        due, came = show_times(state.deadline_at, tx.now, state.settings.schedule.tz)
        reason = f"refused: late. Orders for {position.phase.title} were due by {due}; these arrived {came}"
    if reason is None:
        return None
    entry = tx.record(OrdersRefused(phase=state.phase, power=actor.power, by=actor.by, channel=channel,
                                    entered_by=actor.entered_by, reason=reason, text=text, **cause))
    # Only the GM is told the entry: its number would tell a player how many hidden entries came before it.
    return Refused(reason, entry.seq if actor.is_gm else None)


@dataclass(frozen=True)
class EarlyPublication:
    """The last published phase, when it was published before its deadline (every power concerned had ordered)."""

    phase: str
    title: str
    at: datetime
    position: Position  # the position it was played from


def published_early(tx: Transaction) -> EarlyPublication | None:
    """The phase published just before the one now open, if it was published early (its deadline closed
    'early'); None otherwise, once a later phase has opened, or when the same phase is played again."""
    state = tx.state
    last = state.last_published
    if last is None or state.phase_opened <= last:
        return None
    published = tx.rec.entry(state.id, last)
    closed = tx.rec.entry(state.id, last - 1)  # the deadline closed in the entry just before the results
    if published is None or published.kind != EventKind.PHASE_ADJUDICATED or published.payload is None or closed is None \
            or closed.kind != EventKind.DEADLINE_CLOSED or closed.payload is None or closed.payload.get("trigger") != "early":
        return None
    phase = str(published.payload["phase"])
    if phase == state.phase:
        return None  # a retreat phase played again (Calhamer's rounds): the orders are for the round now open
    return EarlyPublication(phase, Phase.parse(phase).title, parse_stamp(published.at),
                            Position.from_dict(state.variant, published.payload["position"]))


def reads_for_published(state: GameState, early: EarlyPublication, power: str, text: str) -> bool:
    """Whether orders sent with no phase named are for the phase published early: some line reads as an
    order of it, and none as an order for the phase now open (builds sent once the movement is open)."""
    lines = split_submission(text)[0]
    if not lines or power not in powers_to_act(early.position):
        return False
    position = state.position
    assert position is not None
    if power in powers_to_act(position) and any(c.accepted for c in
                                                check_orders(position, power, lines, state.options).orders):
        return False
    return any(c.accepted for c in check_orders(early.position, power, lines, state.options).orders)


def _written_for(tx: Transaction, written_at: datetime, answering: int | None) -> tuple[str, str] | None:
    """The phase orders written at this time were meant for, and its deadline, when it is not the current one."""
    state = tx.state
    last = state.last_published
    if last is None or answering == last or state.phase_opened <= last:
        return None
    opened = tx.rec.entry(state.id, state.phase_opened)
    if opened is None or written_at >= parse_stamp(opened.at):
        return None
    published = tx.rec.entry(state.id, last)
    before, _ = fold(tx.rec.entries(state.id, upto=last - 1), state.id)
    if published is None or before is None or published.payload is None:
        return None
    return Phase.parse(published.payload["phase"]).title, deadline_text(before)


def check_text(state: GameState, power: str, text: str) -> Checking:
    """How a submission would be read now: each order answered, the warnings, the conditional clauses."""
    position = state.position
    if position is None:
        raise GMError(f"{state.id} has not started")
    lines, cond = split_submission(text)
    check = check_orders(position, power, lines, state.options)
    answers, warnings = answers_of(check), check.warnings()
    clauses: tuple[str, ...] = ()
    error = None
    if cond is not None:
        try:
            sections = read_sections(cond, position, state.options)
            clauses = tuple(f"{Phase.parse(x.phase).title}, {c.label}: {'; '.join(c.orders) or '(no orders)'}"
                            for x in sections for c in x.clauses)
        except ConditionalError as exc:
            error = str(exc)
    return Checking(power, tuple(lines), answers, warnings, cond, clauses, error, tuple(check.readings))


def record_text(lines: Sequence[str], conditional: str | None) -> str:
    """A set as the record keeps it, written out again as one text (what its answers are the answers to)."""
    return "\n".join(lines) + (f"\n{conditional}" if conditional else "")


def checked_name(power: str, text: str) -> str:
    """The name a power's set, checked at a head of the game, is kept under (gm.memo)."""
    return f"checked {power} {text}"


def legal_orders_in(position: Position, power: str, options: RuleOptions) -> LegalOrders:
    """Every legal order of a power in a position, by unit ('adjust': builds and removals)."""
    due = balance(position, power) if position.phase.is_adjustment else 0
    return LegalOrders(power, {k: tuple(v) for k, v in possible_orders(position, power, options).items()}, due)


def read_order(line: str, position: Position, power: str, options: RuleOptions) -> Order | None:
    """The order a line on record stands for in a position (None: it is not one order), for a door that keeps
    orders as values (the DAIDE door's book): read as the adjudicator reads it."""
    return parse_order(line, position, power, options).order


def on_record(state: GameState, power: str, author: str | None) -> tuple[OrdersOnRecord, ...]:
    """A power's sets on record (its player's or stand-by's, or both for author None)."""
    out = []
    for o in state.orders:
        if o.power != power or (author is not None and o.author != author):
            continue
        out.append(OrdersOnRecord(state.phase or "", power, o.author, o.orders, o.conditional, o.channel, o.entered_by,
                                  parse_stamp(o.at), Receipt(state.id, state.phase or "", power, o.number, o.commitment),
                                  o.condition, o.filed_phase))
    return tuple(out)


@dataclass(frozen=True)
class _Ready:
    """A submission worked out at one head of its game, before the write lock (Submissions._ready)."""

    head: str  # the ledger head it was worked out at
    actor: Actor
    checked: Checking
    signed: object  # the actor's proof on the record at that head (Actor.signed)
    published: tuple[str, int]  # the published record's version there: how the set reads holds while it does

    def reading_at(self, state: GameState, power: str | None) -> Checking | None:
        """The set as read, if it reads the same at this state: the same power's, and the same position and rules
        (GameState.published_version), as when another process's set of orders moved the head in between."""
        return self.checked if power == self.checked.power and state.published_version == self.published else None


class Submissions:
    """Taking each power's orders before the deadline, and answering them order by order."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def submit_orders(self, game_id: str, power: str | None, text: str | Sequence[str], *, credential: str | None = None,
                      by_gm: bool = False, channel: str = "console", phase: str | None = None,
                      written_at: datetime | None = None, answering: int | None = None) -> Submission:
        """A power's complete set of orders for the phase (replacing any earlier set), answered order by order
        (power None: the credential's seat's first power, found in the same one check of the credential).

        Orders are one a line (or separated by ';'); a `next season:` part files
        conditional orders for later phases (see gamesmaster.rules.conditional): they are
        read now, and refused now if they cannot be. GM-entered
        orders (by_gm, e.g. handed over in person) say so on the record. Phases due early
        as a result are processed in the same transaction. Orders that name no phase and were
        written (written_at, as a mail's Date says) before the current phase opened are
        refused as late for the phase before, unless they answer the results that opened it
        (answering: the ledger entry of those results, which a reply to the results mail names)."""
        if channel not in CHANNELS:
            raise GMError(f"unknown channel {channel!r} (one of {', '.join(CHANNELS)})")
        if not isinstance(text, str):
            text = "\n".join(text)
        text = limits.orders_text(text)
        ready = self._ready(game_id, power, text, credential, by_gm)
        refusal = None
        with self._desk.transaction(game_id) as tx:
            moved = ready is not None and ready.head != tx.state.head_hash
            # the game moved on while the set was read: who acts and the proof are worked out again at the new
            # head, and the reading too unless the published record is as it was
            actor = ready.actor if ready and not moved else acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now)
            refusal = _refusal(tx, actor, phase, channel, text, written_at, answering)
            if refusal is None:
                submission, checked = self._take(tx, actor, channel, text,
                                                 ready.reading_at(tx.state, actor.power) if ready else None,
                                                 ready.signed if ready and not moved else None)
                processed = run_early(tx)
                if processed:
                    submission = Submission(**{**submission.__dict__, "processed": tuple(p.phase for p in processed)})
        if refusal is not None:
            raise refusal
        if not submission.processed:  # the war room shown next answers this set from this reading
            self._desk.memo.derived(tx.state, checked_name(submission.power, record_text(checked.lines, checked.conditional)),
                              lambda: checked)
        return submission

    def _ready(self, game_id: str, power: str | None, text: str, credential: str | None,
               by_gm: bool) -> _Ready | None:
        """Who is acting, the set as read and the proof, worked out from the game as last committed, before the
        write lock is taken: the transaction uses them if the game is still at that head, so a submission holds
        the lock for little more than its writing (and a credential's first, slow check never holds it). A
        credential refused at the game's head is refused here; anything else that fails is left for the
        transaction to meet and say."""
        with self._desk.reading() as rec:
            # the newest state this process holds, without asking the store for the head: the transaction does
            state = self._desk.memo.latest(game_id) or self._desk.snapshot(rec, game_id)
            try:
                actor = acting(rec, state, power, credential, by_gm, now=self._desk.now())
            except GMError:
                if rec.head_hash(game_id) == state.head_hash:
                    raise  # refused at the game's head, as the transaction would refuse it
                return None  # refused by a state another process has moved past: the transaction decides
        if actor.power is None or state.position is None or state.status != "active":
            return None
        try:
            return _Ready(state.head_hash, actor, check_text(state, actor.power, text), actor.signed(state),
                          state.published_version)
        except GMError:
            return None

    def _take(self, tx: Transaction, actor: Actor, channel: str, text: str, read: Checking | None = None,
              signed: object = None) -> tuple[Submission, Checking]:
        """Record a set (read: how it reads at this state, if worked out already; signed: the actor's proof at this
        head, likewise)."""
        state = tx.state
        position = state.position
        power = actor.power
        assert position is not None and power is not None
        if power in kept_in_disorder(state):
            raise GMError(disorder_words(state, power))
        if power not in powers_to_act(position):
            raise GMError(f"{power.capitalize()} has no orders to give in {position.phase.title}")
        checked = read if read is not None else check_text(state, power, text)
        if checked.conditional_error:
            raise GMError(checked.conditional_error)
        mine = submit(tx, power, actor.author, signed if signed is not None else actor.signed(tx.state), channel,
                      actor.entered_by, list(checked.lines), checked.conditional)
        state = tx.state
        return Submission(state.id, state.phase or "", position.phase.title, power, actor.author, channel,
                          actor.entered_by, checked.answers, checked.warnings, checked.clauses,
                          Receipt(state.id, state.phase or "", power, mine.number, mine.commitment),
                          state.deadline_at, deadline_text(state)), checked

    def withdraw_orders(self, game_id: str, power: str, *, credential: str | None = None, by_gm: bool = False,
                        channel: str = "console") -> int | None:
        """Withdraw a power's orders for this phase; returns the ledger entry that records it, to the GM only
        (a player told entry numbers while the phase is open could count the others' hidden entries).

        Conditional orders installed for the phase are replaced by an empty set instead, so
        that withdrawing them does not leave the power in civil disorder."""
        refusal = None
        with self._desk.transaction(game_id) as tx:
            actor = acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now)
            refusal = _refusal(tx, actor, None, channel, None)
            if refusal is None:
                state = tx.state
                mine = state.order_set(actor.power or "", actor.author)
                if mine is None:
                    raise GMError(f"{(actor.power or '').capitalize()} has no orders on record for "
                                  f"{state.position.phase.title}")  # type: ignore[union-attr]
                if mine.channel == "conditional":
                    seq = self._withdraw_conditional(tx, actor, channel)
                    return seq if actor.is_gm else None
                entry = tx.record(OrdersWithdrawn(phase=state.phase or "", power=actor.power or "", author=actor.author,
                                                  by=actor.signed(tx.state), channel=channel,
                                                  entered_by=actor.entered_by))
        if refusal is not None:
            raise refusal
        return entry.seq if actor.is_gm else None

    def _withdraw_conditional(self, tx: Transaction, actor: Actor, channel: str) -> int:
        """Conditional orders installed for this phase, withdrawn by the player: the player has answered for the
        phase (an empty set stands: units hold, builds are waived), so the power is not in civil disorder."""
        power = actor.power or ""
        mine = submit(tx, power, actor.author, actor.signed(tx.state), channel, actor.entered_by, [], None,
                      note={"withdrew": "conditional orders"})
        title = tx.state.position.phase.title  # type: ignore[union-attr]
        tx.notice(f"Your conditional orders for {title} are withdrawn. An empty set of orders stands in their place "
                  f"(every unit holds; no builds): {power.capitalize()} is not in civil disorder. Orders you send "
                  "before the deadline replace it.", to=[power])
        return mine.seq

    def orders_on_record(self, game_id: str, power: str, *, credential: str | None = None,
                         by_gm: bool = False) -> tuple[OrdersOnRecord, ...]:
        """A power's orders for the current phase: only the power itself (or its stand-by) and the GM may look."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            actor = acting(rec, state, power, credential, by_gm, now=self._desk.now())
            return on_record(state, actor.power or "", None if by_gm else actor.author)

    def check(self, game_id: str, power: str, text: str, *, credential: str | None = None,
              by_gm: bool = False) -> Checking:
        """How these orders would be read now, order by order (nothing is recorded)."""
        text = limits.orders_text(text)
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            actor = acting(rec, state, power, credential, by_gm, now=self._desk.now())
            return check_text(state, actor.power or "", text)

    def legal_orders(self, game_id: str, power: str, *, credential: str | None = None,
                     by_gm: bool = False) -> LegalOrders:
        """Every legal order of the power now, by unit (builds and removals under 'adjust')."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            actor = acting(rec, state, power, credential, by_gm, now=self._desk.now())
            position = state.position
            if position is None:
                raise GMError(f"{game_id} has not started")
            return legal_orders_in(position, actor.power or "", state.options)

    def set_ready(self, game_id: str, power: str, ready: bool = True, *, credential: str | None = None,
                  by_gm: bool = False) -> list[str]:
        """Mark a power ready (or not) for early processing of a movement phase; returns phases processed."""
        with self._desk.transaction(game_id) as tx:
            actor = acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now)
            if tx.state.holder(actor.power or "") is None:
                raise GMError(f"{(actor.power or '').capitalize()} has no player")
            tx.record(Ready(phase=tx.state.phase or "", power=actor.power or "", ready=bool(ready),
                            by=actor.signed(tx.state)))
            return [p.phase for p in run_early(tx)]

    def identify(self, game_id: str, credential: str) -> Seat:
        """Whose a credential is (for the doors' sign-in)."""
        with self._desk.reading() as rec:
            return authenticate(rec, self._desk.snapshot(rec, game_id), credential, now=self._desk.now())

