"""`gamesmaster daide`: the DAIDE door for bots, and the GM's seats for them.

    gamesmaster daide serve club7:16713            # bots connect to port 16713 to play club7
    gamesmaster daide open club7 --powers Italy,Turkey --civil-disorder
    gamesmaster daide close club7
"""

from __future__ import annotations

import argparse
from typing import Sequence, TextIO

from ..gm import Gamesmaster, GMError, StoreError
from .options import CommandError, Subcommands, add_command, database_parent

DEFAULT_PORT = 16713  # the port DAIDE servers have always listened on

EXAMPLE_SERVE = """  gamesmaster daide serve club7                   # port 16713
  gamesmaster daide serve club7:16713 club8:16714 --host 0.0.0.0
"""


def parse_games(specs: Sequence[str]) -> list[tuple[str, int]]:
    """GAME or GAME:PORT, each game on its own port (counting up from 16713 where none is given)."""
    out: list[tuple[str, int]] = []
    taken: set[int] = set()
    for spec in specs:
        game, colon, port_text = spec.partition(":")
        if not game:
            raise CommandError(f"{spec!r}: write GAME or GAME:PORT")
        if colon:
            if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
                raise CommandError(f"{spec!r}: the port must be a number from 0 to 65535")
            port = int(port_text)
        else:
            port = DEFAULT_PORT
            while port in taken:
                port += 1
        if port in taken and port != 0:
            raise CommandError(f"port {port} is given to two games: one game a port")
        taken.add(port)
        out.append((game, port))
    return out


def _gm(args: argparse.Namespace) -> Gamesmaster:
    try:
        return Gamesmaster.open(args.db)
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Serve games to DAIDE bots until interrupted."""
    from ..serving.daide import serve
    games = parse_games(args.games)
    gm = _gm(args)
    try:
        return serve(gm, games, args.host, poll=args.poll, worker_interval=args.worker_interval,
                     worker=not args.no_worker, out=out)
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host}: {exc.strerror or exc}") from None
    except (GMError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        gm.close()


def cmd_open(args: argparse.Namespace, out: TextIO) -> int:
    """Open powers of a game to bots (and bots standing in for missed seats)."""
    gm = _gm(args)
    try:
        powers = None if args.powers in (None, "all") else [p.strip() for p in args.powers.split(",") if p.strip()]
        policy = gm.bots.open_to_bots(args.game, powers, civil_disorder=args.civil_disorder, reason=args.reason or "")
    except (GMError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        gm.close()
    shown = ", ".join(p.capitalize() for p in policy.open) or "none"
    out.write(f"{args.game}: open to bots: {shown}; bots stand in for missed seats: "
              f"{'yes' if policy.civil_disorder else 'no'}\n")
    return 0


def cmd_close(args: argparse.Namespace, out: TextIO) -> int:
    """Close a game to new bots (bots already seated keep their seats)."""
    gm = _gm(args)
    try:
        gm.bots.open_to_bots(args.game, [], civil_disorder=False, reason=args.reason or "")
    except (GMError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        gm.close()
    out.write(f"{args.game}: closed to new bots\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add `gamesmaster daide` and its subcommands."""
    p = sub.add_parser("daide", help="the DAIDE door: bots play games over the DAIDE protocol",
                       description="Serve games to DAIDE bots, and open seats to them. See docs/daide.md.")
    inner = p.add_subparsers(dest="daide_command", metavar="SUBCOMMAND")
    inner.required = True
    common = [database_parent()]
    s = add_command(inner, "serve", "serve games to DAIDE bots, one port a game", EXAMPLE_SERVE, cmd_serve, common)
    s.add_argument("games", nargs="+", metavar="GAME[:PORT]", help=f"a game and its port (default {DEFAULT_PORT}, "
                   "then counting up)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--poll", type=float, default=1.0, metavar="SECONDS",
                   help="how often changes made elsewhere (deadlines, the site, mail) are read (default 1)")
    s.add_argument("--worker-interval", type=float, default=30.0, metavar="SECONDS",
                   help="how often deadlines are checked (default 30)")
    s.add_argument("--no-worker", action="store_true",
                   help="do not run the deadline worker here (another process runs it: serve or worker)")
    o = add_command(inner, "open", "open a game's powers to bots", "  gamesmaster daide open club7 --powers all\n"
                    "  gamesmaster daide open club7 --powers Italy,Turkey --civil-disorder", cmd_open, common)
    o.add_argument("game", metavar="GAME")
    o.add_argument("--powers", metavar="POWERS", help="comma-separated powers a bot may take where nobody plays "
                   "them, or 'all' (the default)")
    o.add_argument("--civil-disorder", action="store_true",
                   help="the NMR policy: a connected bot stands in for a power whose player missed a move, "
                        "until a replacement takes the seat")
    o.add_argument("--reason", help="said in the notice to the players")
    c = add_command(inner, "close", "close a game to new bots", "  gamesmaster daide close club7", cmd_close, common)
    c.add_argument("game", metavar="GAME")
    c.add_argument("--reason", help="said in the notice to the players")


__all__ = ["DEFAULT_PORT", "parse_games", "register"]
