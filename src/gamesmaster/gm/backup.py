"""Backup and restore of a whole site: every game, the mail door's tables, and the site's secrets.

    gamesmaster backup site.json [--db URL] [--data DIR]
    gamesmaster restore site.json [--db URL] [--data DIR]

A backup is one JSON document (format "gamesmaster-backup"):

- `games`: every game as its export archive (`gm/archive.py`), each read in one
  transaction, so each game is a consistent snapshot (games are independent of each
  other: nothing is lost by reading them one after the other while the site runs);
- `mail`: the rows of the mail door's tables (contacts, inbox, outbox, cursors), when
  that door is installed;
- `data`: the data directory's secret-bearing settings file `web.json` (the session key
  and the GM credential's hash; never a credential in plain text). The backup file is
  written with mode 0600 for that reason.

`restore` needs an empty store: it checks every game's archive (its ledger chain,
receipts and replay) before writing anything, imports the games, the mail rows and
`web.json`, and then runs `verify` on every restored game; any failure exits with
status 2 naming the game. It works across databases (SQLite -> PostgreSQL and back).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy import DateTime, LargeBinary, Table, insert, select

from ..store import Store, StoreError
from ..store.db import data_dir
from .archive import export_game, import_game
from .cliopts import add_command, database_parent
from .errors import GMError
from .service import Gamesmaster

FORMAT = "gamesmaster-backup"
VERSION = 1
DATA_FILES = ("web.json",)


def _mail_tables() -> list[Table]:
    try:
        from ..mail import tables
    except ImportError:  # the mail door is not installed
        return []
    return [tables.contacts, tables.inbox, tables.outbox, tables.cursors]


def _out(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$t": value.isoformat()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    return value


def _in(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in row.items():
        col = table.c[key]
        if isinstance(value, dict) and "$t" in value and isinstance(col.type, DateTime):
            value = datetime.fromisoformat(value["$t"])
        elif isinstance(value, dict) and "$t" in value and getattr(col.type, "impl", None) is not None \
                and isinstance(col.type.impl, DateTime):  # type: ignore[attr-defined]
            value = datetime.fromisoformat(value["$t"])
        elif isinstance(value, dict) and "$b" in value and isinstance(col.type, LargeBinary):
            value = base64.b64decode(value["$b"])
        out[key] = value
    return out


def _check(archive: Any) -> None:
    from ..ledger import Entry
    from .verify import verify_entries
    try:
        game = dict(archive["game"])
        entries = [Entry.from_dict(e) for e in archive["ledger"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise GMError(f"a game's archive in the backup is incomplete: {exc}") from None
    report = verify_entries(game["id"], entries, game_row=game)
    if not report.ok:
        raise GMError(f"game {game['id']!r}: the archive's record does not verify: {report.problems[0]}")


def backup(gm: Gamesmaster, data: Path | None = None) -> dict[str, Any]:
    """The whole site as one JSON-able document."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "made_at": gm.now().isoformat(), "games": [],
                           "mail": {}, "data": {}}
    for g in gm.games():
        doc["games"].append(export_game(gm, g["id"]))
    with gm.store.connect(write=False) as conn:
        for table in _mail_tables():
            doc["mail"][table.name] = [{k: _out(v) for k, v in r._mapping.items()}
                                       for r in conn.execute(select(table).order_by(*table.primary_key.columns))]
    if data is not None:
        for name in DATA_FILES:
            path = data / name
            if path.exists():
                doc["data"][name] = path.read_text(encoding="utf-8")
    return doc


def restore(gm: Gamesmaster, doc: Any, data: Path | None = None) -> list[str]:
    """Restore a backup into an empty store (and DATA); returns the games restored, all verified."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise GMError(f"not a gamesmaster backup (expected \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise GMError(f"backup version {doc.get('version')!r} is not supported (this gamesmaster reads {VERSION})")
    if gm.games():
        raise GMError("the store already has games: restore into an empty store (a new database)")
    games = doc.get("games")
    if not isinstance(games, list):
        raise GMError("the backup has no list of games")
    for archive in games:  # every archive checked before anything is written
        _check(archive)
    restored = []
    for archive in games:
        restored.append(import_game(gm, archive))
    tables = {t.name: t for t in _mail_tables()}
    mail = doc.get("mail") or {}
    with gm.store.connect() as conn:
        for name, table in tables.items():
            rows = mail.get(name) or []
            if rows:
                conn.execute(insert(table), [_in(table, r) for r in rows])
        if gm.store.is_postgresql:  # serial counters past the restored ids
            from sqlalchemy import text
            for table in tables.values():
                if "id" in table.c and mail.get(table.name):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                      f"(SELECT max(id) FROM {table.name}))"))
    if data is not None:
        data.mkdir(parents=True, exist_ok=True)
        for name, content in (doc.get("data") or {}).items():
            if name in DATA_FILES and isinstance(content, str):
                fd = os.open(data / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(content)
    bad = []
    for game in restored:
        report = gm.verify(game)
        if not report.ok:
            bad.append(f"{game}: {report.problems[0]}")
    if bad:
        raise GMError("restored, but verify fails for " + "; ".join(bad))
    return restored


# -- the commands ----------------------------------------------------------------------------


def _error(message: str) -> Exception:
    from ..cli import CommandError  # late: gamesmaster.cli imports this module
    return CommandError(message)


def _data(args: argparse.Namespace) -> Path:
    return Path(args.data).expanduser() if args.data else data_dir()


def _store(args: argparse.Namespace) -> Store:
    try:
        return Store(args.db)
    except StoreError as exc:
        raise _error(str(exc)) from None


def cmd_backup(args: argparse.Namespace, out: TextIO) -> int:
    """Write the whole site to FILE."""
    store = _store(args)
    try:
        doc = backup(Gamesmaster(store), _data(args))
    except (GMError, StoreError) as exc:
        raise _error(str(exc)) from None
    finally:
        store.dispose()
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
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    with source:
        try:
            doc = json.load(source)
        except json.JSONDecodeError as exc:
            raise _error(f"{args.file}: not JSON: {exc.msg} at line {exc.lineno}") from None
    store = _store(args)
    try:
        games = restore(Gamesmaster(store), doc, _data(args))
    except (GMError, StoreError) as exc:
        raise _error(str(exc)) from None
    finally:
        store.dispose()
    print(f"restored {len(games)} games; verify passes for every one: {', '.join(games) or '-'}", file=out)
    return 0


def register(sub: Any) -> None:
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
