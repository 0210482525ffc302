"""Scoring systems: what a game's result is worth to each power (docs/scoring.md names each source).

Pure functions of the board's supply centre counts and the result: a solo, the powers
in a draw, or neither ("if the game ended now": a draw of every surviving power).
Scores are rounded to two decimals, the form the record keeps and verify recomputes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Callable, Mapping, Sequence


class ScoringSystem(str, Enum):
    """A scoring system a game can be created with."""

    NONE = "none"
    DSS = "dss"  # draw-size scoring
    SOS = "sos"  # sum of squares
    CARNAGE = "carnage"
    C_DIPLO = "c-diplo"
    MANORCON = "manorcon"
    TRIBUTE = "tribute"

    @classmethod
    def named(cls, text: str) -> "ScoringSystem":
        """The system called `text`; ScoringError lists the systems for any other name."""
        try:
            return cls(str(text).strip().lower()[:20])
        except ValueError:
            raise ScoringError(f"unknown scoring system {str(text)[:20]!r}: choose "
                               f"{', '.join(s.value for s in cls)}") from None

    @property
    def long_name(self) -> str:
        """The system's name as its players write it."""
        return LONG_NAMES[self]


LONG_NAMES = {ScoringSystem.NONE: "none", ScoringSystem.DSS: "draw-size scoring",
              ScoringSystem.SOS: "sum of squares", ScoringSystem.CARNAGE: "Carnage", ScoringSystem.C_DIPLO: "C-Diplo",
              ScoringSystem.MANORCON: "ManorCon", ScoringSystem.TRIBUTE: "Tribute"}

# The tournament systems whose definitions fix seven players and 34 supply centres (their points
# add up to the standard board's totals); the others are defined for any board.
STANDARD_ONLY = frozenset({ScoringSystem.CARNAGE, ScoringSystem.C_DIPLO, ScoringSystem.TRIBUTE})
STANDARD_POWERS, STANDARD_CENTRES = 7, 34
MAX_YEARS = 10000  # the most game years a board is scored with


class ScoringError(ValueError):
    """A board or result a scoring system cannot score; the message says what is wrong."""


@dataclass(frozen=True)
class Board:
    """The board a game ends on: every power's supply centres, and how long the eliminated ones lasted."""

    centres: tuple[tuple[str, int], ...]  # every power of the game
    total: int = STANDARD_CENTRES  # supply centres on the map
    played: tuple[tuple[str, int], ...] = ()  # eliminated powers: game years played, the last one included
    years: int | None = None  # game years the game lasted (ManorCon scores a solo's other survivors by it)
    alive: tuple[str, ...] | None = None  # the surviving powers (None: those holding a centre)

    @classmethod
    def of(cls, centres: Mapping[str, int], total: int = STANDARD_CENTRES, played: Mapping[str, int] | None = None,
           years: int | None = None, alive: Sequence[str] | None = None) -> "Board":
        """A board from mappings."""
        return cls(tuple(centres.items()), total, tuple((played or {}).items()), years,
                   None if alive is None else tuple(alive))

    @property
    def survivors(self) -> frozenset[str]:
        """The powers still in the game: those given as alive, else those holding a supply centre."""
        return frozenset(self.alive) if self.alive is not None else frozenset(p for p, c in self.centres if c > 0)

    @property
    def counts(self) -> dict[str, int]:
        """Supply centres by power."""
        return dict(self.centres)


@dataclass(frozen=True)
class Result:
    """How the game ended (or None of both: scored as if it ended now, in a draw of every survivor)."""

    solo: str | None = None
    draw: tuple[str, ...] = ()


Scores = dict[str, float]


def fits(system: ScoringSystem, powers: int, centres: int) -> str | None:
    """Why the system cannot score a variant of this many powers and supply centres, or None when it can."""
    if system in STANDARD_ONLY and (powers, centres) != (STANDARD_POWERS, STANDARD_CENTRES):
        return (f"{system.long_name} is defined for the standard board of {STANDARD_POWERS} powers and "
                f"{STANDARD_CENTRES} supply centres, not {powers} powers and {centres} centres; "
                "choose dss, sos or manorcon")
    return None


def score(system: ScoringSystem, board: Board, result: Result | None = None) -> Scores:
    """Each power's score under the system (every power of the board is named; NONE scores nothing)."""
    result = result or Result()
    _check(board, result)
    if system is ScoringSystem.NONE:
        return {}
    reason = fits(system, len(board.centres), board.total)
    if reason:
        raise ScoringError(reason)
    counts = board.counts
    if result.solo is not None:
        raw = _SOLO[system](board, result.solo)
    else:
        drawn = result.draw or tuple(p for p, c in board.centres if p in board.survivors)
        raw = _DRAW[system](board, drawn)
    return {p: round(raw.get(p, 0.0), 2) + 0.0 for p in counts}  # + 0.0: a -0.0 reads as 0.0 in the record


def _check(board: Board, result: Result) -> None:
    counts = board.counts
    if len(counts) != len(board.centres):
        raise ScoringError("a power is named twice")
    for power, n in board.centres:
        if n < 0:
            raise ScoringError(f"{power}: a power cannot hold {n} supply centres")
    held = sum(counts.values())
    if held > board.total:
        raise ScoringError(f"the powers hold {held} supply centres; the map has {board.total}")
    for power, n in board.played:
        if not 1 <= n <= MAX_YEARS:
            raise ScoringError(f"{power}: an eliminated power played from 1 to {MAX_YEARS} years, not {n}")
    if board.years is not None and not 1 <= board.years <= MAX_YEARS:
        raise ScoringError(f"a game lasts from 1 to {MAX_YEARS} years, not {board.years}")
    if result.solo is not None and result.draw:
        raise ScoringError("a game ends in a solo or a draw, not both")
    for power in (*((result.solo,) if result.solo else ()), *result.draw, *dict(board.played), *(board.alive or ())):
        if power not in counts:
            raise ScoringError(f"unknown power {power!r}: the board has {', '.join(counts)}")
    if len(set(result.draw)) != len(result.draw):
        raise ScoringError("a power is named twice in the draw")
    for power in result.draw:
        if power not in board.survivors:
            raise ScoringError(f"{power} is out of the game: a draw is between surviving powers")


def _winner_takes(points: float) -> Callable[[Board, str], Scores]:
    return lambda board, solo: {solo: points}


def _dss(board: Board, drawn: Sequence[str]) -> Scores:
    return {p: 100 / len(drawn) for p in drawn} if drawn else {}


def _sos(board: Board, drawn: Sequence[str]) -> Scores:
    counts = board.counts
    squares = sum(counts[p] ** 2 for p in board.survivors)
    if not squares:  # no power holds a centre: nothing to share by
        return _dss(board, drawn)
    return {p: 100 * counts[p] ** 2 / squares for p in drawn}


def _played(board: Board, power: str, system: ScoringSystem) -> int:
    played = dict(board.played)
    if power not in played:
        raise ScoringError(f"{system.long_name} scores an eliminated power by the years it played: "
                           f"give them for {power}")
    return played[power]


def _shared_places(order: Sequence[tuple[str, tuple[int, ...]]], points: Sequence[float]) -> Scores:
    """Place points by rank, powers with equal keys sharing the points of the places they fill."""
    out: Scores = {}
    place = 0
    while place < len(order):
        key = order[place][1]
        tied = [p for p, k in order if k == key]
        share = sum(points[place:place + len(tied)]) / len(tied)
        out.update({p: share for p in tied})
        place += len(tied)
    return out


def _carnage(board: Board, drawn: Sequence[str]) -> Scores:
    # Survivors rank by centres; the eliminated below them, by how long they lasted.
    played = dict(board.played)
    alive = board.survivors
    key = {p: (1, c, 0) if p in alive else (0, 0, played.get(p, 0)) for p, c in board.centres}
    order = sorted(key.items(), key=lambda item: item[1], reverse=True)
    ranks = _shared_places(order, [1000.0 * (STANDARD_POWERS - i) for i in range(len(order))])
    return {p: ranks[p] + c for p, c in board.centres}


def _c_diplo(board: Board, drawn: Sequence[str]) -> Scores:
    order = sorted(((p, (c,)) for p, c in board.centres), key=lambda item: item[1], reverse=True)
    bonus = _shared_places(order, [38.0, 14.0, 7.0] + [0.0] * max(0, len(order) - 3))
    return {p: 1 + c + bonus[p] for p, c in board.centres}


def _manorcon_solo(board: Board, solo: str) -> Scores:
    if board.years is None:
        raise ScoringError("ManorCon scores a solo's other powers by the years the game lasted: give them")
    years = board.years
    return {p: 75.0 if p == solo else 0.1 * (years if p in board.survivors else _played(board, p, ScoringSystem.MANORCON))
            for p in board.counts}


def _manorcon(board: Board, drawn: Sequence[str]) -> Scores:
    value = {p: c * c + 4 * c + 16 for p, c in board.centres}
    whole = sum(value.values())
    return {p: 100 * value[p] / whole if p in board.survivors else 0.1 * _played(board, p, ScoringSystem.MANORCON)
            for p in board.counts}


def _tribute(board: Board, drawn: Sequence[str]) -> Scores:
    if not drawn:
        return {}
    counts = board.counts
    share = 66 / len(drawn)
    top = max(counts[p] for p in drawn)
    toppers = [p for p in drawn if counts[p] == top]
    payers = [p for p in drawn if counts[p] != top]
    tribute = min(max(top - 6, 0), share)
    out = {p: counts[p] + share - tribute for p in payers}
    out.update({p: counts[p] + share + tribute * len(payers) / len(toppers) for p in toppers})
    return out


_SOLO: dict[ScoringSystem, Callable[[Board, str], Scores]] = {
    ScoringSystem.DSS: _winner_takes(100), ScoringSystem.SOS: _winner_takes(100),
    ScoringSystem.CARNAGE: _winner_takes(28000 + STANDARD_CENTRES), ScoringSystem.C_DIPLO: _winner_takes(100),
    ScoringSystem.MANORCON: _manorcon_solo, ScoringSystem.TRIBUTE: _winner_takes(100)}
_DRAW: dict[ScoringSystem, Callable[[Board, Sequence[str]], Scores]] = {
    ScoringSystem.DSS: _dss, ScoringSystem.SOS: _sos, ScoringSystem.CARNAGE: _carnage,
    ScoringSystem.C_DIPLO: _c_diplo, ScoringSystem.MANORCON: _manorcon, ScoringSystem.TRIBUTE: _tribute}
