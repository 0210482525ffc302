"""A whole game as one JSON archive (its ledger and its credentials' hashes), and the demo game.

The ledger is the game, so an archive is the ledger, plus the stored hashes of the
players' credentials (which the ledger holds only as fingerprints) so that they keep
working in the copy. `import_game` verifies the archive's ledger (chain, rulings,
replay) before it writes anything, so a damaged archive is refused with the entry it
breaks; the caches are then folded from the imported ledger. An archive holds
credential hashes: keep it like a backup (it is not the public record, for which see
gm.record).

`play_sample` plays the 1971 rulebook's sample game through the gamesmaster, the
orders entered as printed.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import BinaryIO, TypedDict, cast

from ..ledger import Entry, JSONObject, JSONValue, fingerprint, parse_stamp
from ..store import Records
from ..store.accounts import AccountRecords
from . import limits
from . import values as read
from .accounts import index_seats
from .credentials import hash_secret, new_secret
from .errors import GMError
from .fold import FoldError, fold
from .games import GAME_ID
from .service import Gamesmaster
from .tx import game_row, rebuild
from .verify import verify_entries
from .views import Created
from .events import CredentialReplaced

FORMAT = "gamesmaster-archive"
VERSION = 2


class ArchiveDoc(TypedDict):
    """A game archive as written: the game's id, its ledger and its credentials' stored hashes."""

    format: str
    version: int
    exported_at: str
    game: str
    ledger: list[JSONObject]
    credentials: dict[str, str]


def export_game(gm: Gamesmaster, game_id: str) -> ArchiveDoc:
    """The whole game as one JSON document: its ledger and its credentials' hashes."""
    with gm.desk.reading() as rec:
        gm.desk.snapshot(rec, game_id)
        return {"format": FORMAT, "version": VERSION, "exported_at": gm.desk.now().isoformat(), "game": game_id,
                "ledger": [e.as_dict() for e in rec.entries(game_id)],
                "credentials": {str(n): h for n, h in sorted(rec.credentials(game_id).items())}}


def read_archive(doc: JSONValue) -> tuple[str, list[Entry], dict[int, str]]:
    """The game id, ledger and credential hashes of an archive (JSON as read); GMError names what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise GMError(f"not a gamesmaster archive (expected \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise GMError(f"archive version {doc.get('version')!r} is not supported (this gamesmaster reads {VERSION})")
    try:
        game = read.text(doc["game"], "the game's id")
        entries = [Entry.from_dict(read.fields(e, "a ledger entry")) for e in read.items(doc["ledger"], "the ledger")]
        creds = {int(n): read.text(h, "a credential's hash")
                 for n, h in read.fields(doc.get("credentials") or {}, "the credentials").items()}
    except (KeyError, TypeError, ValueError, AttributeError, GMError) as exc:
        raise GMError(f"the archive is incomplete: {exc}") from None
    if any(e.sealed for e in entries):
        raise GMError("this is a public record (sealed entries): it can be verified, not imported")
    return game, entries, creds


def check_archive(doc: JSONValue) -> tuple[str, list[Entry], dict[int, str]]:
    """Read an archive and verify its ledger and credentials; GMError names the first problem."""
    game, entries, creds = read_archive(doc)
    report = verify_entries(game, entries)
    if not report.ok:
        raise GMError(f"the archive's record does not verify: {report.problems[0]}"
                      + (f" (and {len(report.problems) - 1} more problems)" if len(report.problems) > 1 else ""))
    try:
        state, _ = fold(entries, game)
    except FoldError as exc:
        raise GMError(f"the archive's record cannot be replayed: {exc}") from None
    for seat in state.seats if state else ():
        if seat.number not in creds or fingerprint(creds[seat.number]) != seat.key:
            raise GMError(f"the archive's credential of {seat.name} (player {seat.number}) is not the one its record issued")
    return game, entries, creds


Document = JSONValue  # a JSON document as read (for the doors, which do not import the ledger)


def read_document(source: BinaryIO, what: str, limit: int = limits.DOCUMENT_BYTES) -> Document:
    """A JSON document read from a file, bounded: GMError in one line if it is larger than `limit` bytes (no
    more is read), not JSON, not UTF-8, or nested deeper than the parser goes (a 26 MB saved game took
    1.9 GB to read; 100,000 '[' were a RecursionError)."""
    data = source.read(limit + 1)
    if len(data) > limit:
        raise GMError(f"{what} is larger than {limit // (1024 * 1024):,} MB: not read")
    try:
        return cast(JSONValue, json.loads(data))
    except RecursionError:
        raise GMError(f"{what}: not a document of this kind (JSON nested too deep)") from None
    except UnicodeDecodeError as exc:
        raise GMError(f"{what}: not UTF-8 text (byte {exc.start + 1})") from None
    except json.JSONDecodeError as exc:
        raise GMError(f"{what}: not JSON ({exc.msg} at line {exc.lineno})"
                      + ("; one saved game a file, please" if exc.msg == "Extra data" else "")) from None


def import_game(gm: Gamesmaster, doc: JSONValue, game_id: str | None = None, *, seated: bool | None = None) -> str:
    """Import an archive (as a new game id, if given); returns the game id.

    Under its own id (a restore) the game keeps its seats: the players' credentials and the
    accounts that hold them. Under another id it is a copy, a new game: unseated (seated=False,
    the default), every seat's credential is replaced and no account holds it, so that the
    original's players neither find it among their games nor act in it (nor get its mail) until the
    GM gives each a credential; seated=True keeps them, when the GM says so."""
    source, entries, creds = check_archive(doc)
    new_id = game_id or source
    keep_seats = new_id == source if seated is None else seated
    if not GAME_ID.match(new_id):
        raise GMError(f"game id {new_id!r}: use lowercase letters, digits, '-' or '_'")
    with gm.desk.store.connect() as conn:
        rec = Records(conn, gm.desk.store.is_postgresql)
        if rec.game(new_id) is not None:
            raise GMError(f"there is already a game {new_id!r}: import it under another id (--as)")
        state, _ = fold(entries[:1], new_id)
        assert state is not None
        rec.put_game(game_row(state, parse_stamp(state.created), gm.desk.now()), new=True)
        rec.append(new_id, entries)
        for number, stored in creds.items():
            rec.put_credential(new_id, number, stored)
        state = rebuild(rec, new_id, gm.desk.now())
        if keep_seats:
            index_seats(AccountRecords(conn), new_id, state.claims)  # accounts of this site that hold its seats
    if not keep_seats:
        _unseat(gm, new_id, source)
    return new_id


def _unseat(gm: Gamesmaster, game_id: str, source: str) -> None:
    """A copy's seats emptied: each gets a new credential nobody is shown, which also ends any account's hold."""
    with gm.desk.transaction(game_id) as tx:
        for seat in tx.state.seats:
            if seat.role == "former":
                continue
            stored = hash_secret(new_secret())
            tx.record(CredentialReplaced(player=seat.number, name=seat.name, key=fingerprint(stored),
                                         reason=f"{game_id} is a copy of {source}: the seat waits for the "
                                                "gamesmaster to give its player a credential"))
            tx.rec.put_credential(game_id, seat.number, stored)


class SampleStep(TypedDict):
    """One phase of the sample game: each power's orders as printed, and what became of each."""

    phase: str
    orders: dict[str, list[str]]
    results: dict[str, list[str]]


class SampleGame(TypedDict):
    """The rulebook's sample game as shipped (gm/data/sample_game.json)."""

    title: str
    source: str
    rules: str
    variant: str
    players: dict[str, str]  # power -> player name
    steps: list[SampleStep]


def sample_data() -> SampleGame:
    """The rulebook's sample game as shipped (orders per power per phase, as printed)."""
    text = resources.files("gamesmaster.gm").joinpath("data/sample_game.json").read_text(encoding="utf-8")
    return cast(SampleGame, json.loads(text))  # the file ships with the package, in this form


def play_sample(gm: Gamesmaster, game_id: str = "sample-1971",
                pause_reason: str = "the rulebook's sample game ends here; resume it to play on") -> Created:
    """Play the 1971 rulebook's sample game into a new game, paused at Spring 1903."""
    data = sample_data()
    players = data["players"]
    created = gm.setup.create_game(game_id, title=data["title"], variant=data["variant"], rules=data["rules"],
                             players=list(players.values()), assign={name: power for power, name in players.items()})
    for step in data["steps"]:
        if str(gm.games.game(game_id).phase) != step["phase"]:
            raise GMError(f"the sample game went astray: expected {step['phase']}, the game is in "
                          f"{gm.games.game(game_id).phase}")
        for power, orders in step["orders"].items():
            if str(gm.games.game(game_id).phase) != step["phase"]:
                break  # processed early (retreats and adjustments)
            gm.orders.submit_orders(game_id, power, "\n".join(orders), by_gm=True, channel="import")
        if str(gm.games.game(game_id).phase) == step["phase"]:
            gm.deadlines.process(game_id, force=True)
    gm.deadlines.pause(game_id, reason=pause_reason)
    return created


def import_sample(gm: Gamesmaster, game_id: str = "sample-1971") -> str:
    """Play the 1971 rulebook's sample game into a new game, paused at Spring 1903, as a demo."""
    play_sample(gm, game_id)
    return game_id
