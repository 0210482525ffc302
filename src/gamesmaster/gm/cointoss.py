"""The coin toss of the two-player game (rulebook XIV.2, World War I): "Before the Fall 1914
adjustments, a coin is flipped. Italy joins the winner of the toss in Spring 1915."

The toss is drawn by lot from a recorded seed, like the powers, and announced; when the
joining phase opens the power goes to the player of the side that won. The rules engine
opens the power's territory from that phase on (`rules.adjudication`); this module only
records who commands it.
"""

from __future__ import annotations

import random
import secrets
from typing import Sequence

from ..rules import Phase
from .state import GameState
from .tx import Transaction
from .events import CoinTossed, PowerJoined

METHOD = "random.Random(seed).randrange(len(sides))"


def toss(seed: int, sides: int) -> int:
    """The side the seed's coin falls for (verify tosses it again)."""
    return random.Random(seed).randrange(sides)


def toss_due(state: GameState) -> bool:
    """Whether the set-up's coin is to be tossed now: it has one, it is not tossed yet, its phase has come."""
    setup = state.variant.coin_toss
    position = state.position
    return (setup is not None and not state.coin_toss and position is not None
            and position.phase.order >= Phase.parse(setup[1]).order)


def join_due(state: GameState) -> bool:
    """Whether the tossed power joins its winner now: tossed, not yet joined, its phase has come."""
    position = state.position
    return (bool(state.coin_toss) and not state.coin_toss["joined"] and position is not None
            and position.phase.order >= Phase.parse(state.coin_toss["joins"]).order)


def winner_seat(state: GameState, winner: Sequence[str]) -> int | None:
    """The player who commands the side that won the toss (None if nobody plays it)."""
    holder = next((h for p in winner if (h := state.holder(p)) is not None), None)
    return holder.number if holder else None


def toss_and_join(tx: Transaction) -> None:
    """Toss the coin when its phase comes, and give the power to the winner when its phase comes."""
    if toss_due(tx.state):
        state = tx.state
        setup = state.variant.coin_toss
        assert setup is not None
        power, _, joins = setup
        sides = [[name, list(powers)] for name, powers in state.variant.players]
        seed = secrets.randbits(63)
        name, winner = sides[toss(seed, len(sides))]
        tx.record(CoinTossed(power=power, phase=state.phase, seed=seed, sides=sides, method=METHOD, name=str(name),
                             winner=tuple(winner), joins=joins))
        number = winner_seat(tx.state, winner)
        seat = tx.state.seat(number) if number else None
        title = state.variant.powers[power].name
        tx.notice(f"The coin is tossed (seed {seed}, on the record): {name}"
                  + (f" ({seat.name})" if seat else "") + f" wins. {title} joins {name} in "
                  f"{Phase.parse(joins).title}.")
    if join_due(tx.state):
        state = tx.state
        power, name, winner = state.coin_toss["power"], state.coin_toss["name"], state.coin_toss["winner"]
        number = winner_seat(state, winner)
        seat = state.seat(number) if number else None
        tx.record(PowerJoined(power=power, phase=state.phase, side=name, player=number, name=seat.name if seat else None))
        title = state.variant.powers[power].name
        tx.notice(f"{title} joins {name} from {Phase.parse(state.phase or '').title}"
                  + (f": {seat.name} commands it" if seat else ", which nobody plays: it is in civil disorder")
                  + f". {state.variant.powers[power].adjective} territory is open to every unit.")
