"""Each player's part in a game, read from its ledger: the lines a club's standings, reliability and ratings add up.

A line is one player (an account, or a name where no account claimed the seat) in one
game: the powers played, the result and score at the end, the phases ordered on time
and missed, and whether the player left (replaced, or resigned) or came in as a
replacement. `lines_of` folds the whole ledger; the store keeps the lines as a cache
(`gm_standings`) that every change which can alter them rewrites (docs/standings.md).
"""

from __future__ import annotations

from typing import Iterable

from ..ledger import Entry
from ..store.standings import Line as Line, Outcome  # Line: the doors read it from here
from .fold import apply, read_event
from .standing import to_act
from .state import FORMER, PLAYER, GameState
from .events import (Correction, CredentialReplaced, GameEnded, GameStarted, LeagueAdded, LotsDrawn, PhaseAdjudicated,
                     PlayerJoined, PlayerReplaced, PlayerResigned, PowerJoined, PowersAssigned, SeatClaimed, kinds)

NAME_KEY = "name:"  # the key of a player no account claimed: the name on the seat (docs/standings.md)

# The entries that can change a game's lines; any other leaves them as they were.
AFFECTS = kinds(PlayerJoined, SeatClaimed, CredentialReplaced, LotsDrawn, PowersAssigned, GameStarted, PhaseAdjudicated,
                Correction, GameEnded, PlayerReplaced, PlayerResigned, PowerJoined, LeagueAdded)


def player_key(state: GameState, number: int, name: str) -> str:
    """Who a seat is across games: its account, or its name where no account claimed it."""
    return state.claims.get(str(number)) or NAME_KEY + name.strip().lower()


def lines_of(entries: Iterable[Entry], game_id: str) -> list[Line]:
    """Every player's line in a game, folded from its ledger."""
    state: GameState | None = None
    ordered: dict[int, int] = {}
    missed: dict[int, int] = {}
    left: set[int] = set()
    came_in: set[int] = set()
    held: dict[int, tuple[str, ...]] = {}  # the powers a seat held last (a former seat's, when it left)
    leagues: list[str] = []
    for e in entries:
        ev = None if e.sealed else read_event(e)
        if state is not None and isinstance(ev, PhaseAdjudicated):
            _count(state, ordered, missed)
        elif state is not None and isinstance(ev, PlayerReplaced):
            if ev.old is not None:
                left.add(ev.old)
            came_in.add(ev.new)
        elif isinstance(ev, LeagueAdded):
            leagues[:] = [x for x in leagues if x != ev.league] + ([] if ev.removed else [ev.league])
        state, _ = apply(state, e, game_id, ev)
        for seat in state.seats:
            if seat.powers:
                held[seat.number] = seat.powers
        for seat in state.seats:
            if seat.role == FORMER and seat.number in held:
                left.add(seat.number)
    if state is None:
        return []
    return _lines(state, ordered, missed, left, came_in, held, tuple(leagues))


def _count(state: GameState, ordered: dict[int, int], missed: dict[int, int]) -> None:
    """A phase's deadline: each seat with a power to order counts it as ordered on time, or missed."""
    seats: dict[int, bool] = {}
    for power in to_act(state):
        holder = state.holder(power)
        if holder is not None:
            seats[holder.number] = seats.get(holder.number, True) and state.order_set(power, PLAYER) is not None
    for number, on_time in seats.items():
        target = ordered if on_time else missed
        target[number] = target.get(number, 0) + 1


def _lines(state: GameState, ordered: dict[int, int], missed: dict[int, int], left: set[int], came_in: set[int],
           held: dict[int, tuple[str, ...]], leagues: tuple[str, ...]) -> list[Line]:
    result = state.result if state.status == "finished" else None
    players = [s for s in state.seats if s.role == PLAYER and s.powers]
    scores = {s.number: round(sum(result.scores.get(p, 0.0) for p in s.powers), 2)
              for s in players} if result is not None and result.scores else {}
    ranks = _ranks(scores) if scores else _ranks({s.number: _result_points(result, s.powers) for s in players}) \
        if result is not None else {}
    out = []
    for seat in state.seats:
        if seat.number not in held:
            continue  # a stand-by never called, or a player not yet given a power
        gone = seat.role != PLAYER
        outcome: Outcome = "left" if gone else _outcome(result, seat.powers) if result is not None else "playing"
        out.append(Line(state.id, seat.number, player_key(state, seat.number, seat.name), seat.name, state.title,
                        state.status, held[seat.number], outcome, None if gone else scores.get(seat.number),
                        None if gone else ranks.get(seat.number), ordered.get(seat.number, 0),
                        missed.get(seat.number, 0), seat.number in left and gone, seat.number in came_in,
                        result.at if result is not None else None, leagues))
    return out


def _outcome(result: object, powers: tuple[str, ...]) -> Outcome:
    winners = getattr(result, "winners", ())
    if not any(p in winners for p in powers):
        return "lost"
    return "won" if len(winners) == 1 or set(winners) <= set(powers) else "drew"


def _result_points(result: object, powers: tuple[str, ...]) -> float:
    """An unscored game ranks its players by the result: a share of the win or draw, else nothing."""
    winners = tuple(getattr(result, "winners", ()))
    return sum(1 for p in powers if p in winners) / len(winners) if winners else 0.0


def _ranks(points: dict[int, float]) -> dict[int, int]:
    """Places by points, the highest first; equal points share the better place (1, 2, 2, 4)."""
    order = sorted(points.values(), reverse=True)
    return {n: order.index(v) + 1 for n, v in points.items()}
