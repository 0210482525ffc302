"""`gamesmaster serve`: the website (and the mail intake, where installed) on the store."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from ..config import ConfigError
from ..gm import GMError, StoreError
from .options import CommandError, Subcommands

EXAMPLE = """examples:
  gamesmaster serve                                  # http://127.0.0.1:8000, with the demo game
  gamesmaster serve --host 0.0.0.0 --port 8080 --data /srv/gamesmaster --no-demo
  GAMESMASTER_DATABASE_URL=postgresql://gm@dbhost/games gamesmaster serve
  gamesmaster serve --daide club7:16713              # and bots play club7 on port 16713
"""


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the website."""
    # cli -> serving, the one door-to-serving edge: serving starts the doors (see its docstring)
    from ..serving.site import Options, serve
    from .daide import parse_games
    if not 0 <= args.port <= 65535:
        raise CommandError(f"port {args.port} is not a port number (0-65535)")
    if not 0 <= args.web_processes <= 64:
        raise CommandError(f"--web-processes {args.web_processes}: between 1 and 64 (0: one a CPU, at most four)")
    if args.threads is not None and not 1 <= args.threads <= 256:
        raise CommandError(f"--threads {args.threads}: between 1 and 256")
    opts = Options(host=args.host, port=args.port, data=Path(args.data) if args.data else None, demo=args.demo,
                   mail=not args.no_mail, smtp_port=args.smtp_port, worker_interval=args.worker_interval,
                   new_gm_credential=args.new_gm_credential, worker=not args.no_worker,
                   web_processes=args.web_processes, threads=args.threads or Options.threads,
                   daide=tuple(parse_games(args.daide or ())))
    try:
        return serve(opts, out)
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    except (StoreError, GMError, ConfigError) as exc:
        raise CommandError(str(exc)) from None


def register(sub: Subcommands) -> None:
    p = sub.add_parser("serve", help="run the website: games, war rooms, history, GM console, JSON API",
                       description="Run the gamesmaster's website on the store (SQLite in the data directory, "
                                   "or $GAMESMASTER_DATABASE_URL), with the deadline worker, and the e-mail "
                                   "intake where it is installed.",
                       epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data", metavar="DIR", help="data directory (default $GAMESMASTER_DATA or ~/.local/share/gamesmaster)")
    p.add_argument("--demo", action=argparse.BooleanOptionalAction, default=True,
                   help="load the 1971 rulebook's sample game when there are no games (default: yes)")
    p.add_argument("--smtp-port", type=int, default=2525, help="port of the e-mail intake (default 2525)")
    p.add_argument("--no-mail", action="store_true", help="do not start the e-mail intake")
    p.add_argument("--worker-interval", type=float, default=30.0, metavar="SECONDS",
                   help="how often deadlines are checked (default 30)")
    p.add_argument("--no-worker", action="store_true",
                   help="do not run the deadline worker in this process (several web processes: run "
                        "`gamesmaster worker` processes beside them; docs/deploy.md)")
    p.add_argument("--web-processes", type=int, default=0, metavar="N",
                   help="web processes sharing the port (default 0: one a CPU, at most four)")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="requests each web process works on at once (default 8: more only contend for the "
                        "interpreter's lock; bench/load/README.md)")
    p.add_argument("--new-gm-credential", action="store_true", help="make a new GM credential (the old one stops working)")
    p.add_argument("--daide", action="append", metavar="GAME[:PORT]",
                   help="also serve this game to DAIDE bots on its port (default 16713; repeatable; docs/daide.md)")
    p.set_defaults(func=cmd_serve)
