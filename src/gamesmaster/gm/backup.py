"""Backup and restore of a whole site: every game, the mail door's tables, and the site's secrets.

The commands `gamesmaster backup` and `gamesmaster restore` (gamesmaster.cli.backup) call these.

A backup is one JSON document (format "gamesmaster-backup"):

- `games`: every game as its export archive (`gm/archive.py`), each read in one
  transaction, so each game is a consistent snapshot (games are independent of each
  other: nothing is lost by reading them one after the other while the site runs);
- `mail`: the rows of the mail door's tables (contacts, inbox, outbox, cursors) and of
  players' accounts (accounts, sign-in links, notification settings, notifications);
- `data`: the data directory's secret-bearing settings file `web.json` (the session key
  and the GM credential's hash; never a credential in plain text). The backup file is
  written with mode 0600 for that reason.

`restore` needs an empty store: it checks every game's archive (its ledger chain,
receipts and replay) before writing anything, imports the games, the mail rows and
`web.json`, and then runs `verify` on every restored game; any failure exits with
status 2 naming the game. It works across databases (SQLite -> PostgreSQL and back).
"""

from __future__ import annotations

import base64
import os
from datetime import datetime
from pathlib import Path
from typing import TypedDict, cast

from sqlalchemy import DateTime, Integer, LargeBinary, Table, insert, select

from ..ledger import JSONObject, JSONValue
from ..store import accounts, mailbox, webhooks
from .accounts import index_seats
from .archive import ArchiveDoc, check_archive, export_game, import_game
from .errors import GMError
from .service import Gamesmaster

FORMAT = "gamesmaster-backup"
VERSION = 1
DATA_FILES = ("web.json",)


def _mail_tables() -> list[Table]:
    """The tables beside the ledgers kept in a backup: the mail door's, players' accounts, and the games' webhooks
    (the backup holds the site's secrets already: web.json)."""
    return [mailbox.contacts, mailbox.inbox, mailbox.outbox, mailbox.cursors, accounts.accounts, accounts.links,
            accounts.settings, accounts.notices, accounts.cursors, accounts.games, webhooks.hooks, webhooks.posts]


def _out(value: object) -> JSONValue:
    if isinstance(value, datetime):
        return {"$t": value.isoformat()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$b": base64.b64encode(bytes(value)).decode("ascii")}
    return cast(JSONValue, value)  # the other columns hold text, numbers, booleans or JSON


def _in(table: Table, row: JSONValue) -> dict[str, object]:
    if not isinstance(row, dict):
        raise GMError(f"the backup's {table.name} holds a row that is not an object")
    out: dict[str, object] = {}
    for key, given in row.items():
        value: object = given
        col = table.c[key]
        if isinstance(value, dict) and "$t" in value and isinstance(col.type, DateTime):
            value = datetime.fromisoformat(str(value["$t"]))
        elif isinstance(value, dict) and "$t" in value and getattr(col.type, "impl", None) is not None \
                and isinstance(col.type.impl, DateTime):  # type: ignore[attr-defined]
            value = datetime.fromisoformat(str(value["$t"]))
        elif isinstance(value, dict) and "$b" in value and isinstance(col.type, LargeBinary):
            value = base64.b64decode(str(value["$b"]))
        out[key] = value
    return out


class BackupDoc(TypedDict):
    """A whole site as written: every game's archive, the mail door's rows, the data directory's files."""

    format: str
    version: int
    made_at: str
    games: list[ArchiveDoc]
    mail: dict[str, list[JSONObject]]
    data: dict[str, str]


def backup(gm: Gamesmaster, data: Path | None = None) -> BackupDoc:
    """The whole site as one JSON-able document."""
    doc: BackupDoc = {"format": FORMAT, "version": VERSION, "made_at": gm.now().isoformat(), "games": [],
                      "mail": {}, "data": {}}
    for g in gm.games():
        doc["games"].append(export_game(gm, g.id))
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


def restore(gm: Gamesmaster, doc: JSONValue, data: Path | None = None) -> list[str]:
    """Restore a backup (JSON as read) into an empty store (and DATA); returns the games restored, all verified."""
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
        try:
            check_archive(archive)
        except GMError as exc:
            game = archive.get("game") if isinstance(archive, dict) else None
            raise GMError(f"game {game!r}: {exc}") from None
    restored = []
    for archive in games:
        restored.append(import_game(gm, archive))
    tables = {t.name: t for t in _mail_tables()}
    given = doc.get("mail")
    mail = given if isinstance(given, dict) else {}
    with gm.store.connect() as conn:
        for name, table in tables.items():
            rows = mail.get(name) or []
            if not isinstance(rows, list):
                raise GMError(f"the backup's {name} is not a list of rows")
            if rows:
                conn.execute(insert(table), [_in(table, r) for r in rows])
        if gm.store.is_postgresql:  # serial counters past the restored ids
            from sqlalchemy import text
            for table in tables.values():
                if "id" in table.c and isinstance(table.c.id.type, Integer) and mail.get(table.name):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                      f"(SELECT max(id) FROM {table.name}))"))
    with gm.store.connect() as conn:  # each account's games, which a backup from before gm_account_games lacks
        ar = accounts.AccountRecords(conn)
        for game_id in restored:
            index_seats(ar, game_id, gm.game_state(game_id).claims)
    if data is not None:
        data.mkdir(parents=True, exist_ok=True)
        files = doc.get("data")
        for name, content in (files.items() if isinstance(files, dict) else ()):
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
