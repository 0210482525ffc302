"""A game's scores under its scoring system: if it ended now, and when it ends (docs/scoring.md).

The scores are derived from the ledger: the board's centres, the years each eliminated
power lasted (from the centres recorded at each spring) and the result. The game-ended
entry records the final scores and verify recomputes them.
"""

from __future__ import annotations

from typing import Literal, Mapping, Sequence, get_args

from ..rules import Position, Variant
from ..rules.scoring import MAX_YEARS, Board, Result, ScoringError, ScoringSystem, fits, score
from .errors import GMError
from .settings import scoring_system
from .state import PLAYER, Seat

Scores = dict[str, float]
MAX_POWERS = 64  # a board given by hand names at most this many powers
ScoringName = Literal["none", "dss", "sos", "carnage", "c-diplo", "manorcon", "tribute"]  # ScoringSystem's values
SYSTEMS: tuple[str, ...] = get_args(ScoringName)
assert SYSTEMS == tuple(s.value for s in ScoringSystem), "ScoringName lists the systems rules.scoring defines"

_WORDS = {
    ScoringSystem.NONE: "The game is not scored: it is won, drawn or conceded.",
    ScoringSystem.DSS: "Draw-size scoring: a solo takes 100; a draw shares 100 equally among the powers in it.",
    ScoringSystem.SOS: "Sum of squares: a solo takes 100; in a draw each power in it scores 100 times its centres "
                       "squared over the sum of the squares of every surviving power's centres.",
    ScoringSystem.CARNAGE: "Carnage: a solo takes 28,034; otherwise powers are ranked by centres (the eliminated "
                           "below, the later out the higher) for 7,000 down to 1,000 points, tied ranks sharing, "
                           "plus a point a centre.",
    ScoringSystem.C_DIPLO: "C-Diplo: a solo takes 100; otherwise each power scores 1 plus its centres, and the "
                           "first three by centres add 38, 14 and 7, tied places sharing.",
    ScoringSystem.MANORCON: "ManorCon: a solo takes 75; otherwise each survivor scores 100 P / B with P = S^2 + 4S "
                            "+ 16 for S centres and B the sum of P over every power; an eliminated power scores "
                            "0.1 a year it played.",
    ScoringSystem.TRIBUTE: "Tribute: a solo takes 100; otherwise the powers in the draw share 66 and score a point "
                           "a centre, and each pays the board-topper a point for every centre the topper holds over "
                           "6 (at most its share).",
}


def describe_scoring(system: str) -> str:
    """The scoring system in a sentence or two, for the rules page (docs/scoring.md has the sources)."""
    return _WORDS[scoring_system(system)]


def check_fits(system: str, variant: Variant) -> ScoringSystem:
    """The system, if it can score the variant; GMError says why not (at creation)."""
    chosen = scoring_system(system)
    reason = fits(chosen, len(variant.powers), len(variant.supply_centres))
    if reason:
        raise GMError(f"scoring system: {reason}")
    return chosen


def board_of(position: Position, spring_centres: Mapping[str, Mapping[str, Sequence[str]]]) -> Board:
    """The board of a game's position; eliminated powers' years counted from the springs they began with a centre."""
    powers = list(position.variant.powers)
    alive = position.powers_alive()
    # at least the year it went out in (a power of a custom start may never have held a centre)
    played = {p: max(1, sum(1 for year in spring_centres.values() if year.get(p))) for p in powers if p not in alive}
    return Board.of({p: len(position.centres_of(p)) for p in powers}, len(position.variant.supply_centres),
                    played, min(len(spring_centres) or 1, MAX_YEARS), alive)


def result_of(kind: str, winners: Sequence[str]) -> Result:
    """How an ending scores: a victory (or a concession to one power) is a solo; a draw, a short
    game or a concession to several is a draw (a short game: of every survivor)."""
    if kind in ("victory", "concession") and len(winners) == 1:
        return Result(solo=winners[0])
    if kind == "short-game":
        return Result()
    return Result(draw=tuple(winners))


def game_scores(system: str, board: Board, result: Result | None = None) -> Scores:
    """The scores of a game's board (result None: if the game ended now); {} without a scoring system."""
    try:
        return score(scoring_system(system), board, result)
    except ScoringError as exc:
        raise GMError(f"scoring: {exc}") from None


def by_player(scores: Mapping[str, float], seats: Sequence[Seat]) -> Scores:
    """In a set-up where a player commands several powers: each player's score, the sum of their powers'
    ({} when every player has one power, or the game is not scored)."""
    players = [s for s in seats if s.role == PLAYER and s.powers]
    if not scores or all(len(s.powers) == 1 for s in players):
        return {}
    return {s.name: round(sum(scores.get(p, 0.0) for p in s.powers), 2) for s in players}


def score_board(system: str, variant: Variant, centres: Mapping[str, int], *, solo: str | None = None,
                draw: Sequence[str] = (), played: Mapping[str, int] | None = None,
                years: int | None = None) -> Scores:
    """Score any board of the variant, for a tournament director; GMError names what does not fit."""
    chosen = scoring_system(system)
    if len(centres) > MAX_POWERS:
        raise GMError(f"a board of at most {MAX_POWERS} powers")
    names = {p.upper(): p for p in variant.powers}

    def power(name: str) -> str:
        key = str(name).strip().upper()
        if key not in names:
            raise GMError(f"unknown power {str(name)[:20]!r}: {variant.title} has {', '.join(variant.powers)}")
        return names[key]

    counts = {p: 0 for p in variant.powers}
    for name, n in centres.items():
        counts[power(name)] = n
    total = len(variant.supply_centres)
    if sum(counts.values()) > total:
        raise GMError(f"the powers hold {sum(counts.values())} supply centres; {variant.title} has {total}")
    board = Board.of(counts, total, {power(p): n for p, n in (played or {}).items()}, years)
    result = Result(solo=power(solo) if solo else None, draw=tuple(power(p) for p in draw))
    try:
        return score(chosen, board, result)
    except ScoringError as exc:
        raise GMError(str(exc)) from None
