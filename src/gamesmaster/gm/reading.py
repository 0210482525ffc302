"""Looking at games: the views every door renders (a game, the games, the published results, the history)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Mapping, Sequence

from ..ledger import Entry, JSONValue
from ..rules import Phase, Position, RuleOptions
from ..store import Records
from ..store.repo import PhaseRow
from ..variants import load_variant
from .desk import Desk
from .memo import Memo
from .errors import GMError
from .games import deadline_text
from .scoring import board_of, game_scores
from .settings import RuleSpec
from .press import kept_public_press, press_item
from .standing import retreats_by_rule, to_act
from .state import GM, PLAYER, STANDBY, GameState
from .views import AwaitingGM, GamePage, GameView, LedgerHead, OrderResult, OrdersUsed, PhaseResult, PowerStatus, PressItem

CIVIL_DISORDER_REMOVAL = "removed by the civil-disorder rule: too few removals were ordered"
# A retreat the rule set made (seed 004 s16): what the results say of it, by the rule's value.
RULE_RETREAT_TEXT = "(retreat made by the rules)"
RULE_RETREAT = {
    "single": "its only retreat, made by the gamesmaster: a dislodged unit with one space open is retreated there "
              "whatever was ordered (Graustark's automatic retreat, seed 004 s16)",
    "single-unless-disbanded": "its only retreat, made for its player, who sent no order to disband it instead "
                               "(Brobdingnag's retreat, seed 004 s16)"}


@dataclass(frozen=True)
class History:
    """The whole record as the GM sees it: every revision of every phase, all press, the ledger."""

    game: GameView  # the game as the gamesmaster holds it (the console's --json view): an open document
    phases: tuple[PhaseResult, ...]  # every revision of every published phase, corrections included
    press: tuple[PressItem, ...]  # all of it, letters and anonymous senders too
    ledger: tuple[Entry, ...]  # every entry, as stored


def game_view(state: GameState) -> GameView:
    """A game's state as the doors show it."""
    position = state.position
    concerned = set(to_act(state)) if position is not None and state.status != "finished" else set()
    powers = []
    for p, info in state.variant.powers.items():
        holder, standby = state.holder(p), state.standby_for(p)
        mine, theirs = state.order_set(p, PLAYER), state.order_set(p, STANDBY)
        committed = mine or (theirs if standby is not None else None)
        powers.append(PowerStatus(
            p, info.name, info.colour, holder.name if holder else None, standby.name if standby else None,
            len(position.centres_of(p)) if position else 0, len(position.units_of(p)) if position else 0,
            p in concerned, mine is not None, theirs is not None, bool(holder and holder.ready),
            holder.missed if holder else 0, committed.commitment if committed and p in concerned else None,
            state.counts.get(p, 0)))
    return GameView(state.id, state.title, state.status, state.variant, state.options, RuleSpec.read(state.rules_spec),
                    state.settings, state.phase_value, position, state.deadline_at, deadline_text(state),
                    state.seats, tuple(powers), tuple(p for p in state.proposals if p.status == "open"),
                    state.result, state.live, state.deadlock_year is not None, state.published,
                    LedgerHead(state.public_seq, state.public_hash), state.head_hash, state.joining,
                    AwaitingGM.of(state), scores=current_scores(state))


def kept_view(memo: Memo, state: GameState) -> GameView:
    """A game's view at a head, worked out once for each head (gm.memo)."""
    return memo.derived(state, "view", lambda: game_view(state))


def kept_results(memo: Memo, rec: Records, state: GameState) -> tuple[PhaseResult, ...]:
    """A game's published phases (current revisions, in order), read once for each version of the published
    record (GameState.published_version)."""
    return memo.lasting(state, "results", state.published_version, lambda: tuple(phase_result(r) for r in rec.phases(state.id)))


def current_scores(state: GameState) -> dict[str, float]:
    """The final scores of a finished game, else those its board would get if it ended now ({}: no scoring)."""
    if state.result is not None:
        return dict(state.result.scores)
    position = state.position
    if position is None or state.settings.scoring == "none":
        return {}
    return game_scores(state.settings.scoring, board_of(position, state.spring_centres))


def phase_result(row: PhaseRow) -> PhaseResult:
    """A published phase (a row of the phases cache) as a view."""
    variant = load_variant(str((row.position or {}).get("variant", "standard")))
    orders = {p: OrdersUsed(tuple(v.get("texts") or ()), str(v.get("source") or "player"), v.get("seq"),
                            v.get("number"), v.get("commitment")) for p, v in (row.orders or {}).items()}
    position, nxt = Position.from_dict(variant, row.position), Position.from_dict(variant, row.next)
    rules = RuleSpec.read(row.rules).options(variant.default_rules)
    return PhaseResult(row.game_id, Phase.parse(row.phase), row.revision, row.number, row.current, variant, rules,
                       position, nxt, orders, tuple(with_rule_results(row.results, position, nxt, rules)),
                       row.winner, tuple(row.civil_disorder or ()), row.adjudicated_at, row.ledger_seq, row.entry_hash)


def with_rule_results(results: Sequence[Mapping[str, JSONValue]], position: Position, nxt: Position,
                      options: RuleOptions) -> list[OrderResult]:
    """A phase's results and, after them, what the rules did that no order said: the retreats the rule set
    made, and the units the civil-disorder rule removed.

    No order of the player's says so, but the positions before and after the phase do: in a
    retreat phase a unit with one space open found there (seed 004 s16, Graustark's automatic
    retreat); in an adjustment phase a unit gone that no successful removal named was removed
    by the rule set's civil-disorder rule (a power that ordered too few removals).
    """
    out = [OrderResult.from_dict(r) for r in results]
    if position.phase.is_retreat:
        ordered = {r.order for r in out if r.result == "succeeds" and r.order}
        for unit, where in retreats_by_rule(position, nxt, options):
            order = f"{unit} R {where}"
            if order not in ordered:
                out.append(OrderResult(unit.power, RULE_RETREAT_TEXT, order, "succeeds",
                                       RULE_RETREAT[options.auto_retreat], by_rule=True))
        return out
    if not position.phase.is_adjustment:
        return out
    ordered = {r.order for r in out if r.result == "succeeds" and r.order}
    for power in position.variant.powers:  # the order the position lists them in
        kept = {str(u) for u in nxt.units_of(power)}
        for unit in position.units_of(power):
            if str(unit) not in kept and f"{unit} D" not in ordered:
                out.append(OrderResult(power, "(civil disorder)", f"{unit} D", "succeeds", CIVIL_DISORDER_REMOVAL,
                                       by_rule=True))
    return out


@dataclass(frozen=True)
class GameHead:
    """A game's place in the listing: enough to know whether anything happened since."""

    id: str
    status: str
    head_seq: int
    deadline: datetime | None


@dataclass(frozen=True)
class Changes:
    """What a game's ledger recorded after some entry: each entry's kind, the phases and press among them."""

    game: GameView
    entries: tuple[tuple[int, str], ...]  # (seq, kind)
    phases: Mapping[int, PhaseResult]  # by the entry that published them
    press: Mapping[int, PressItem]  # by the entry that recorded them, as the GM sees it


class Reading:
    """What players, the GM and the public may look at."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def game(self, game_id: str) -> GameView:
        """A game at a glance: position, rules, seats, schedule, who has ordered (never what)."""
        with self._desk.reading() as rec:
            return kept_view(self._desk.memo, self._desk.snapshot(rec, game_id))

    def game_page(self, game_id: str) -> GamePage:
        """A game's public page in one look at the game: the view, the published phases and the public press
        (each worked out once for each head of the game)."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            return GamePage(kept_view(self._desk.memo, state), kept_results(self._desk.memo, rec, state),
                            kept_public_press(self._desk.memo, state, lambda: rec.press(game_id)))

    def game_ids(self) -> list[str]:
        """Every game's id, oldest first."""
        with self._desk.reading() as rec:
            return rec.game_ids()

    def heads(self) -> tuple[GameHead, ...]:
        """Every game's status, ledger head and deadline (a cheap listing for background passes)."""
        with self._desk.reading() as rec:
            return tuple(GameHead(r.id, r.status, r.head_seq, r.deadline) for r in rec.games())

    def heads_of(self, game_ids: Iterable[str]) -> tuple[GameHead, ...]:
        """These games' status, ledger head and deadline (those that exist), each read by its id."""
        with self._desk.reading() as rec:
            rows = [rec.game(game_id) for game_id in sorted(set(game_ids))]
            return tuple(GameHead(r.id, r.status, r.head_seq, r.deadline) for r in rows if r is not None)

    def changes(self, game_id: str, after: int) -> Changes:
        """What happened in a game after ledger entry `after` (for the mail door's dispatcher)."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            entries = tuple((e.seq, e.kind) for e in rec.entries(game_id, after=after))
            # only what came after: a results pass read a long game's every phase and letter for each game it mailed
            phases = {r.ledger_seq: phase_result(r) for r in rec.phases(game_id, current_only=False, after=after)}
            press = {r.ledger_seq: press_item(r, GM) for r in rec.press(game_id, after=after)}
            return Changes(kept_view(self._desk.memo, state), entries, phases, press)

    def games(self) -> tuple[GameView, ...]:
        """Every game, oldest first."""
        from .tx import state_of
        with self._desk.reading() as rec:
            return tuple(game_view(state_of(row)) for row in rec.games())

    def results(self, game_id: str) -> tuple[PhaseResult, ...]:
        """The published phases (current revisions), in order: what every player may see."""
        with self._desk.reading() as rec:
            return kept_results(self._desk.memo, rec, self._desk.snapshot(rec, game_id))

    def result(self, game_id: str, phase: str) -> PhaseResult:
        """One published phase (its current revision; of a retreat phase played in rounds, the last)."""
        wanted = parse_phase(phase)
        for r in reversed(self.results(game_id)):
            if str(r.phase) == wanted:
                return r
        from .errors import NotFound
        raise NotFound(f"{Phase.parse(wanted).title} has not been published in {game_id}")

    def history(self, game_id: str) -> History:
        """The whole record as the GM sees it: phases (with corrections), press, the ledger."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            return History(game_view(state), tuple(phase_result(r) for r in rec.phases(game_id, current_only=False)),
                           tuple(press_item(p, GM) for p in rec.press(game_id)), tuple(rec.entries(game_id)))

    def final_report(self, game_id: str) -> str:
        """The final report of a finished game: how it ended, every power's centres and units, the centre chart."""
        from . import report
        view = self.game(game_id)
        if view.result is None:
            raise GMError(f"{game_id} is {view.status}: there is no final report until it ends")
        return report.final(view, self.results(game_id))


def parse_phase(text: str) -> str:
    """A phase named in a request ('s1901m'); GMError names a bad one."""
    try:
        return str(Phase.parse(str(text).strip().upper()))
    except ValueError as exc:
        raise GMError(str(exc)) from None


__all__ = ["CIVIL_DISORDER_REMOVAL", "History", "Reading", "Records", "game_view", "kept_results", "kept_view", "parse_phase", "phase_result",
           "with_rule_results"]
