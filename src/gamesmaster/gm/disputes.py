"""Disputes: a player says, on the public record, that a set of orders in its power's name was not its own.

A receipt check that answers "replaced by set #3" tells the player a later set is on the
record; if the player did not send it, it disputes it from the same check (site, mail,
API). The dispute is a `set-disputed` entry, made like any action of the player's (proved
by a key on the record, gm.keys, so nobody but the player can dispute in its name), and a
notice to every player, so the GM and everyone see it at once; `verify` lists every
dispute of the record.
"""

from __future__ import annotations

from typing import Iterable

from dataclasses import replace

from ..ledger import Entry, Receipt
from . import limits
from .desk import Desk, acting
from .errors import GMError
from .state import Dispute, GameState
from .views import ReceiptCheck
from .events import EventKind, SetDisputed


def with_dispute(check: ReceiptCheck, state: GameState) -> ReceiptCheck:
    """A check of a replaced set that also says when the set that replaced it is disputed already (and so
    is not offered for dispute again)."""
    if check.status != "replaced":
        return check
    mine = Receipt.parse(check.receipt)
    # a power's sets in a phase are numbered one after another, so the one that replaced set #n is #n+1
    found = next((d for d in state.disputes if (d.phase, d.power, d.number) == (mine.phase, mine.power,
                                                                                mine.number + 1)), None)
    if found is None:
        return check
    return replace(check, disputed=found.seq,
                   message=f"{check.message}; set #{found.number} is disputed on the record (entry {found.seq})")


class Disputes:
    """Disputing a later set of one's own power that one did not send."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def dispute(self, game_id: str, receipt: str, text: str = "", *, credential: str | None) -> Dispute:
        """Dispute the set that replaced the one a receipt names (the player of the power only)."""
        try:
            mine = Receipt.parse(limits.clean(receipt, "the receipt", limits.RECEIPT_CHARS))
        except ValueError as exc:
            raise GMError(str(exc)) from None
        if mine.game != game_id:
            raise GMError(f"this receipt is for game {mine.game}, not {game_id}")
        text = limits.reason(text, "what you say of it")
        with self._desk.transaction(game_id) as tx:
            actor = acting(tx.rec, tx.state, mine.power, credential, False, now=tx.now)
            later = _later_set(tx.rec.entries(game_id), mine)
            if later is None:
                raise GMError(f"no later set of {mine.power.capitalize()}'s for {mine.phase} replaced set "
                              f"#{mine.number} on the record: there is nothing to dispute")
            if any(d.phase == mine.phase and d.power == mine.power and d.number == later for d in tx.state.disputes):
                raise GMError(f"set #{later} of {mine.power.capitalize()} for {mine.phase} is disputed already")
            entry = tx.record(SetDisputed(phase=mine.phase, power=mine.power, number=later, receipt=str(mine), text=text,
                                          by=actor.signed(tx.state)))
            said = f' They say: "{text}"' if text else ""
            tx.notice(f"{mine.power.capitalize()}'s player disputes set #{later} of {mine.power.capitalize()}'s "
                      f"orders for {mine.phase}: they did not send it (ledger entry {entry.seq}).{said} The "
                      "gamesmaster is asked to answer; the record keeps the dispute.")
            return tx.state.disputes[-1]


def _later_set(entries: Iterable[Entry], mine: Receipt) -> int | None:
    """The number of the set of the power that followed the receipt's in its phase, if the record has one."""
    found = False
    for e in entries:
        p = e.payload
        if e.kind != EventKind.ORDERS_SUBMITTED or p is None or p.get("phase") != mine.phase or p.get("power") != mine.power:
            continue
        number = int(p["number"])
        if number == mine.number and p.get("commitment") == mine.commitment:
            found = True
        elif found and number > mine.number:
            return number
    return None
