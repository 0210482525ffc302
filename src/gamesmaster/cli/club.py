"""`gamesmaster league`, `standings` and `ladder`: the club's leagues, standings and ratings (docs/standings.md)."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..gm import SORTS, Gamesmaster
from .games import _handler
from .options import Subcommands, add_command, database_parent


def cmd_league(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Add games to a league (or take them out), or list the leagues."""
    if args.action == "list":
        out.write("\n".join(gm.club.leagues()) + "\n" if gm.club.leagues() else "(no leagues)\n")
        return 0
    changed = gm.club.add_to_league(args.league or "", args.games, remove=args.action == "remove")
    verb = "taken out of" if args.action == "remove" else "added to"
    out.write(f"{', '.join(changed) or 'no game'} {verb} {args.league} (each on its game's record)\n")
    return 0


def cmd_standings(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Print the standings: place, player, games, total, average, on time, rating."""
    if args.rebuild:
        games = gm.games.game_ids()
        for game_id in games:
            gm.desk.rebuild(game_id)
        out.write(f"the standings of {len(games)} games were written again from their ledgers\n")
    rows = gm.club.standings(args.league, args.sort)
    out.write(f"{'#':>3}  {'player':<24} {'games':>5} {'total':>9} {'average':>8} {'on time':>8} {'rating':>7}\n")
    for n, s in enumerate(rows, 1):
        pct = s.reliability.percent
        out.write(f"{n:>3}  {s.name[:24]:<24} {len(s.games):>5} {s.total:>9.2f} "
                  f"{'-' if s.average is None else format(s.average, '.2f'):>8} {'-' if pct is None else format(pct, 'g') + '%':>8} "
                  f"{'-' if s.rating is None else format(s.rating.ordinal, '.2f'):>7}\n")
    return 0


def cmd_ladder(args: argparse.Namespace, out: TextIO, gm: Gamesmaster) -> int:
    """Print the ladder: the ratings shown, the best first."""
    for n, r in enumerate(gm.club.ladder(args.league), 1):
        out.write(f"{n:>3}  {r.name[:24]:<24} {r.ordinal:>7.2f}  (mu {r.mu:.2f}, sigma {r.sigma:.2f}, {r.games} games)\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add the league, standings and ladder commands."""
    common = database_parent()
    p = add_command(sub, "league", "name games as a league's (or take them out), or list the leagues",
                    "  gamesmaster league add 'Winter Cup' club7 club8\n  gamesmaster league remove 'Winter Cup' club8\n"
                    "  gamesmaster league list", _handler(cmd_league), [common])
    p.add_argument("action", choices=("add", "remove", "list"))
    p.add_argument("league", nargs="?", metavar="LEAGUE", help="the league's name (up to 40 characters)")
    p.add_argument("games", nargs="*", metavar="GAME", help="the games")
    p = add_command(sub, "standings", "show the club's standings (or a league's)",
                    "  gamesmaster standings --league 'Winter Cup' --sort average\n  gamesmaster standings --rebuild",
                    _handler(cmd_standings), [common])
    p.add_argument("--league", metavar="LEAGUE", help="only the league's games")
    p.add_argument("--sort", default="total", choices=SORTS, help="the order (default total)")
    p.add_argument("--rebuild", action="store_true",
                   help="first write every game's tables again from its ledger (after an upgrade, or to repair)")
    p = add_command(sub, "ladder", "show the ratings of players with five or more finished games",
                    "  gamesmaster ladder", _handler(cmd_ladder), [common])
    p.add_argument("--league", metavar="LEAGUE", help="only the league's games")
