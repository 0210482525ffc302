"""The standings cache: each player's line in each game, as gm.standings folds it from the game's ledger.

Like the phases cache, it is rewritten from the ledger (by every change that can alter a
game's lines, and by `gamesmaster rebuild`); nothing here decides what a line says.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal, Sequence

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from . import schema as t

Outcome = Literal["won", "drew", "lost", "left", "playing"]


@dataclass(frozen=True)
class Line:
    """One player's part in one game."""

    game_id: str
    player: int  # the seat's number in the game
    key: str  # the account's public ref, or "name:" + the seat's name in lower case (no account claimed it)
    name: str
    title: str
    status: str  # the game's: forming, active, paused, finished
    powers: tuple[str, ...] = ()
    outcome: Outcome = "playing"
    score: float | None = None  # the final score (several powers: their sum); None: not scored or not finished
    rank: int | None = None  # place at the end by score (or by the result), 1 the best; None: not finished or left
    ordered: int = 0  # phases the player's powers were ordered for in time
    missed: int = 0  # phases a power of the player's had no order from its player at the deadline
    left: bool = False  # replaced out of the game, or resigned from it
    replacement: bool = False  # took over a power in the game as a replacement
    ended_at: str | None = None
    leagues: tuple[str, ...] = field(default=())


def _line(r: t.AnyRow) -> Line:
    m = r._mapping
    return t.record(Line, r, powers=tuple(m["powers"] or ()), leagues=tuple(m["leagues"] or ()))


class StandingsRecords:
    """The standings cache, in one open transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def put(self, game_id: str, lines: Sequence[Line]) -> None:
        """Replace a game's lines."""
        self.conn.execute(delete(t.standings).where(t.standings.c.game_id == game_id))
        if lines:
            self.conn.execute(insert(t.standings), [{**asdict(x), "powers": list(x.powers), "leagues": list(x.leagues)}
                                                    for x in lines])

    def game(self, game_id: str) -> list[Line]:
        """A game's lines, by seat."""
        q = select(t.standings).where(t.standings.c.game_id == game_id).order_by(t.standings.c.player)
        return [_line(r) for r in self.conn.execute(q)]

    def of(self, key: str) -> list[Line]:
        """A player's lines in every game, the latest ended last (games still running at the end)."""
        q = select(t.standings).where(t.standings.c.key == key)
        return sorted((_line(r) for r in self.conn.execute(q)), key=lambda x: (x.ended_at or "~", x.game_id))

    def fingerprint(self) -> int:
        """A number that changes whenever any game's lines may have: every game's ledger head, hashed."""
        q = select(t.games.c.id, t.games.c.head_hash).order_by(t.games.c.id)
        return hash(tuple((r.id, r.head_hash) for r in self.conn.execute(q)))

    def games(self) -> set[str]:
        """The games that have lines."""
        return {r.game_id for r in self.conn.execute(select(t.standings.c.game_id).distinct())}

    def all(self) -> list[Line]:
        """Every line of every game."""
        return [_line(r) for r in self.conn.execute(select(t.standings).order_by(t.standings.c.game_id,
                                                                                 t.standings.c.player))]
