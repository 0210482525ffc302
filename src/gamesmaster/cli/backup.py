"""`gamesmaster backup` and `gamesmaster restore`: the whole site in one file (gamesmaster.gm.backup)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from ..gm import BACKUP_BYTES, Gamesmaster, GMError, StoreError, backup, data_dir, read_document, restore
from .options import CommandError, Subcommands, add_command, database_parent


def _data(args: argparse.Namespace) -> Path:
    return Path(args.data).expanduser() if args.data else data_dir()


def _gm(args: argparse.Namespace) -> Gamesmaster:
    try:
        return Gamesmaster.open(args.db)
    except StoreError as exc:
        raise CommandError(str(exc)) from None


def cmd_backup(args: argparse.Namespace, out: TextIO) -> int:
    """Write the whole site to FILE."""
    gm = _gm(args)
    try:
        doc = backup(gm, _data(args))
    except (GMError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        gm.close()
    text = json.dumps(doc, ensure_ascii=False) + "\n"
    if args.file == "-":
        out.write(text)
    else:
        tmp = Path(args.file + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.file)
        print(f"backed up {len(doc['games'])} games to {args.file}", file=out)
    return 0


def cmd_restore(args: argparse.Namespace, out: TextIO) -> int:
    """Restore FILE into an empty store, then verify every game."""
    source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    with source:
        try:
            doc = read_document(source, args.file, BACKUP_BYTES)
        except GMError as exc:
            raise CommandError(str(exc)) from None
    gm = _gm(args)
    try:
        games = restore(gm, doc, _data(args))
    except (GMError, StoreError) as exc:
        raise CommandError(str(exc)) from None
    finally:
        gm.close()
    print(f"restored {len(games)} games; verify passes for every one: {', '.join(games) or '-'}", file=out)
    return 0


def register(sub: Subcommands) -> None:
    common = database_parent()
    common.add_argument("--data", metavar="DIR", help="data directory holding web.json (default $GAMESMASTER_DATA "
                        "or ~/.local/share/gamesmaster)")
    p = add_command(sub, "backup", "write the whole site (games, mail, secrets) to one file",
                    "  gamesmaster backup /srv/backups/site-$(date +%F).json", cmd_backup, [common],
                    description="Write every game, the mail door's tables and the site's web.json to FILE "
                                "(mode 0600), for `gamesmaster restore`.")
    p.add_argument("file", metavar="FILE", help="where to write ('-' for stdout)")
    p = add_command(sub, "restore", "restore a backup into an empty store and verify every game",
                    "  GAMESMASTER_DATABASE_URL=postgresql://gm@db/new gamesmaster restore site.json", cmd_restore,
                    [common], description="Restore a file written by `gamesmaster backup` into an empty store (and "
                                          "data directory), then verify every game.")
    p.add_argument("file", metavar="FILE", help="the backup ('-' for stdin)")
