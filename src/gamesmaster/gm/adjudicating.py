"""Closing a phase: the grace period, the orders in force, adjudication, civil disorder, the next phase.

Every function here works inside one open `Transaction`; the deadline worker, the GM's
"process now", a live table's clock and early processing all come through `close_phase`.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from datetime import datetime, timedelta
from typing import Mapping, Sequence, TypedDict

from ..config import TEST_PAUSE, TEST_PAUSE_FILE, TestHooks
from ..ledger import JSONObject, commitment, new_salt
from ..rules import Adjudication, Phase, Position, adjudicate, powers_to_act, powers_to_choose
from ..rules.conditional import ConditionalError, Section, order_key, read_sections
from ..rules.options import RuleOptions
from ..rules.orders import describe_unit
from ..rules.victory import deadlock, most_pieces, short_game_over, side_of, victory
from .cointoss import toss_and_join
from .plans import Plan, committed_conditional, file_plan, record_read
from .games import deadline_text
from .scoring import board_of, game_scores, result_of
from .settings import show_time
from .standing import answer, disorder_words, kept_in_disorder, orders_in_force, retreats_by_rule, to_act
from .state import GM, PLAYER, STANDBY, GameState, OrderSet, Pending, Seat
from .tx import Transaction
from .views import AwaitingGM, Processed
from .events import (ABSENT, AwaitingRemovals, CivilDisorder, ConditionalChosen, DeadlineClosed, Deadlock, EndingKind,
                     GameEnded, Grace, OrdersSubmitted, PhaseAdjudicated, PhaseOpened, PlayerReplaced, ResultLine,
                     StandbyCalled, StandbyReleased)

# Test hook: a worker sleeps this many seconds inside the adjudication transaction,
# after writing everything and before the commit (and touches the file, if named).
PAUSE_ENV = TEST_PAUSE
PAUSE_FILE_ENV = TEST_PAUSE_FILE

CIVIL_DISORDER_EFFECT = {"M": "units hold and do not support each other",
                         "R": "dislodged units are disbanded",
                         "A": "no builds; any removals are made by the rule set's civil-disorder rule"}


def early_due(state: GameState) -> bool:
    """Whether the phase may be processed before its deadline: retreats and adjustments once every
    power with a choice to make has ordered (at once if none has); movement once every player is
    ready, where the game allows it."""
    position = state.position
    if state.status != "active" or position is None:
        return False
    may_act = set(to_act(state))  # less the powers kept in civil disorder for a missed move (XIV.3)
    concerned = [p for p in powers_to_choose(position, state.options) if p in may_act]
    played = [p for p in concerned if state.holder(p) or state.standby_for(p)]
    have = {o.power for o in state.orders}
    if position.phase.is_movement:
        if not state.settings.early_movement or not played:
            return False
        return all(p in have and (h := state.holder(p)) is not None and h.ready for p in played)
    return all(p in have for p in played)


def run_early(tx: Transaction) -> list[Processed]:
    """Process every phase that is due early, one after the other (retreats, then builds...)."""
    done: list[Processed] = []
    for _ in range(8):
        if not early_due(tx.state):
            break
        done.append(close_phase(tx, "early"))
    return done


def close_phase(tx: Transaction, trigger: str) -> Processed:
    """Adjudicate the current phase with the orders on record (or give the grace period first)."""
    state = tx.state
    position = state.position
    assert position is not None
    phase = state.phase or ""
    settings = state.settings
    end = settings.end_time
    if end is not None and tx.now >= end:
        # The agreed time has come (rulebook III): the phase being written is not played.
        finish(tx, clock_ending(state, end))
        return Processed(state.id, phase, "ended", None, None, (), tx.state.result)
    used, civil_disorder = orders_in_force(state)
    if trigger == "deadline" and settings.grace_hours > 0 and position.phase.is_movement and not state.grace_used:
        missing = [p for p in civil_disorder if state.holder(p)]
        if missing:
            assert state.deadline_at is not None
            deadline = state.deadline_at + timedelta(hours=settings.grace_hours)
            tx.record(Grace(phase=phase, missing=tuple(missing), deadline=deadline.isoformat()))
            tx.notice(f"No orders yet from {', '.join(p.capitalize() for p in missing)}: the deadline for "
                      f"{position.phase.title} is extended by the grace period to {deadline_text(tx.state)}.")
            return Processed(state.id, phase, "grace", phase, deadline)
    for standby in _called(state):
        if any(u.source != STANDBY for p, u in used.items() if p in standby.acts_for()):
            # The player answered for his seat (for any power of it): he keeps it all (Graustark).
            tx.record(StandbyReleased(power=standby.standby_for, powers=tuple(standby.acts_for()),  # type: ignore[arg-type]
                                      standby=standby.number, name=standby.name, reason="the player ordered"))
    tx.record(DeadlineClosed(phase=phase, trigger=trigger, used={p: u.record() for p, u in used.items()},
                             civil_disorder=tuple(civil_disorder)))
    orders = {p: list(u.orders.orders) for p, u in used.items()}
    adj = adjudicate(position, orders, state.options, state.sides())
    if adj.waiting:
        # The rule set leaves a civil-disorder power's removals to the GM (seed 004 s24,
        # Armageddonia): nothing is carried out; the phase waits for the GM's orders.
        due = ", ".join(f"{n} for {p.capitalize()}" for p, n in adj.waiting.items())
        tx.record(AwaitingRemovals(phase=phase, removals=dict(adj.waiting)))
        tx.notice(f"{position.phase.title} waits for the GM to choose removals ({due}); the GM enters them as "
                  "that power's orders and processes the phase.")
        return Processed(state.id, phase, "waiting", phase, None, awaiting=AwaitingGM.of(tx.state))
    results = tuple(ResultLine.of(o) for o in adj.outcomes)
    dislodged = [str(d.unit) for d in adj.dislodged]
    plans = read_plans(state, {p: u.orders for p, u in used.items()}, position)
    lapsing = [x for x in state.pending if order_key(x.target) < order_key(adj.next.phase)]
    record_read(tx, phase, plans)  # sealed on the public record until every phase they name is published
    tx.record(PhaseAdjudicated(
        phase=phase, revision=0, rules=state.rules_spec, position=position.to_dict(),
        orders={p: tuple(texts) for p, texts in orders.items()}, used={p: u.record() for p, u in used.items()},
        civil_disorder=tuple(civil_disorder), results=results, dislodged=tuple(dislodged), next=adj.next.to_dict(),
        winner=adj.winner, plans={}, removed=tuple(str(u) for u in adj.removed)))
    tell_plans(tx, plans, lapsing, adj.next.phase)
    for standby in _called(state):
        if any(u.source == STANDBY for p, u in used.items() if p in standby.acts_for()):
            # The stand-by's orders were used: the stand-by takes over what it stood by for (the whole seat).
            reassign(tx, standby.acts_for()[0], standby.number, "the stand-by's orders were used",
                     powers=standby.acts_for())
    # A power the rules left nothing to choose (its only retreat made for it, every unit removed)
    # missed nothing by not ordering.
    choosers = powers_to_choose(position, state.options)
    if not choosers and not position.phase.is_movement:
        tx.notice(_settled_by_rule(position, adj.next, state.options))
    unplayed = [p for p in civil_disorder if state.holder(p) is None and p in choosers]
    if unplayed:
        tx.notice(f"Not played: {', '.join(p.capitalize() for p in unplayed)}, in civil disorder for "
                  f"{position.phase.title} ({CIVIL_DISORDER_EFFECT[position.phase.kind]}).")
    kept = kept_in_disorder(state)
    counted: set[int] = set()  # a player of several powers misses a move once, not once per power
    for power in civil_disorder:
        holder = tx.state.holder(power)  # after a stand-by took the seat over, the stand-by
        if holder is not None and power in choosers:
            _civil_disorder(tx, power, position, kept=power in kept, count=holder.number not in counted)
            counted.add(holder.number)
    ended = advance(tx, adj, phase)
    if not ended and tx.state.phase == phase:
        _retreat_again(tx, adj.next)
    _test_pause(tx.hooks)
    return Processed(state.id, phase, "adjudicated", None if ended else tx.state.phase,
                     None if ended else tx.state.deadline_at, tuple(civil_disorder),
                     tx.state.result if ended else None, tuple(r.published() for r in results))


def _called(state: GameState) -> list[Seat]:
    """The stand-bys called for a seat."""
    return [s for s in state.seats if s.role == STANDBY and s.standby_for]


class Result(TypedDict):
    """How a game ends, as the game-ended entry records it."""

    kind: str  # victory, short-game, draw, concession
    winners: list[str]
    phase: str
    reason: str


class SubmissionNote(TypedDict, total=False):
    """What the record says of a set of orders not sent as such: conditional orders installed, or a withdrawal."""

    condition: str  # the condition that chose the conditional orders installed
    filed_phase: str  # ... and the phase they were filed with
    withdrew: str  # what a withdrawal took back


def read_plans(state: GameState, sets: Mapping[str, OrderSet], position: Position) -> dict[str, Plan]:
    """Each power's conditional orders in the sets used, read against the phase they were filed with.

    They were read when filed; a text that no longer reads (the rules changed by a
    correction) is recorded with its problem, and the phase goes on without it."""
    plans: dict[str, Plan] = {}
    for power, orders in sorted(sets.items()):
        if not orders.conditional:
            continue
        try:
            sections = read_sections(orders.conditional, position, state.options)
        except Exception as exc:  # noqa: BLE001 - whatever a player wrote, the phase goes on without it
            problem = str(exc) if isinstance(exc, ConditionalError) else f"they cannot be read ({exc})"
            plans[power] = {"filed": orders.seq, "sections": [], "problem": problem}
        else:
            plans[power] = {"filed": orders.seq, "sections": [x.to_dict() for x in sections], "problem": None}
    return plans


def tell_plans(tx: Transaction, plans: Mapping[str, Plan], lapsing: Sequence[Pending], nxt: Phase) -> None:
    """Tell each player what became of conditional orders at a deadline: unreadable ones, and lapsed ones."""
    for power, plan in sorted(plans.items()):
        if plan["problem"]:
            tx.notice(f"Your conditional orders could not be used ({plan['problem']}); your orders for the phase "
                      "stand, and nothing is ordered for the later phases: send those orders when the phases open.",
                      to=[power])
    for x in lapsing:
        tx.notice(f"Your conditional orders for {x.target.title} (filed in {Phase.parse(x.filed_phase).title}) lapse: "
                  f"the game goes on to {nxt.title}, and {x.target.title} is not played.", to=[x.power])


def ending(nxt: Position, winner: str | None, state: GameState, phase: str) -> Result:
    """How the engine's verdict ended the game, in words: a victory, a short game, or a shared lead."""
    options = state.options
    among = state.sides()
    if short_game_over(nxt, options):
        return _most_pieces(state, nxt, f"the game ends after {options.last_year}", phase)
    assert winner is not None
    rule = victory(nxt.variant, options)
    side = side_of(winner, among) if rule.by_side else (winner,)
    units = Counter(u.power for u in nxt.units.values())
    many = sum(units[p] for p in side)
    if not rule.counts_units:
        how = f"controls {len(nxt.centres_of(winner))} supply centres"
    elif rule.kind == "units":
        how = f"has {many} units on the board"
    else:
        how = f"has {many} of the {len(nxt.units)} units on the board"
    name = "/".join(p.capitalize() for p in side)
    if rule.by_side and (holder := state.holder(winner)) is not None:
        name += f" ({holder.name})"
    return {"kind": "victory", "winners": list(side), "phase": phase, "reason": f"{name} {how}"}


def clock_ending(state: GameState, end: datetime) -> Result:
    """The short game stopped by the clock (rulebook III): "the player who has the most pieces
    on the board at that time" wins; a player of several powers counts all of them; a tie
    is a draw among the players who share the most."""
    position = state.position
    assert position is not None
    return _most_pieces(state, position, f"the game stopped at {show_time(end, state.settings.schedule.tz)}, as agreed",
                        state.phase or "")


def _most_pieces(state: GameState, position: Position, after: str, phase: str) -> Result:
    """The end of a short game (by the year or by the clock, rulebook III): the player with the most
    pieces on the board wins (his powers counted together); a tie is a draw among those sharing it."""
    top, best = most_pieces(position, state.sides())
    order = list(position.variant.powers)
    winners = sorted((p for side in top for p in side), key=order.index)
    names = "; ".join("/".join(p.capitalize() for p in side) + (f" ({h.name})" if (h := state.holder(side[0])) else "")
                      for side in top)
    if len(top) == 1:
        return {"kind": "short-game", "winners": winners, "phase": phase,
                "reason": f"{after}: {names} has the most pieces on the board ({best})"}
    return {"kind": "draw", "winners": winners, "phase": phase,
            "reason": f"{after}: {names} share the most pieces on the board ({best})"}


def advance(tx: Transaction, adj: Adjudication, phase: str) -> bool:
    """Open the phase the adjudication led to (or end the game); True when the game ended."""
    state = tx.state
    if adj.winner or adj.ended:
        finish(tx, ending(adj.next, adj.winner, state, phase))
        return True
    open_phase(tx)
    return tx.state.status == "finished"


def open_phase(tx: Transaction) -> None:
    """Publish the current phase's deadline (kept as time left while paused), then install conditional orders."""
    state = tx.state
    position = state.position
    assert position is not None
    deadline = state.settings.deadline(position.phase.kind, tx.now)
    if state.status == "paused":
        tx.record(PhaseOpened(phase=state.phase or "", deadline=None, paused_remaining=(deadline - tx.now).total_seconds()))
    else:
        tx.record(PhaseOpened(phase=state.phase or "", deadline=deadline.isoformat()))
    toss_and_join(tx)
    install_conditionals(tx)
    if position.phase.season == "S" and position.phase.is_movement:
        _check_deadlock(tx)


def install_conditionals(tx: Transaction) -> None:
    """Choose the conditional orders filed for the phase that has just opened; a chosen clause becomes
    the power's orders unless its player has already sent some (the choice is on the ledger either way)."""
    state = tx.state
    position = state.position
    if position is None:
        return
    concerned = set(powers_to_act(position))
    for pending in [x for x in state.pending if x.phase == state.phase]:
        clause = Section.from_dict(pending.section).choose(pending.facts(position.centres))
        tx.record(ConditionalChosen(phase=state.phase or "", power=pending.power, filed_phase=pending.filed_phase,
                                    condition=clause.label if clause else None,
                                    orders=tuple(clause.orders) if clause else None))
        filed = Phase.parse(pending.filed_phase).title
        if clause is None:
            tx.notice(f"Your conditional orders filed in {filed} for {position.phase.title}: no condition holds, "
                      "so they give no orders.", to=[pending.power])
            continue
        if pending.power not in concerned:
            tx.notice(f"Your conditional orders filed in {filed} chose '{clause.label}', but "
                      f"{pending.power.capitalize()} has nothing to order in {position.phase.title}.",
                      to=[pending.power])
            continue
        if tx.state.order_set(pending.power, PLAYER) is not None:
            continue  # the player has already sent this phase's orders
        lines = list(clause.orders)
        submit(tx, pending.power, PLAYER, None, "conditional", "conditional orders", lines, None,
               note={"condition": clause.label, "filed_phase": pending.filed_phase})
        answers, _ = answer(tx.state, pending.power, lines)
        text = [f"Your conditional orders filed in {filed} apply to {position.phase.title}: {clause.label}."]
        text += [f"  {a.text}: {a.message}" for a in answers] or ["  (no orders)"]
        text.append("Orders you send for the phase replace them, like any later set.")
        tx.notice("\n".join(text), to=[pending.power])


def submit(tx: Transaction, power: str, author: str, by: object, channel: str, entered_by: str, lines: list[str],
           conditional: str | None, note: SubmissionNote | None = None) -> OrderSet:
    """Record a power's set of orders (committed to with a fresh salt); returns it as on record."""
    state = tx.state
    phase = state.phase or ""
    number = state.counts.get(power, 0) + 1
    salt = new_salt()
    plan: JSONObject = {}
    if conditional:  # its own entry, sealed on the public record until the phases it names are published
        assert state.position is not None
        try:
            names = [x.phase for x in read_sections(conditional, state.position, state.options)]
        except ConditionalError:  # checked when taken; a text that does not read names no phase to wait for
            names = []
        plan = {"plan": file_plan(tx, power, number, conditional, names)}
    committed = commitment(phase, power, number, lines, committed_conditional(plan), salt)
    tx.record(OrdersSubmitted(
        phase=phase, power=power, author=author, by=by, channel=channel, entered_by=entered_by,
        number=number, orders=tuple(lines), conditional=None, plan=plan.get("plan", ABSENT), salt=salt,  # type: ignore[arg-type]
        commitment=committed, note=dict(note) if note else None))
    mine = tx.state.order_set(power, author)
    assert mine is not None
    return mine


def _check_deadlock(tx: Transaction) -> None:
    state = tx.state
    options = state.options
    if options.deadlock == "never":
        return
    position = state.position
    assert position is not None
    year = position.phase.year
    span = [state.spring_centres.get(str(year - k)) for k in range(options.deadlock_years, -1, -1)]
    known = [s for s in span if s is not None]
    if len(known) < len(span):
        return
    verdict = deadlock([{c: p for p, cs in s.items() for c in cs} for s in known], options)
    if verdict is None:
        return
    years = options.deadlock_years
    if verdict == "draw":
        finish(tx, {"kind": "draw", "winners": position.powers_alive(), "phase": state.phase or "",
                    "reason": f"deadlock: no supply centre changed hands in {years} years"})
        return
    tx.record(Deadlock(years=years, phase=state.phase, year=year))
    tx.notice(f"No supply centre has changed hands in {years} years. The gamesmaster will decide whether the game "
              "goes on or is declared a draw; players may send an outline plan of campaign.")


def finish(tx: Transaction, result: Result) -> None:
    """End the game with this result; everyone is told."""
    position = tx.state.position
    summary: dict[str, dict[str, int]] = {}
    if position is not None:
        summary = {p: {"centres": len(position.centres_of(p)), "units": len(position.units_of(p))}
                   for p in position.variant.powers}
    last = tx.state.last_published
    adjudicated = tx.rec.entry(tx.state.id, last) if last is not None else None
    played = adjudicated.payload["phase"] if adjudicated is not None and adjudicated.payload is not None else None
    scored: JSONObject = {}
    if position is not None and tx.state.settings.scoring != "none":
        board = board_of(position, tx.state.spring_centres)
        scored = {"scores": dict(game_scores(tx.state.settings.scoring, board,
                                             result_of(result["kind"], result["winners"])))}
    tx.record(GameEnded(kind=EndingKind(result["kind"]), winners=tuple(result["winners"]), phase=result["phase"],
                        reason=result["reason"], at=tx.now.isoformat(), summary=summary, played=played,
                        scores=scored.get("scores", ABSENT)))  # type: ignore[arg-type]
    ended = tx.state.result
    assert ended is not None
    text = f"The game is over: {ended.headline} ({ended.reason})."
    if ended.scores:  # the notice goes out with the last results, by every door
        text += (f"\nFinal scores ({tx.state.settings.scoring}): "
                 + ", ".join(f"{p.capitalize()} {v:.2f}" for p, v in ended.scores.items()) + ".")
    tx.notice(text)


def reassign(tx: Transaction, power: str, new: int, why: str, *, powers: Sequence[str] | None = None) -> None:
    """Put the player numbered `new` on a power's seat (its player, if any, becomes a former player).

    The new player takes over every power the old one commanded (a pair is one seat, whether it
    goes to a replacement, a successor or a stand-by called for it), or only `powers`, those a
    stand-by called for fewer stood by for (a DAIDE bot standing in for one power)."""
    state = tx.state
    old = state.holder(power)
    seat = state.seat(new)
    assert seat is not None
    powers = list(powers) if powers else list(old.powers) if old else [power]
    tx.record(PlayerReplaced(power=power, powers=tuple(powers), old=old.number if old else None, new=new,
                             old_name=old.name if old else None, name=seat.name, reason=why))
    named = "/".join(p.capitalize() for p in powers)
    tx.notice(f"{seat.name} now plays {named}" + (f" in place of {old.name}" if old else "") + f" ({why}).")


def _civil_disorder(tx: Transaction, power: str, position: Position, *, kept: bool, count: bool) -> None:
    state = tx.state
    holder = state.holder(power)
    assert holder is not None
    missed = holder.missed + (1 if count and not kept else 0)
    tx.record(CivilDisorder(phase=str(position.phase), power=power, player=holder.number, name=holder.name,
                            missed=missed))
    if kept:
        text = f"{disorder_words(state, power)} ({holder.name})."
    else:
        text = (f"No orders from {power.capitalize()} ({holder.name}): civil disorder for {position.phase.title} "
                f"({CIVIL_DISORDER_EFFECT[position.phase.kind]}).")
    if position.phase.is_movement:
        policy = state.settings.replacement
        seat = "/".join(p.capitalize() for p in holder.powers)
        if policy == "standby" and count and tx.state.standby_for(power) is None:
            # One stand-by for the seat: a player of several powers who misses any of them missed the move.
            free = sorted((s for s in tx.state.seats if s.role == STANDBY and not s.standby_for),
                          key=lambda s: (s.rank, s.number))
            if free:
                tx.record(StandbyCalled(power=power, powers=holder.powers, standby=free[0].number, name=free[0].name,
                                        player=holder.number, phase=str(position.phase)))
                text += (f" {free[0].name}, the stand-by, is asked to send the next move for {seat};"
                         f" if {holder.name} sends it instead, {holder.name} keeps "
                         + ("the country." if len(holder.powers) == 1 else f"{seat}: they are one seat."))
            else:
                text += f" Every stand-by is taken: volunteers are called for to stand by for {seat}."
        elif policy == "successor":
            text += f" {holder.name} plays on until resigning, and then names a successor."
        elif policy == "gm":
            text += " The gamesmaster may appoint a neutral stand-by."
    tx.notice(text)


def _settled_by_rule(position: Position, nxt: Position, options: RuleOptions) -> str:
    """What the rules did in a retreat or adjustment phase that left no one a choice (seed 004 s16)."""
    fates = []
    if position.phase.is_retreat:
        made = dict(retreats_by_rule(position, nxt, options))
        for d in position.dislodged:
            who = f"{describe_unit(d.unit)} ({d.unit.power.capitalize()})"
            if d.unit in made:
                fates.append(f"{who} makes its only retreat, to {position.map.name(made[d.unit])}")
            else:
                fates.append(f"{who} has no retreat open and is disbanded")
    else:
        fates = [f"{describe_unit(u)} ({u.power.capitalize()}) is removed" for u in position.units.values()
                 if nxt.units.get(u.province) != u]
    return (f"{position.phase.title}: no one had a choice to make, so it was processed at once: "
            + "; ".join(fates) + ".")


def _retreat_again(tx: Transaction, nxt: Position) -> None:
    """Calhamer's rule (seed 004 s17): the retreat phase is played again by the units whose retreats clashed."""
    units = ", ".join(f"{d.unit.power.capitalize()}'s {d.unit}" for d in nxt.dislodged)
    tx.notice(f"Retreats clashed: {nxt.phase.title} is played again, the space each chose being barred to it "
              f"({units} retreat again). Orders are due {deadline_text(tx.state)}.")


def _test_pause(hooks: TestHooks) -> None:
    if hooks.pause_before_commit is not None:
        if hooks.pause_file is not None:
            hooks.pause_file.write_text(str(os.getpid()))
        time.sleep(hooks.pause_before_commit)


__all__ = ["GM", "Plan", "SubmissionNote", "advance", "read_plans", "tell_plans", "close_phase", "early_due", "ending", "finish", "install_conditionals",
           "open_phase", "reassign", "run_early", "submit"]
