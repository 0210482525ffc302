"""Seats for DAIDE bots: the GM opens powers to bots; bots take them, or stand in for players who miss a move.

A bot sits at the table the way a person does, and the ledger says so with the entries
people's seats already use:

- `open_to_bots` records the GM's decision (a `gm-action` "bots": which powers a bot may
  take, and whether bots may stand in for powers in civil disorder). The state keeps it
  (`GameState.bots`).
- `seat_bot` gives a bot an open seat: in a game still forming it signs up as a player
  (`player-joined`; the lot gives it a power like everyone); in a running game it takes
  an open power nobody plays, as a replacement player does (`player-joined` as stand-by,
  then `player-replaced`). Either way it gets a credential of its own.
- `call_bot` hands a power whose player missed a move to a connected bot, as the
  `standby` policy calls a stand-by (`player-joined`, then `standby-called` with
  `"bot": true`): the bot orders for the power with its own credential; if the player
  orders himself he keeps the country (`standby-released` at the deadline); if the bot's
  orders are used, the bot plays the power (`player-replaced`) until the GM puts a
  replacement on it (`gamesmaster replace`). `release_bot` lets the bot go when the GM
  has seated a replacement first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .adjudicating import reassign
from .desk import Desk, power_of
from .errors import GMError
from .games import add_seat, lots, playable_powers
from .state import PLAYER, STANDBY, GameState
from .tx import Transaction
from .events import BotsAllowed, StandbyCalled, StandbyReleased

BOT_SUFFIX = "(DAIDE bot)"
MAX_BOT_NAME = 60


@dataclass(frozen=True)
class BotPolicy:
    """What the GM allows bots in a game: the powers they may take, and standing in for missed seats."""

    game: str
    open: tuple[str, ...]
    civil_disorder: bool

    @property
    def any(self) -> bool:
        """Whether bots may sit at this table at all."""
        return bool(self.open) or self.civil_disorder


@dataclass(frozen=True)
class BotSeat:
    """A seat given to a bot: its name on the record, its credential (shown once) and the power, once known."""

    game: str
    name: str
    number: int
    credential: str
    power: str | None  # None in a forming game until the lot is drawn
    role: str  # player, or standby (standing in for a power in civil disorder)
    full: bool = False  # a forming game now has a player for every power: it may start


def policy_of(state: GameState) -> BotPolicy:
    """A game's bot policy as its ledger leaves it."""
    doc = state.bots or {}
    return BotPolicy(state.id, tuple(doc.get("open") or ()), bool(doc.get("civil_disorder")))


def bot_name(state: GameState, name: str) -> str:
    """The name a bot's seat goes on the record with: its own, marked as a bot, unique in the game."""
    clean = " ".join(str(name).split())[:MAX_BOT_NAME] or "bot"
    base = f"{clean} {BOT_SUFFIX}"
    candidate, n = base, 1
    while state.seat_named(candidate) is not None:
        n += 1
        candidate = f"{clean} {n} {BOT_SUFFIX}"
    return candidate


def is_bot(name: str) -> bool:
    """Whether a seat's name marks it as a DAIDE bot's."""
    return name.endswith(BOT_SUFFIX)


def open_seats(state: GameState) -> list[str]:
    """The powers open to bots that nobody plays now, in the variant's order (alive ones only)."""
    policy = policy_of(state)
    position = state.position
    alive = set(position.powers_alive()) if position is not None else set()
    return [p for p in state.variant.powers if p in policy.open and state.holder(p) is None and p in alive]


class Bots:
    """Opening a game to DAIDE bots, seating them, and handing them powers in civil disorder."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def open_to_bots(self, game_id: str, powers: Sequence[str] | None = None, *, civil_disorder: bool = False,
                     reason: str = "") -> BotPolicy:
        """Open powers to bots (None: every power players may hold) and say whether bots stand in for missed seats."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status == "finished":
                raise GMError(f"{game_id} is over")
            chosen = playable_powers(state) if powers is None else [power_of(state, p) for p in powers]
            neutral = [p for p in chosen if p not in playable_powers(state)]
            if neutral:
                raise GMError(f"{', '.join(p.capitalize() for p in neutral)}: neutral in this set-up, nobody plays it")
            order = list(state.variant.powers)
            chosen = sorted(set(chosen), key=order.index)
            tx.record(BotsAllowed(open=tuple(chosen), civil_disorder=bool(civil_disorder), reason=reason))
            words = []
            if chosen:
                words.append(f"{', '.join(p.capitalize() for p in chosen)} may be played by DAIDE bots "
                             "(where nobody plays them)")
            if civil_disorder:
                words.append("a connected bot stands in for a power in civil disorder until a replacement takes the seat")
            tx.notice("The gamesmaster " + ("opens the game to bots: " + "; ".join(words) if words
                                            else "closes the game to new DAIDE bots") + (f" ({reason})." if reason else "."))
            return policy_of(tx.state)

    def bot_policy(self, game_id: str) -> BotPolicy:
        """What the GM allows bots in a game."""
        with self._desk.reading() as rec:
            return policy_of(self._desk.snapshot(rec, game_id))

    def seat_bot(self, game_id: str, name: str, power: str | None = None) -> BotSeat:
        """Give a bot a seat open to bots (a power, if named); GMError when none is free."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            policy = policy_of(state)
            if not policy.open:
                raise GMError(f"{game_id} has no seats open to bots")
            if state.status == "forming":
                players = [s for s in state.seats if s.role == PLAYER]
                # A seat a lot: in a set-up where one player commands several powers, a bot
                # takes a grouping and plays its first power (more bots may share its credential).
                if len(players) >= len(lots(state)) or len(policy.open) < len(playable_powers(state)):
                    raise GMError(f"{game_id} has no seat left for a bot")
                seat_name = bot_name(state, name)
                credential = add_seat(tx, seat_name, PLAYER)
                full = len(players) + 1 == len(lots(state))
                return BotSeat(game_id, seat_name, len(tx.state.seats), credential, None, PLAYER, full)
            if state.status == "finished":
                raise GMError(f"{game_id} is over")
            free = open_seats(state)
            if power is not None:
                wanted = power_of(state, power)
                free = [p for p in free if p == wanted]
            if not free:
                raise GMError(f"{game_id}: no power open to bots is free")
            seat_name = bot_name(state, name)
            credential = add_seat(tx, seat_name, STANDBY)
            number = len(tx.state.seats)
            reassign(tx, free[0], number, "a DAIDE bot took a seat the gamesmaster opened to bots")
            return BotSeat(game_id, seat_name, number, credential, free[0], PLAYER)

    def call_bot(self, game_id: str, power: str, name: str) -> BotSeat:
        """Hand a power whose player missed a move to a bot, as a stand-by, until a replacement takes the seat."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            pw = power_of(state, power)
            if not policy_of(state).civil_disorder:
                raise GMError(f"{game_id} does not hand powers in civil disorder to bots")
            if state.status not in ("active", "paused"):
                raise GMError(f"{game_id} is {state.status}")
            holder = state.holder(pw)
            if holder is None or holder.missed == 0:
                raise GMError(f"{pw.capitalize()} is not a player's power in civil disorder")
            if state.standby_for(pw) is not None:
                raise GMError(f"a stand-by is already called for {pw.capitalize()}")
            seat_name = bot_name(state, name)
            credential = add_seat(tx, seat_name, STANDBY)
            number = len(tx.state.seats)
            tx.record(StandbyCalled(power=pw, standby=number, name=seat_name, player=holder.number, phase=state.phase,
                                    bot=True))
            tx.notice(f"{seat_name} stands in for {pw.capitalize()}, in civil disorder, until a replacement takes "
                      f"the seat; if {holder.name} sends orders, {holder.name} keeps the country.")
            return BotSeat(game_id, seat_name, number, credential, pw, STANDBY)

    def release_bot(self, game_id: str, power: str, reason: str = "a replacement took the seat") -> None:
        """Let a bot standing in for a power go (its player is back, or a replacement was seated)."""
        with self._desk.transaction(game_id) as tx:
            _release(tx, power_of(tx.state, power), reason)


def _release(tx: Transaction, power: str, reason: str) -> None:
    standby = tx.state.standby_for(power)
    if standby is None or not is_bot(standby.name):
        raise GMError(f"no bot stands in for {power.capitalize()}")
    tx.record(StandbyReleased(power=power, standby=standby.number, name=standby.name, reason=reason))
    tx.notice(f"{standby.name} no longer stands in for {power.capitalize()} ({reason}).")


__all__ = ["BOT_SUFFIX", "BotPolicy", "BotSeat", "Bots", "bot_name", "is_bot", "open_seats", "policy_of"]
