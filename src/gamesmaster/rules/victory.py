"""How a game ends: the victory criterion (seed 004 s4), the short game (rulebook III)
and the deadlock rule (seed 004 s5)."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter, itemgetter
from typing import Mapping, Sequence

from .options import RuleOptions
from .phase import Phase
from .position import Position


def winner(position: Position, options: RuleOptions, played: Phase | None = None) -> str | None:
    """The power that has won by the rule set's victory criterion, if any.

    `position` is the position after `played` was adjudicated; the criteria differ in
    the moments of the year at which they are checked.
    """
    phase = position.phase
    if phase.kind == "R" or (played is not None and played == phase):
        return None  # the middle of a season (or the GM still to choose removals)
    if short_game_over(position, options, played):
        return most_units(position)
    spring_ended = phase.season == "F" and phase.kind == "M"
    fall_ended = phase.kind == "A" or (phase.season == "S" and played is not None and played.season == "F")
    winter_ended = phase.season == "S" and not spring_ended
    need = position.variant.victory_centres
    rule = position.variant.victory_rule or options.victory
    if rule == "centres":
        if not (fall_ended or winter_ended or played is None):
            return None
        counts = Counter(position.centres.values())
    else:
        if rule == "majority-winter" and not (spring_ended or winter_ended):
            return None
        counts = Counter(map(attrgetter("power"), position.units.values()))
        if rule in ("majority", "majority-winter"):
            need = len(position.units) // 2 + 1
    if counts:
        power, count = max(counts.items(), key=itemgetter(1))  # the first listed among equals
        if count >= need:
            return power
    return None


def short_game_over(position: Position, options: RuleOptions, played: Phase | None = None) -> bool:
    """Whether the agreed last year of a short game has been played out (rulebook III)."""
    return options.last_year is not None and position.phase.year > options.last_year


def most_units(position: Position) -> str | None:
    """The power with the most units on the board, or None when two or more share the most."""
    ranked = Counter(u.power for u in position.units.values()).most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


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
