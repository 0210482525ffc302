"""What this process has already worked out about a game at one ledger head.

A game changes only by a new ledger entry, and every entry moves the head. So a state read
from the store, and anything derived from it alone (the view the doors show, the published
results, the public press), holds for as long as the head is where it was: a reader then
pays for one small query (the head) instead of reading and decoding the whole game again.
Nothing here is trusted beyond that: a different head is a different key.

Some values hold longer than a head: the published phases, the public press and the board drawn
from them change only with a publishing entry or a new press item, while most entries (a set of
orders, a revision, a ready mark) change neither. Those are kept by `lasting`, under a key that
names what they are made from (the public head, the press count); a head that leaves the key
as it was finds them made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, TypeVar, cast

from .state import GameState

T = TypeVar("T")


class Memo:
    """Game states and values derived from them, by game and ledger head; the least recently used forgotten."""

    def __init__(self, games: int = 512) -> None:
        self.games = games
        self._lock = threading.Lock()
        # each game's state, and the values derived from it by name (each of its own type)
        self._kept: OrderedDict[str, tuple[GameState, dict[str, object]]] = OrderedDict()
        # each game's lasting values by name, with the key each was made under (forgotten with the game)
        self._lasting: dict[str, dict[str, tuple[object, object]]] = {}

    def state(self, game_id: str, head_hash: str) -> GameState | None:
        """The state of a game at this head, if this process has it."""
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is None or kept[0].head_hash != head_hash:
                return None
            self._kept.move_to_end(game_id)
            return kept[0]

    def latest(self, game_id: str) -> GameState | None:
        """The newest state of a game this process holds (whether it is still the head is the caller's to check)."""
        with self._lock:
            kept = self._kept.get(game_id)
            return kept[0] if kept is not None else None

    def keep(self, state: GameState) -> None:
        """Remember a state (replacing an older head of the same game)."""
        with self._lock:
            kept = self._kept.get(state.id)
            if kept is not None and kept[0].head_hash == state.head_hash:
                return
            self._kept[state.id] = (state, {})
            self._kept.move_to_end(state.id)
            while len(self._kept) > self.games:
                self._lasting.pop(self._kept.popitem(last=False)[0], None)

    def derived(self, state: GameState, name: str, make: Callable[[], T]) -> T:
        """A value worked out from a game at its head (made once, by the first reader to ask)."""
        with self._lock:
            kept = self._kept.get(state.id)
            values = kept[1] if kept is not None and kept[0] is state else None
            if values is not None and name in values:
                return cast(T, values[name])  # made by the `make` given with this name
        value = make()
        if values is not None:
            with self._lock:
                values.setdefault(name, value)
        return value

    def lasting(self, state: GameState, name: str, key: object, make: Callable[[], T]) -> T:
        """A value worked out from a game that holds while `key` is unchanged, whatever the head (the key names
        everything the value is made from, e.g. the public head for the published phases)."""
        with self._lock:
            kept = self._lasting.get(state.id, {}).get(name)
            if kept is not None and kept[0] == key:
                return cast(T, kept[1])  # made by the `make` given with this name and key
        value = make()
        with self._lock:
            if state.id in self._kept:  # kept as long as the game's state is, and no longer
                self._lasting.setdefault(state.id, {})[name] = (key, value)
        return value

    def forget(self, game_id: str) -> None:
        """Drop what is kept of a game (its caches were rewritten)."""
        with self._lock:
            self._kept.pop(game_id, None)
            self._lasting.pop(game_id, None)
