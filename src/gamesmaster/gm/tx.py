"""One change to one game: its state at the ledger's head, and the entries the change appends.

Every change the gamesmaster makes is a `Transaction`: it opens the game's row (locked),
checks that the cached state is at the ledger's head (and folds the ledger again if it
is not), appends entries, applies each to the state with `gm.fold.apply`, writes
each entry's cache rows as it goes, and on `finish` the state. Nothing else writes a
game's tables.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Mapping

from ..config import TestHooks
from ..ledger import Entry, new_salt, parse_stamp
from ..store import Records
from ..store.repo import GameRow, PhaseRow, PressRow
from ..store.standings import StandingsRecords
from .errors import GMError, NotFound
from .events import ABSENT, Event, Press, unhandled
from .fold import CacheRow, Superseded, apply, fold
from .standings import AFFECTS, lines_of
from .state import GM, GameState


def state_of(row: GameRow, older: GameState | None = None) -> GameState:
    """The state cached in a game's row (older: a state of the game this process holds, whose fields' written
    texts the new one keeps where they are equal)."""
    return GameState.from_dict(json.loads(row.state)).texts_from(older)


def game_row(state: GameState, created: datetime, now: datetime) -> GameRow:
    """The games-table row that caches a state."""
    return GameRow(state.id, state.title, state.status, state.variant_name, state.phase, state.deadline_at,
                   state.head_seq, state.head_hash, state.snapshot_text(), created, now)


def missing(rec: Records, game_id: str) -> NotFound:
    """The error for a game that does not exist, listing some that do."""
    known = rec.game_ids()
    hint = f" (games: {', '.join(known[:12])})" if known else " (there are no games yet)"
    return NotFound(f"no game {game_id!r}{hint}")


def refold(rec: Records, game_id: str) -> tuple[GameState, list[CacheRow]]:
    """A game's state and cache rows folded afresh from its whole ledger."""
    state, rows = fold(rec.entries(game_id), game_id)
    if state is None:
        raise missing(rec, game_id)
    return state, rows


def write_caches(rec: Records, rows: list[CacheRow]) -> None:
    """Write the cache rows entries added, in order."""
    for row in rows:
        if isinstance(row, Superseded):
            rec.supersede_phase(row.game_id, row.number)
        elif isinstance(row, PhaseRow):
            rec.insert_phase(row)
    rec.insert_press([row for row in rows if isinstance(row, PressRow)])


def rebuild(rec: Records, game_id: str, now: datetime) -> GameState:
    """Rewrite every cache of a game from its ledger (after a fault, or to repair what verify found)."""
    state, rows = refold(rec, game_id)
    rec.clear_caches(game_id)
    write_caches(rec, rows)
    rec.put_game(game_row(state, parse_stamp(state.created), now), new=rec.game(game_id) is None)
    write_lines(rec, game_id)
    return state


def write_lines(rec: Records, game_id: str) -> None:
    """Rewrite a game's lines in the standings cache from its whole ledger (gm.standings)."""
    StandingsRecords(rec.conn).put(game_id, lines_of(rec.entries(game_id), game_id))


class Transaction:
    """A game's record open for one change (the caller holds the database transaction)."""

    def __init__(self, rec: Records, game_id: str, now: datetime, *, create: bool = False,
                 known: GameState | None = None, hooks: TestHooks | None = None) -> None:
        """known: a state of the game this process already holds, used if the row is still at its head;
        hooks: the gamesmaster's test hooks (the fault tests' pause before an adjudication commits)."""
        self.rec = rec
        self.hooks = hooks or TestHooks()
        self.game_id = game_id
        self.now = now
        self.entries: list[Entry] = []
        self._unwritten: list[Entry] = []  # entries and press rows go to the store together, at the end
        self._press: list[PressRow] = []
        self._new = create
        self._status: str | None = None  # the game's status before this change
        head = rec.head(game_id, lock=True)
        if create:
            if head is not None or rec.last_entry(game_id) is not None:
                raise GMError(f"there is already a game {game_id!r}")
            self._state: GameState | None = None
            self._created = now
            return
        if head is None:
            raise missing(rec, game_id)
        self._created = head.created_at
        last = rec.last_entry(game_id)
        if last is not None:
            # Times on the ledger never go back (verify holds them to it): a change that waited for the
            # game behind a later one is written at that one's time, and a clock set back dates nothing
            # before the last entry.
            try:
                self.now = max(now, parse_stamp(last.at))
            except ValueError:
                pass  # an edited time: verify names it; this change keeps its own
        if last is not None and (last.seq, last.hash) == (head.seq, head.hash):
            if known is not None and known.head_hash == head.hash:
                self._state = known
            else:
                row = rec.game(game_id)
                assert row is not None
                self._state = state_of(row, known)
        else:  # the cache is behind (or was edited): the ledger says what the game is
            self._state = rebuild(rec, game_id, now)
        self._status = self._state.status

    @property
    def state(self) -> GameState:
        """The game as its ledger stands now, this change's entries included."""
        if self._state is None:
            raise GMError(f"game {self.game_id!r} has no record yet")
        return self._state

    def record(self, event: Event) -> Entry:
        """Append an event to the game's ledger and apply it to the state."""
        missing = unhandled(type(event))
        if missing:  # a kind of entry no fold, audit or description reads must not reach a ledger
            raise TypeError(f"{type(event).__name__} cannot be recorded: it has no handler in {', '.join(missing)}")
        head = (self._state.head_seq, self._state.head_hash) if self._state is not None else (0, "")
        entry = Entry.following(head[0], head[1], event.KIND.value, event.to_payload(), self.now)
        # The state takes the event as it was built: an event normalises itself on construction to the very value
        # the ledger gives back to every later fold (lists as tuples, words as their types; gm.events), so it is
        # not read back here (tests/gm/test_event_forms.py holds every class to that).
        self._state, rows = apply(self._state, entry, self.game_id, event)
        if self._new:  # the ledger's rows belong to the game's row: it comes first
            self.rec.put_game(game_row(self._state, self._created, self.now), new=True)
            self._new = False
        self._unwritten.append(entry)
        self._press.extend(row for row in rows if isinstance(row, PressRow))
        write_caches(self.rec, [row for row in rows if not isinstance(row, PressRow)])  # later steps read phases back
        self.entries.append(entry)
        return entry

    def notice(self, text: str, to: list[str] | None = None) -> Entry:
        """A notice from the gamesmaster in the press, on the record."""
        return self.press(GM, text, to, False, None)

    def press(self, sender: str, text: str, to: list[str] | None, anonymous: bool, by: object,
              extra: Mapping[str, Any] | None = None) -> Entry:
        """A press item (a release, a letter or a GM notice; extra: a question or an answer's number) on the record."""
        # a sealed letter's digest must not give its text away: it is salted
        return self.record(Press(sender=sender, to=tuple(to) if to is not None else None, anonymous=anonymous, text=text,
                                 phase=self.state.phase, **(extra or {}),
                                 by=ABSENT if by is None else by, salt=new_salt() if to else ABSENT))

    def finish(self) -> GameState:
        """Write the entries, their press and the state they led to (a statement each, however many)."""
        if self._unwritten:
            self.rec.append(self.game_id, self._unwritten)
            self.rec.insert_press(self._press)
            self._unwritten, self._press = [], []
        if self.entries:
            self.rec.put_game(game_row(self.state, self._created, self.now))
            # a line carries the game's status too (a pause or the live table's clock can change it)
            if any(e.kind in AFFECTS for e in self.entries) or self.state.status != self._status:
                write_lines(self.rec, self.game_id)
        return self.state
