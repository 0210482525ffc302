"""How a game ends: the victory criterion (seed 004 s4), the short game (rulebook III)
and the deadlock rule (seed 004 s5)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Literal, Mapping, Sequence, cast

from .options import RuleOptions
from .phase import Phase
from .position import Position
from .variant import Variant

VictoryKind = Literal["centres", "units", "majority", "majority-winter"]
Side = tuple[str, ...]  # the powers one player commands: they win or lose together

# When each criterion is looked at (seed 004 s4), in the words of the rules page.
_CHECKED: dict[str, str] = {
    "centres": "after the Fall moves and retreats and after the Winter adjustments",
    "units": "whenever a season's moves, retreats or adjustments are over",
    "majority": "after the Spring moves, after the Fall moves and retreats and after the Winter adjustments",
    "majority-winter": "after the Spring moves and after the Winter adjustments (the builds count with the Fall)",
}


@dataclass(frozen=True)
class Victory:
    """The victory criterion in force, as one value: what is counted, how many win, for whom and when.

    Every door that states the criterion states `headline` (and `explanation`); `winner` decides by it.
    """

    kind: VictoryKind
    need: int  # supply centres (centres) or units (units); a majority needs more than half the units
    by_side: bool  # units counted for each player's powers together (a grouped set-up, rulebook XIV.2)

    @property
    def counts_units(self) -> bool:
        """Whether units on the board are counted (every criterion but supply centres)."""
        return self.kind != "centres"

    def required(self, position: Position) -> int:
        """How many centres or units win in this position (a majority depends on the units on the board)."""
        if self.kind in ("majority", "majority-winter"):
            return len(position.units) // 2 + 1
        return self.need

    @property
    def headline(self) -> str:
        """The criterion in a few words: "18 supply centres win", "24 units on the board win, counted per player"."""
        who = ", counted per player" if self.by_side else ""
        if self.kind == "centres":
            return f"{self.need} supply centres win"
        if self.kind == "units":
            return f"{self.need} units on the board win{who}"
        return f"More than half the units on the board wins{who}"

    @property
    def explanation(self) -> str:
        """The criterion in a sentence: what wins, for whom and when it is checked (Brobdingnag 33: players must know it)."""
        if self.kind == "centres":
            what = f"A Great Power that controls {self.need} supply centres wins"
            if self.by_side:
                what += " (centres are counted for each power on its own, rulebook XIV.2 note)"
        else:
            many = f"{self.need} units" if self.kind == "units" else "more than half of all the units"
            who = "The player whose powers together have" if self.by_side else "The power that has"
            what = f"{who} {many} on the board wins"
        return f"{what}; checked {_CHECKED[self.kind]}."


def victory(variant: Variant, options: RuleOptions) -> Victory:
    """The victory criterion of a game: the set-up's own (two players: 24 units) or else the rule set's."""
    kind = cast(VictoryKind, variant.victory_rule or options.victory)
    # Supply centres are counted for each power on its own, also when one player commands several
    # (rulebook II: "one Great Power controls 18", and the XIV.2 note); units are counted for the
    # player (XIV.2, two players: "24 units actually on the board"; seed 004 s4: "one player").
    return Victory(kind, variant.victory_centres, bool(variant.players) and kind != "centres")


def sides(variant: Variant, commanded: Iterable[Sequence[str]] = ()) -> tuple[Side, ...]:
    """Who wins or loses together: each player's powers (`commanded`, as the GM's seats have them,
    with a power joined by the coin toss), then the set-up's groupings nobody commands, then every
    other power on its own. Without `commanded` the set-up's groupings (rulebook XIV.2)."""
    order = list(variant.powers)
    out: list[Side] = []
    taken: set[str] = set()
    for group in [*commanded, *(powers for _, powers in variant.players)]:
        side = tuple(p for p in group if p in variant.powers and p not in taken)
        if side:
            out.append(side)
            taken.update(side)
    out += [(p,) for p in order if p not in taken]
    return tuple(out)


def side_of(power: str, among: Sequence[Side]) -> Side:
    """The side a power is on (the power alone when no side names it)."""
    return next((side for side in among if power in side), (power,))


def most_pieces(position: Position, among: Sequence[Side]) -> tuple[tuple[Side, ...], int]:
    """The sides sharing the most units on the board, and that number (rulebook III: "the player
    who has the most pieces on the board"); no side when the board is empty."""
    units = Counter(u.power for u in position.units.values())
    count = {side: sum(units[p] for p in side) for side in among}
    best = max(count.values(), default=0)
    return (tuple(side for side in among if count[side] == best) if best else ()), best


def winning_side(position: Position, options: RuleOptions, played: Phase | None = None,
                 among: Sequence[Side] = ()) -> Side | None:
    """The side (a power, or the powers of one player) that has won by the game's criterion, if any.

    `position` is the position after `played` was adjudicated; the criteria differ in the moments
    of the year at which they are checked. `among` are the sides (default: the set-up's).
    """
    phase = position.phase
    if phase.kind == "R" or (played is not None and played == phase):
        return None  # the middle of a season (or the GM still to choose removals)
    among = among or sides(position.variant)
    if short_game_over(position, options, played):
        top, _ = most_pieces(position, among)
        return top[0] if len(top) == 1 else None
    spring_ended = phase.season == "F" and phase.kind == "M"
    fall_ended = phase.kind == "A" or (phase.season == "S" and played is not None and played.season == "F")
    winter_ended = phase.season == "S" and not spring_ended
    rule = victory(position.variant, options)
    if rule.kind == "centres":
        if not (fall_ended or winter_ended or played is None):
            return None
        centres = Counter(position.centres.values())
        count: dict[Side, int] = {(p,): centres[p] for p in position.variant.powers}
    else:
        if rule.kind == "majority-winter" and not (spring_ended or winter_ended):
            return None
        units = Counter(u.power for u in position.units.values())
        groups = among if rule.by_side else [(p,) for p in position.variant.powers]
        count = {side: sum(units[p] for p in side) for side in groups}
    if count:
        side, most = max(count.items(), key=lambda item: item[1])  # the first listed among equals
        if most >= rule.required(position):
            return side
    return None


def winner(position: Position, options: RuleOptions, played: Phase | None = None,
           among: Sequence[Side] = ()) -> str | None:
    """The power that has won, if any; a side that wins is named by its first power (see `winning_side`)."""
    side = winning_side(position, options, played, among)
    return side[0] if side else None


def short_game_over(position: Position, options: RuleOptions, played: Phase | None = None) -> bool:
    """Whether the agreed last year of a short game has been played out (rulebook III)."""
    return options.last_year is not None and position.phase.year > options.last_year


def most_units(position: Position, among: Sequence[Side] = ()) -> str | None:
    """The first power of the side with the most units on the board, or None when two or more share the most."""
    top, _ = most_pieces(position, among or sides(position.variant))
    return top[0][0] if len(top) == 1 else None


def years_unchanged(ownership: Sequence[Mapping[str, str]]) -> int:
    """Game years at the end of a history (one ownership map per year) with no centre changing hands."""
    count = 0
    for before, after in zip(reversed(ownership[:-1]), reversed(ownership)):
        if dict(before) != dict(after):
            break
        count += 1
    return count


def deadlock(ownership: Sequence[Mapping[str, str]], options: RuleOptions) -> str | None:
    """What the deadlock rule calls for now: 'draw' (Graustark), 'ask-gm' (Brobdingnag) or None."""
    if options.deadlock == "never" or years_unchanged(ownership) < options.deadlock_years:
        return None
    return options.deadlock
