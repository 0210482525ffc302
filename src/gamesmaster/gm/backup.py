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

import os
from pathlib import Path
from typing import TypedDict

from ..ledger import JSONObject, JSONValue
from ..store import accounts
from ..store.backup import RowsError, put_side_rows, side_rows
from .accounts import index_seats
from .archive import ArchiveDoc, check_archive, export_game, import_game
from .errors import GMError
from .service import Gamesmaster

FORMAT = "gamesmaster-backup"
VERSION = 1
DATA_FILES = ("web.json",)


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
    doc: BackupDoc = {"format": FORMAT, "version": VERSION, "made_at": gm.desk.now().isoformat(), "games": [],
                      "mail": {}, "data": {}}
    for g in gm.games.games():
        doc["games"].append(export_game(gm, g.id))
    doc["mail"] = side_rows(gm.desk.store)
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
    if gm.games.games():
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
    given = doc.get("mail")
    try:
        put_side_rows(gm.desk.store, given if isinstance(given, dict) else {})
    except RowsError as exc:
        raise GMError(str(exc)) from None
    with gm.desk.store.connect() as conn:  # each account's games, which a backup from before gm_account_games lacks
        ar = accounts.AccountRecords(conn)
        for game_id in restored:
            index_seats(ar, game_id, gm.joining.game_state(game_id).claims)
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
        report = gm.record.verify(game)
        if not report.ok:
            bad.append(f"{game}: {report.problems[0]}")
    if bad:
        raise GMError("restored, but verify fails for " + "; ".join(bad))
    return restored
