"""A club's standings and each player's reliability, added up from the standings cache (docs/standings.md).

The club is every game on the site, or a league: a set of games the GM names. Both
read the lines gm.standings keeps per player and game; nothing here reads a ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal, get_args

from ..store import Records
from ..store.accounts import AccountRecords
from ..store.standings import Line, StandingsRecords
from .desk import Desk
from .errors import GMError, NotFound
from .ratings import Rating, ladder, rate
from .settings import Settings
from .standings import player_key
from .tx import write_lines
from .events import ABSENT, LeagueAdded

SortKey = Literal["total", "average", "games", "name", "reliability", "rating"]
SORTS: tuple[str, ...] = get_args(SortKey)
LEAGUE_CHARS = 40
MAX_GAMES = 1000  # games named in one league command


@dataclass(frozen=True)
class Reliability:
    """How a player keeps to the game, from the ledgers: phases ordered on time and missed, games left."""

    ordered: int = 0
    missed: int = 0
    left: int = 0  # games the player was replaced out of, or resigned from
    replacement: int = 0  # games the player came into as a replacement (shown, not held against them)
    finished: int = 0  # finished games the player played to the end

    @property
    def percent(self) -> float | None:
        """Phases ordered on time out of those the player had to order (None: none yet)."""
        phases = self.ordered + self.missed
        return round(100 * self.ordered / phases, 1) if phases else None

    def text(self) -> str:
        """The reliability in a line."""
        pct = "no phases yet" if self.percent is None else f"{self.percent:g}% of phases ordered on time"
        return (f"{pct} ({self.ordered} on time, {self.missed} missed); {self.finished} finished, {self.left} left, "
                f"{self.replacement} as a replacement")


@dataclass(frozen=True)
class Standing:
    """A player's row in the standings: the games, the total and average of their final scores."""

    key: str
    name: str
    games: tuple[Line, ...]  # finished games played to the end
    total: float
    average: float | None
    reliability: Reliability
    rating: Rating | None  # None until shown (ratings.SHOWN_AFTER finished games)


@dataclass(frozen=True)
class PlayerRecord:
    """A player's page: every game (running ones too), reliability and rating."""

    key: str
    name: str
    lines: tuple[Line, ...]
    reliability: Reliability
    rating: Rating | None


@dataclass(frozen=True)
class SeatPlayer:
    """A seat of a game with who holds it across the club (an account's ref, or name: and the name) and their
    reliability: what the GM sees choosing or replacing players."""

    name: str
    role: str
    key: str
    reliability: Reliability


def league_name(value: object) -> str:
    """A league's name, as typed: a few words; GMError says what does not do."""
    name = " ".join(str(value or "").split())
    if not name or len(name) > LEAGUE_CHARS:
        raise GMError(f"a league's name is 1 to {LEAGUE_CHARS} characters")
    return name


def reliability_of(lines: Iterable[Line]) -> Reliability:
    """A player's reliability, summed over their lines."""
    r = Reliability()
    for x in lines:
        r = Reliability(r.ordered + x.ordered, r.missed + x.missed, r.left + x.left, r.replacement + x.replacement,
                        r.finished + (x.status == "finished" and not x.left))
    return r


def standings_of(lines: Iterable[Line], sort: str = "total", league: str | None = None,
                 ratings: dict[str, Rating] | None = None) -> list[Standing]:
    """The standings of a club (league None: every game), sorted by one of SORTS (the best first);
    ratings: those of the chosen games if already known."""
    if sort not in SORTS:
        raise GMError(f"sort by {sort[:20]!r}: choose {', '.join(SORTS)}")
    every = list(lines)
    chosen = [x for x in every if league is None or league in x.leagues]
    ratings = rate(chosen) if ratings is None else ratings
    by: dict[str, list[Line]] = {}
    for x in chosen:
        by.setdefault(x.key, []).append(x)
    rows = []
    for key, mine in by.items():
        done = tuple(x for x in mine if x.status == "finished" and not x.left)
        scored = [x.score for x in done if x.score is not None]
        rating = ratings.get(key)
        rows.append(Standing(key, mine[-1].name, done, round(sum(scored), 2),
                             round(sum(scored) / len(scored), 2) if scored else None, reliability_of(mine),
                             rating if rating is not None and rating.shown else None))
    order = {
        "total": lambda s: (-s.total, s.name), "average": lambda s: (-(s.average or 0.0), s.name),
        "games": lambda s: (-len(s.games), s.name), "name": lambda s: (s.name.lower(), s.key),
        "reliability": lambda s: (-(s.reliability.percent or 0.0), s.name),
        "rating": lambda s: (-(s.rating.ordinal if s.rating else -1e9), s.name)}[sort]
    return sorted(rows, key=order)


def entry_refusal(settings: Settings, record: Reliability) -> str | None:
    """Why an open game refuses a player with this record (None: it does not)."""
    if record.finished < settings.min_games:
        return (f"takes players with at least {settings.min_games} finished games; you have {record.finished}")
    if settings.min_reliability is not None:
        pct = record.percent
        if pct is None or pct < settings.min_reliability:
            have = "no phases on record yet" if pct is None else f"{pct:g}%"
            return (f"takes players who have ordered at least {settings.min_reliability:g}% of their phases on "
                    f"time; you have {have}")
    return None


class ClubMemo:
    """The lines of every game and their ratings as last read, and the ledger heads they were read at."""

    def __init__(self) -> None:
        self.fingerprint: int | None = None
        self.lines: list[Line] = []
        self.ratings: dict[str, Rating] = {}
        self.standings: dict[tuple[str | None, str], list[Standing]] = {}  # by league and order


class Club:
    """The club's standings, ladder and players' records (a part of the Gamesmaster)."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk
        self._memo = ClubMemo()

    def _club_lines(self) -> tuple[list[Line], dict[str, Rating]]:
        """Every line and the club's ratings: read again only when a game's ledger head has moved
        (every change that alters a game's lines is written with its head, in one transaction)."""
        memo = self._memo
        with self._desk.reading() as rec:
            records = StandingsRecords(rec.conn)
            mark = records.fingerprint()
            unbuilt = set(rec.game_ids()) - records.games() if mark != memo.fingerprint else set()
        if unbuilt:  # games recorded before the table existed (it starts empty): their lines are written now
            with self._desk.store.connect() as conn:
                rec = Records(conn, self._desk.store.is_postgresql)
                for game_id in sorted(unbuilt):
                    write_lines(rec, game_id)
        if mark != memo.fingerprint:
            with self._desk.reading() as rec:
                lines = StandingsRecords(rec.conn).all()
            memo.lines, memo.ratings, memo.standings, memo.fingerprint = lines, rate(lines), {}, mark
        return memo.lines, memo.ratings

    def standings(self, league: str | None = None, sort: str = "total") -> list[Standing]:
        """The standings of every game, or of a league's."""
        lines, ratings = self._club_lines()
        if league is not None and not any(league in x.leagues for x in lines):
            raise NotFound(f"no league {league[:LEAGUE_CHARS]!r}")
        memo = self._memo
        if (league, sort) not in memo.standings:  # kept until a game's head moves (_club_lines)
            memo.standings[(league, sort)] = standings_of(lines, sort, league, ratings if league is None else None)
        return memo.standings[(league, sort)]

    def ladder(self, league: str | None = None) -> list[Rating]:
        """The ratings shown, the best first."""
        lines, ratings = self._club_lines()
        return ladder(ratings if league is None else rate(x for x in lines if league in x.leagues))

    def player_record(self, key: str) -> PlayerRecord:
        """A player's games, reliability and rating (key: an account's ref, or name: and a name)."""
        with self._desk.reading() as rec:
            mine = StandingsRecords(rec.conn).of(key[:240])
            account = AccountRecords(rec.conn).by_ref(key[:240]) if not mine else None
        if not mine:
            if account is None:
                raise NotFound(f"no player {key[:40]!r} has played a game here")
            return PlayerRecord(key, account.name, (), Reliability(), None)  # an account yet to play
        rating = self._club_lines()[1].get(key)
        return PlayerRecord(key, mine[-1].name, tuple(mine), reliability_of(mine),
                            rating if rating is not None and rating.shown else None)

    def reliability(self, key: str) -> Reliability:
        """A player's reliability ({} of a player with no games: all zero)."""
        with self._desk.reading() as rec:
            return reliability_of(StandingsRecords(rec.conn).of(key[:240]))

    def seat_players(self, game_id: str) -> tuple[SeatPlayer, ...]:
        """Each seat of a game, in seat order, with its player's key and reliability across the club."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
        keys = [(seat, player_key(state, seat.number, seat.name)) for seat in state.seats]
        return tuple(SeatPlayer(seat.name, seat.role, key, self.reliability(key)) for seat, key in keys)

    def leagues(self) -> list[str]:
        """Every league named, in order."""
        return sorted({name for x in self._club_lines()[0] for name in x.leagues})

    def add_to_league(self, league: str, game_ids: Iterable[str], *, remove: bool = False) -> list[str]:
        """Name games as a league's (remove: take them out of it), on each game's record; returns the games changed."""
        name = league_name(league)
        games = list(dict.fromkeys(str(g) for g in game_ids))
        if not games or len(games) > MAX_GAMES:
            raise GMError(f"name 1 to {MAX_GAMES} games for the league")
        with self._desk.reading() as rec:
            known = set(rec.game_ids())
        unknown = [g for g in games if g not in known]
        if unknown:
            raise NotFound(f"no game {unknown[0][:64]!r}")
        changed = []
        for game_id in games:
            with self._desk.transaction(game_id) as tx:
                with self._desk.reading() as rec:
                    lines = StandingsRecords(rec.conn).game(game_id)
                inside = any(name in x.leagues for x in lines)
                if inside != (not remove):
                    tx.record(LeagueAdded(league=name, removed=True if remove else ABSENT))
                    changed.append(game_id)
        return changed
