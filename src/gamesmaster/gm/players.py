"""Replacement players: the GM puts someone on a power; a player resigns and names a successor."""

from __future__ import annotations

from .adjudicating import reassign
from .desk import Desk, acting, power_of
from ..ledger import fingerprint
from . import credentials as cred
from . import keys
from . import limits
from .errors import Forbidden, GMError, NotFound
from .games import add_seat
from .state import STANDBY
from .events import CredentialReplaced, PlayerResigned


class Players:
    """Who plays which power, after the start, and their credentials."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def new_credential(self, game_id: str, who: str, *, reason: str = "") -> str:
        """A new credential for a player (named, or by the power played): the old one stops working at once.

        For a player who lost theirs, or whose credential someone else has learnt. Returns
        the new credential, shown once; the record keeps its fingerprint and the reason."""
        reason = limits.reason(reason)
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            seat = state.seat_named(limits.name(who, "the player"))
            if seat is None:
                try:
                    seat = state.holder(power_of(state, who))
                except NotFound:
                    seat = None
            if seat is None:
                names = ", ".join(s.name for s in state.seats if s.role != "former")
                raise NotFound(f"no player or power {who!r} in {game_id} (players: {names})")
            secret = cred.new_secret()
            stored = cred.hash_secret(secret)
            tx.record(CredentialReplaced(player=seat.number, name=seat.name, key=fingerprint(stored),
                                         reason=reason or "issued again by the gamesmaster",
                                         credential_key=keys.new_key(keys.Secret(secret, keys.CREDENTIAL), seat.number)))
            tx.rec.put_credential(game_id, seat.number, stored)
            return f"{seat.number}.{secret}"

    def replace_player(self, game_id: str, power: str, name: str, *, reason: str = "") -> str:
        """The GM puts a new player on a power (Armageddonia; or on a Brobdingnag player's request).

        Returns the new player's credential, shown once."""
        reason = limits.reason(reason)
        with self._desk.transaction(game_id) as tx:
            pw = power_of(tx.state, power)
            if tx.state.status == "finished":
                raise GMError(f"{game_id} is over")
            existing = tx.state.seat_named(name)
            secret = None
            if existing is None or existing.role != STANDBY:
                secret = add_seat(tx, name, STANDBY)
                existing = tx.state.seat_named(name)
            assert existing is not None
            reassign(tx, pw, existing.number, reason or "appointed by the gamesmaster")
            return secret or "(the stand-by keeps the credential already given)"

    def resign(self, game_id: str, power: str, successor: str | None = None, *, credential: str | None = None,
               by_gm: bool = False) -> str | None:
        """A player resigns, naming a successor (Brobdingnag); returns the successor's credential."""
        with self._desk.transaction(game_id) as tx:
            actor = acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now)
            pw = actor.power or ""
            holder = tx.state.holder(pw)
            if actor.author == STANDBY or holder is None:
                raise Forbidden(f"only {pw.capitalize()}'s player can resign {pw.capitalize()}")
            tx.record(PlayerResigned(power=pw, player=holder.number, name=holder.name, successor=successor,
                                     by=actor.signed(tx.state)))
            if successor:
                secret = add_seat(tx, successor, STANDBY)
                new = tx.state.seat_named(successor)
                assert new is not None
                reassign(tx, pw, new.number, f"{holder.name} resigned and named {successor}")
                return secret
            tx.notice(f"{holder.name} has resigned {pw.capitalize()}; the gamesmaster will appoint a replacement. "
                      "Until then the country is in civil disorder.")
            return None


