"""One season's board, as every door draws it.

The site and the mail door once drew the same season differently: the site tinted each
province by who controlled it over the game's history (rules.control: a province stays
its last occupier's after the unit leaves), the mail from the one position alone. A
`Board` is the board of one season worked out once, with control over the positions the
game was played from up to it, so that a door only renders it: the mailed results map
and the site's map of the same season are the same drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from ..maps import render_map, render_png
from ..rules import Outcome, Position
from ..rules.control import control
from ..rules.options import RuleOptions
from .desk import Desk
from .errors import GMError
from .reading import Reading, parse_phase


@dataclass(frozen=True)
class Board:
    """A season's board: the position, the results drawn on it (if any), who controls each province,
    its title, and a key naming exactly what it shows (for caches of its drawings)."""

    game: str
    position: Position
    rules: RuleOptions
    control: Mapping[str, str]
    title: str
    outcomes: tuple[Outcome, ...] | None
    key: tuple[object, ...]

    def svg(self, *, orders: Mapping[str, object] | None = None, highlight: str | None = None,
            width: int = 1200) -> str:
        """The board as an SVG document; `orders` (by power) drawn on it unread, `highlight` ringing a power's units."""
        return render_map(self.position, orders=orders, outcomes=self.outcomes, highlight_power=highlight,
                          title=self.title, width=width, rules=self.rules, control=self.control)

    def showing(self, outcomes: Sequence[Outcome] | None) -> Board:
        """The same board with these results drawn on it (none: none), e.g. a live read-out's powers so far."""
        shown = tuple(outcomes) if outcomes else None
        return replace(self, outcomes=shown, key=self.key + ("showing", shown))

    def png(self, width: int = 1200) -> bytes:
        """The board as PNG, `width` pixels wide (the mail's attachment; the site's map.png of it is the same)."""
        return drawn_png(self.svg(), width)


def drawn_png(svg: str, width: int) -> bytes:
    """An SVG drawing of a board as PNG, `width` pixels wide: what `Board.png` does, for a door that draws the
    PNG apart (the site draws in a process of its own, as the drawing holds the GIL for most of a second)."""
    return render_png(svg, width)


class Boards:
    """The board of any season of a game, the same for every door, and a game's board to analyse."""

    def __init__(self, desk: Desk, games: Reading) -> None:
        self._desk = desk
        self._games = games

    def board(self, game_id: str, phase: str | None = None, *, results: bool = True) -> Board:
        """The board now (phase None, or the phase under way), or at the start of a published phase,
        with its orders and results drawn unless `results` is false (worked out once for each version of the published record)."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
        # a board is drawn from the published phases, the position and the rules, which change only with the
        # published record (a set of orders or a ready mark leaves it as it was)
        return self._desk.memo.lasting(state, f"board {phase} {results}", state.published_version,
                                       lambda: self._board(game_id, phase, results))

    def analysis_board(self, game_id: str, phase: str | None = None) -> dict[str, Any]:
        """The board document of a game now (the start of the phase under way) or at the start of a
        published phase: the published position and the game's rules, and never any order."""
        view = self._games.game(game_id)
        if phase is None or (view.phase is not None and phase.strip().upper() in ("NOW", str(view.phase))):
            if view.position is None:
                raise GMError(f"{game_id} has not started: there is no board yet")
            position = view.position
        else:
            position = self._games.result(game_id, phase).position
        doc = position.to_dict()
        return {"variant": doc.pop("variant"), "rules": view.rules_spec.to_json(), **doc}

    def board_after(self, game_id: str, phase: str) -> Board:
        """The board a published phase led to: the start of the next published phase, or the board now."""
        done = self._games.result(game_id, phase)
        later = [r for r in self._games.results(game_id) if r.seq > done.seq]
        return self.board(game_id, str(later[0].phase) if later else None, results=False)

    def _board(self, game_id: str, phase: str | None, results: bool) -> Board:
        view = self._games.game(game_id)
        if phase is None or (view.phase is not None and parse_phase(phase) == str(view.phase)):
            if view.position is None:
                raise GMError(f"{game_id} has not started: there is no map yet")
            played = [r.position for r in self._games.results(game_id)]
            return Board(game_id, view.position, view.rules, control(played + [view.position]),
                         view.position.phase.title, None,
                         ("now", game_id, view.published_version, str(view.phase), str(view.rules_spec.to_json())))
        published = self._games.result(game_id, phase)
        before = [r.position for r in self._games.results(game_id) if r.seq < published.seq]
        shown = results and bool(published.results)
        title = published.title + (": orders and results" if shown else "")
        return Board(game_id, published.position, published.rules, control(before + [published.position]), title,
                     tuple(published.outcomes()) if shown else None,
                     ("phase", game_id, published.seq, published.entry_hash, shown))


__all__ = ["Board", "Boards"]
