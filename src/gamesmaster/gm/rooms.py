"""A seat's war room, and the GM's, each in one call: one look at the game, one check of the credential.

The war room page once asked the gamesmaster ten questions (the game, the orders on record,
a check of each set, the legal orders, the press, the questions, whether the browser can
act ...), and each checked the credential again (a session read from the store each time).
Here the seat is identified once and everything is worked out from the one state; the
answers to the sets on record are worked out once for each head of the game.
"""

from __future__ import annotations

from .desk import Desk, identify, no_key_words
from .errors import Forbidden
from .keys import live
from .press import kept_public_press, readable_press
from .questions import questions_of
from .submissions import check_text, checked_name, legal_orders_in, on_record, record_text
from .reading import kept_results, kept_view
from .state import GM, PLAYER, STANDBY, GameState, Seat
from .views import CommandedPower, GamePage, GameView, GMRoom, RecordAnswered, UnitOptions, WarRoom


def acting_power(seat: Seat, wanted: str | None = None) -> str | None:
    """The power a seat orders for: the one asked for among those it commands (a player of several
    powers), else its first (its own, or the one it stands by for); None if it commands none of them."""
    mine = seat.acts_for()
    if wanted:
        key = wanted.strip().upper()
        return key if key in mine else None
    return mine[0] if mine else None


class NotCommanded(Forbidden):
    """A seat asked for the war room of a power it does not command (its credential holds)."""


class Rooms:
    """The war room: everything a seat sees of its power, in one call."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def war_room(self, game_id: str, credential: str, wanted: str | None = None) -> WarRoom:
        """A seat's war room, open at the power `wanted` (one it commands; default its first).

        Forbidden if the credential (or sign-in) is not a seat's of the game, or the seat does not
        command the power asked for."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            seat, secret = identify(rec, state, credential, now=self._desk.now())
            power = acting_power(seat, wanted)
            if wanted and power is None:
                raise NotCommanded(f"{seat.name} does not command {wanted[:40]!r} in {game_id}")
            power = power or acting_power(seat)
            view = kept_view(self._desk.memo, state)
            commands = _commanded(view, seat, power)
            cannot_act = None if not state.keyed or live(state, seat.number, secret) else no_key_words(state, seat)
            if power is None:
                return WarRoom(view, seat, None, commands, cannot_act=cannot_act)
            room = WarRoom(view, seat, power, commands)
            author = STANDBY if seat.role == STANDBY else PLAYER
            records = self._records(state, power, author, room.can_order)
            options = self._desk.memo.derived(state, f"options {power}", lambda: _options(state, power)) \
                if room.can_order else ()
            rows = rec.press(game_id)  # read once for the letters and the questions
            press = readable_press(rows, seat.acts_for())
            questions = questions_of(state, rows, power)
            return WarRoom(view, seat, power, commands, records, options, press, questions, cannot_act)

    def gm_room(self, game_id: str) -> GMRoom:
        """A game as the GM console shows it, in one call (the caller has checked the GM credential)."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            view = kept_view(self._desk.memo, state)
            rows = rec.press(game_id)
            page = GamePage(view, kept_results(self._desk.memo, rec, state),
                            kept_public_press(self._desk.memo, state, lambda: rows))
            received = tuple(r for p in view.powers if p.ordered or p.standby_ordered
                             for r in on_record(state, p.power, None)) if view.phase is not None else ()
            return GMRoom(page, received, state.proposals, readable_press(rows, (GM,)), questions_of(state, rows, GM))

    def _records(self, state: GameState, power: str, author: str, answered: bool) -> tuple[RecordAnswered, ...]:
        """A power's sets on record by this author (player or stand-by: each sees its own), each answered order by order while it can still be changed: read once for
        each head of the game, or not at all when the submission that made the head handed its reading on."""
        out = []
        for r in on_record(state, power, author):
            checking = None
            if answered and state.position is not None:
                text = record_text(r.orders, r.conditional)
                checking = self._desk.memo.derived(state, checked_name(power, text), lambda: check_text(state, power, text))
            out.append(RecordAnswered(r, checking))
        return tuple(out)


def _commanded(view: GameView, seat: Seat, power: str | None) -> tuple[CommandedPower, ...]:
    statuses = {p.power: p for p in view.powers}
    out = []
    for p in seat.acts_for():
        info, status = view.variant.powers[p], statuses.get(p)
        out.append(CommandedPower(p, info.name, info.colour, bool(status and status.to_order),
                                  bool(status and (status.ordered or status.standby_ordered)), p == power))
    return tuple(out)


def _options(state: GameState, power: str) -> tuple[UnitOptions, ...]:
    position = state.position
    assert position is not None
    return UnitOptions.listed(position, legal_orders_in(position, power, state.options))


__all__ = ["NotCommanded", "Rooms", "acting_power"]
