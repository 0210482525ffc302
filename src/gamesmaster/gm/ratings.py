"""Ratings from finished games, by the openskill library's Plackett-Luce model (docs/standings.md).

Each finished game is a match in which every player still seated at the end is a team of
one, placed by the rank their line records (by final score; an unscored game by its
result). Games are taken in the order they ended, so the ratings follow from the ledgers
alone: correct a result and the next reading rates it afresh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from openskill.models import PlackettLuce, PlackettLuceRating

from ..store.standings import Line

SHOWN_AFTER = 5  # finished games before a rating is shown


@dataclass(frozen=True)
class Rating:
    """A player's rating: the model's mean and uncertainty, and the ordinal (mean - 3 sigma) the ladder ranks by."""

    key: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int

    @property
    def shown(self) -> bool:
        """True once the player has the finished games a rating needs to be shown."""
        return self.games >= SHOWN_AFTER


def rate(lines: Iterable[Line]) -> dict[str, Rating]:
    """Every rated player's rating, from the lines of finished games (in the order the games ended)."""
    games: dict[str, list[Line]] = {}
    for x in lines:
        if x.status == "finished" and x.rank is not None and not x.left:
            games.setdefault(x.game_id, []).append(x)
    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    for game_id in sorted(games, key=lambda g: (games[g][0].ended_at or "", g)):
        table = games[game_id]
        if len(table) < 2:
            continue  # a game of one player rates nobody
        teams = [[ratings.get(x.key) or model.rating(name=x.key)] for x in table]
        rated = model.rate(teams, ranks=[float(x.rank or 0) for x in table])
        for x, team in zip(table, rated):
            ratings[x.key] = team[0]
            names[x.key] = x.name
            counts[x.key] = counts.get(x.key, 0) + 1
    return {k: Rating(k, names[k], round(r.mu, 2), round(r.sigma, 2), round(r.ordinal(), 2), counts[k])
            for k, r in ratings.items()}


def ladder(ratings: dict[str, Rating]) -> list[Rating]:
    """The shown ratings, the best first."""
    return sorted((r for r in ratings.values() if r.shown), key=lambda r: (-r.ordinal, r.name))
