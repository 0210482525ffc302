"""A whole game as one JSON archive (position, orders, results, press, ledger), and the demo game.

`export_game` writes every table of a game and its ledger; `import_game` checks the
archive's ledger (chain, receipts, replay) before it writes anything, so a damaged
archive is refused with the entry it breaks. `import_sample` plays the 1971 rulebook's
sample game through the gamesmaster, the orders entered as printed.
"""

from __future__ import annotations

import json
from datetime import datetime
from importlib import resources
from typing import Any, Mapping

from ..ledger import Entry
from ..store import Records
from .errors import GMError
from .service import Gamesmaster, _GAME_ID
from .verify import verify_entries
from .views import Created

FORMAT = "gamesmaster-archive"
VERSION = 1
_TABLES = ("players", "orders", "pending", "phases", "press", "proposals")


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def _row_out(row: Mapping[str, Any], drop: tuple[str, ...] = ()) -> dict[str, Any]:
    return {k: _jsonable(v) for k, v in row.items() if k not in drop}


def export_game(gm: Gamesmaster, game_id: str) -> dict[str, Any]:
    """The whole game as one JSON document."""
    with gm.store.connect(write=False) as conn:
        rec = Records(conn, gm.store.is_postgresql)
        gm._load(rec, game_id)
        game = rec.game(game_id)
        doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "exported_at": gm.now().isoformat(),
                               "game": _row_out(game)}  # type: ignore[arg-type]
        doc["players"] = [_row_out(r, ("id", "game_id")) for r in rec.players(game_id)]
        doc["orders"] = [_row_out(r, ("game_id",)) for r in rec.orders(game_id)]
        doc["pending"] = [_row_out(r, ("game_id",)) for r in rec.pending(game_id)]
        doc["phases"] = [_row_out(r, ("game_id",)) for r in rec.phases(game_id, current_only=False)]
        doc["press"] = [_row_out(r, ("id", "game_id")) for r in rec.press(game_id)]
        doc["proposals"] = [_row_out(r, ("game_id",)) for r in rec.proposals(game_id)]
        doc["ledger"] = [e.as_dict() for e in rec.entries(game_id)]
        return doc


_TIMES = {"games": ("deadline", "created_at", "updated_at"), "players": ("joined_at",), "orders": ("submitted_at",),
          "phases": ("adjudicated_at",), "press": ("sent_at",), "proposals": ("created_at",), "pending": ()}


def _row_in(row: Mapping[str, Any], table: str) -> dict[str, Any]:
    out = dict(row)
    for key in _TIMES[table]:
        if out.get(key) is not None:
            out[key] = datetime.fromisoformat(out[key])
    return out


def import_game(gm: Gamesmaster, doc: Any, game_id: str | None = None) -> str:
    """Import an archive (as a new game id, if given); returns the game id."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise GMError(f"not a gamesmaster archive (expected \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise GMError(f"archive version {doc.get('version')!r} is not supported (this gamesmaster reads {VERSION})")
    try:
        game = dict(doc["game"])
        entries = [Entry.from_dict(e) for e in doc["ledger"]]
        tables = {t: list(doc.get(t, [])) for t in _TABLES}
    except (KeyError, TypeError, ValueError) as exc:
        raise GMError(f"the archive is incomplete: {exc}") from None
    source_id = game["id"]
    new_id = game_id or source_id
    if not _GAME_ID.match(new_id):
        raise GMError(f"game id {new_id!r}: use lowercase letters, digits, '-' or '_'")
    report = verify_entries(source_id, entries, game_row=game)
    if not report.ok:
        raise GMError(f"the archive's record does not verify: {report.problems[0]}"
                      + (f" (and {len(report.problems) - 1} more problems)" if len(report.problems) > 1 else ""))
    with gm.store.connect() as conn:
        rec = Records(conn, gm.store.is_postgresql)
        if rec.game(new_id) is not None:
            raise GMError(f"there is already a game {new_id!r}: import it under another id (--as)")
        game["id"] = new_id
        rec.insert_game(**_row_in(game, "games"))
        for row in tables["players"]:
            rec.insert_player(game_id=new_id, **_row_in(row, "players"))
        for row in tables["orders"]:
            rec.put_orders(game_id=new_id, **_row_in(row, "orders"))
        for row in tables["pending"]:
            rec.put_pending(game_id=new_id, **_row_in(row, "pending"))
        for row in tables["phases"]:
            rec.insert_phase(game_id=new_id, **_row_in(row, "phases"))
        for row in tables["press"]:
            rec.insert_press(game_id=new_id, **_row_in(row, "press"))
        for row in tables["proposals"]:
            row = _row_in(row, "proposals")
            row.pop("id", None)
            rec.insert_proposal(game_id=new_id, **row)
        for e in entries:
            rec.import_entry(new_id, e)
    return new_id


def sample_data() -> dict[str, Any]:
    """The rulebook's sample game as shipped (orders per power per phase, as printed)."""
    text = resources.files("gamesmaster.gm").joinpath("data/sample_game.json").read_text(encoding="utf-8")
    return json.loads(text)


def play_sample(gm: Gamesmaster, game_id: str = "sample-1971",
                pause_reason: str = "the rulebook's sample game ends here; resume it to play on") -> Created:
    """Play the 1971 rulebook's sample game into a new game, paused at Spring 1903."""
    data = sample_data()
    players = data["players"]
    created = gm.create_game(game_id, title=data["title"], variant=data["variant"], rules=data["rules"],
                             players=list(players.values()), assign={name: power for power, name in players.items()})
    for step in data["steps"]:
        if gm.status(game_id)["phase"] != step["phase"]:
            raise GMError(f"the sample game went astray: expected {step['phase']}, the game is in "
                          f"{gm.status(game_id)['phase']}")
        for power, orders in step["orders"].items():
            if gm.status(game_id)["phase"] != step["phase"]:
                break  # processed early (retreats and adjustments)
            gm.submit_orders(game_id, power, "\n".join(orders), by_gm=True, channel="import")
        if gm.status(game_id)["phase"] == step["phase"]:
            gm.process(game_id, force=True)
    gm.pause(game_id, reason=pause_reason)
    return created


def import_sample(gm: Gamesmaster, game_id: str = "sample-1971") -> str:
    """Play the 1971 rulebook's sample game into a new game, paused at Spring 1903, as a demo."""
    play_sample(gm, game_id)
    return game_id
