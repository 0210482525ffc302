"""Corrections: the GM puts right the last published phase before the next is published, on the record."""

from __future__ import annotations

from typing import Mapping, Sequence

from ..ledger import canonical
from ..rules import Phase, Position, adjudicate, powers_to_act
from ..store.repo import PhaseRow
from . import limits
from ..rules.conditional import order_key, split_submission
from .adjudicating import advance, install_conditionals, read_plans, tell_plans
from .desk import Desk, power_of
from .errors import GMError
from .games import deadline_text
from .plans import plan_text, record_read
from .state import OrderSet
from .tx import Transaction
from .settings import RuleSpec
from .views import Correction, OrderResult
from .events import ABSENT, ResultLine
from . import events


def _norm(texts: Sequence[str]) -> list[str]:
    return [str(t) for t in texts]


def differences(before: Sequence[OrderResult], was: Position, after: Sequence[OrderResult], now: Position) -> list[str]:
    """What a correction changed: orders' results (before and after), and the units and centres each led to."""
    out: list[str] = []
    old_results = {(r.power, r.text): r for r in before}
    new_results = {(r.power, r.text): r for r in after}
    for key, r in new_results.items():
        old = old_results.get(key)
        if old is None:
            out.append(f"{r.power}: {r.text!r} added: {r.result} ({r.reason})")
        elif (old.order, old.result, old.reason) != (r.order, r.result, r.reason):
            out.append(f"{r.power}: {r.text!r} was {old.result} ({old.reason}), now {r.result} ({r.reason})")
    for key, r in old_results.items():
        if key not in new_results:
            out.append(f"{r.power}: {r.text!r} removed (was {r.result})")
    for label, of in (("units", _units), ("centres", Position.centres_of)):
        for p in sorted(p for p in was.variant.powers if of(was, p) or of(now, p)):
            a, b = sorted(of(was, p)), sorted(of(now, p))
            if a != b:
                out.append(f"{p} {label}: {', '.join(a) or 'none'} -> {', '.join(b) or 'none'}")
    if was.phase != now.phase:
        out.append(f"next phase: {was.phase} -> {now.phase}")
    return out


def _units(position: Position, power: str) -> list[str]:
    return [str(u) for u in position.units_of(power)]


class Corrections:
    """Correcting an error in transcription or ruling, with the correction on the record."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def correct(self, game_id: str, reason: str, *, orders: Mapping[str, str | Sequence[str]] | None = None,
                rules: RuleSpec | None = None, phase: str | None = None) -> Correction:
        """Correct a published phase (an error in transcription or ruling) before the next movement result is published.

        The last published phase by default, or the one named: any phase published since the
        last movement result, that one included (Brobdingnag procedure 5). The phase is
        adjudicated again with the corrected orders (and rules); the record keeps the
        original, the correction, the reason and the difference; everyone is told. The
        phases published after it stand if the correction leaves the position they started
        from as it was; otherwise they are withdrawn and played again from the corrected one."""
        reason = limits.reason(reason)
        if not reason.strip():
            raise GMError("a correction needs a reason")
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.last_published is None:
                raise GMError(f"{game_id}: no phase has been published yet, so there is nothing to correct")
            target, following = _target(tx, game_id, phase)
            original = tx.rec.entry(game_id, target.ledger_seq)
            assert original is not None
            last = original.payload
            corrected = last["phase"]
            if state.status == "finished" and (following or state.result is None or state.result.phase != corrected):
                raise GMError(f"{game_id} ended by agreement after {corrected}: its last phase can no longer be corrected")
            position = Position.from_dict(state.variant, last["position"])
            rules_spec = rules.to_json() if rules is not None else last["rules"]
            options = RuleSpec.read(rules_spec).options(state.variant.default_rules)
            texts = {p: _norm(t) for p, t in last["orders"].items()}
            used = {p: dict(u) for p, u in (last.get("used") or {}).items()}
            for name, given in (orders or {}).items():
                pw = power_of(state, name)
                if pw not in powers_to_act(position):
                    hint = "" if position.phase.is_movement else _movement_hint(tx, game_id, target)
                    raise GMError(f"{pw.capitalize()} had no orders to give in {position.phase.title}{hint}")
                given = limits.orders_text(given if isinstance(given, str) else "\n".join(map(str, given)))
                texts[pw] = split_submission(given)[0]
                used[pw] = {"source": "correction"}
            texts = dict(sorted(texts.items()))  # as the ledger keeps them, so that verify reads them in this order
            adj = adjudicate(position, texts, options, state.sides())
            results = tuple(ResultLine.of(o) for o in adj.outcomes)
            dislodged = [str(d.unit) for d in adj.dislodged]
            changed = differences([OrderResult.from_dict(r) for r in last["results"]],
                                  Position.from_dict(state.variant, last["next"]),
                                  [r.published() for r in results], adj.next)
            if not changed and rules is None and not orders:
                raise GMError("the correction changes nothing")
            # What followed stands only if it started from the position the correction leads to, under the same rules.
            stands = bool(following) and rules is None and canonical(adj.next.to_dict()) == canonical(last["next"]) \
                and not adj.winner and not adj.ended
            sets = {}
            for power, u in used.items():
                sub = tx.rec.entry(game_id, int(u["seq"])) if u.get("seq") else None
                conditional = plan_text(tx.rec, game_id, sub) if sub is not None else None
                if conditional:
                    sets[power] = OrderSet(sub.seq, 0, power, "player", (), conditional, "", "", "", "")  # type: ignore[union-attr]
            plans = read_plans(state.evolve(rules_spec=rules_spec), sets, position)
            lapsing = [] if stands else [x for x in state.pending if x.filed_phase != corrected and
                                         order_key(x.target) < order_key(adj.next.phase)]
            was, reopened = state.phase, state.status == "finished"
            record_read(tx, corrected, plans)
            tx.record(events.Correction(
                phase=corrected, revision=int(last["revision"]) + 1, number=target.number, reason=reason,
                rules=rules_spec, position=position.to_dict(), orders={p: tuple(t) for p, t in texts.items()},
                used=used, civil_disorder=tuple(last.get("civil_disorder") or ()),
                results=results, dislodged=tuple(dislodged),
                next=adj.next.to_dict(), winner=adj.winner, plans={}, removed=tuple(str(u) for u in adj.removed),
                original={"seq": original.seq, "revision": last["revision"]}, difference=tuple(changed),
                following=tuple(r.number for r in following) if following else ABSENT,
                then=("stand" if stands else "withdrawn") if following else ABSENT))
            titles = ", ".join(Phase.parse(r.phase).title for r in following)
            text = [f"Correction of {position.phase.title}: {reason}."]
            text += [f"  {d}" for d in changed] or ["  (the results are unchanged)"]
            if stands:
                text.append(f"  What was published since ({titles}) stands: the corrected results lead to the "
                            "position it started from.")
                tx.notice("\n".join(text))
                return Correction(game_id, corrected, reason, tuple(changed), tx.state.phase)
            tell_plans(tx, plans, lapsing, adj.next.phase)
            ended = False
            if tx.state.phase == was and not adj.winner and not adj.ended and not reopened:
                install_conditionals(tx)  # the same phase goes on from the corrected position
            else:
                ended = advance(tx, adj, corrected)
            now = tx.state
            if following:
                text.append(f"  What was published since ({titles}) is withdrawn: it started from the position "
                            "before the correction. The game goes on from the corrected position.")
            if now.phase != was and not ended:
                text.append(f"  The next phase is now {now.position.phase.title if now.position else now.phase}; "
                            f"orders sent for {was} are void. Orders are due {deadline_text(now)}.")
            elif not ended:
                text.append("  Orders already sent for the next phase stand; check them against the corrected position.")
            tx.notice("\n".join(text))
            return Correction(game_id, corrected, reason, tuple(changed), None if ended else tx.state.phase)


def _target(tx: Transaction, game_id: str, phase: str | None) -> tuple[PhaseRow, list[PhaseRow]]:
    """The published phase to correct (the last, or the one named) and the phases published after it.

    Any phase published since the last movement result may be corrected, that one included:
    "If an error ... is caught before the publication of the following move, it can always
    be corrected. Once a later move has been published, however, it must stand." (Brobdingnag
    procedure 5); retreats and adjustments are not moves."""
    published = tx.rec.phases(game_id)
    if phase is None:
        return published[-1], []
    wanted = phase.strip().upper()
    at = next((i for i in range(len(published) - 1, -1, -1) if published[i].phase == wanted), None)
    if at is None:
        raise GMError(f"{phase} has not been published in {game_id}")
    later = published[at + 1:]
    moves = [r for r in later if Phase.parse(r.phase).is_movement]
    if moves:
        raise GMError(f"{Phase.parse(wanted).title} stands: {Phase.parse(moves[0].phase).title} has been published "
                      "since, and a phase can be corrected only until the next movement result is published")
    return published[at], later


def _movement_hint(tx: Transaction, game_id: str, target: PhaseRow) -> str:
    """How to name the movement phase behind a retreat or adjustment phase, which may still be corrected."""
    published = tx.rec.phases(game_id)
    before = [r for r in published if r.number < target.number and Phase.parse(r.phase).is_movement]
    if not before:
        return ""
    move = before[-1]
    return f" (to correct {Phase.parse(move.phase).title}, name it: phase {move.phase})"
