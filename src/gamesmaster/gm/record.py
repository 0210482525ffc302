"""The public record: what anyone may see of a game's ledger, receipts checked, and `verify`.

Once a phase's results are published, every entry of that phase is public: each
submission as written, with its time, salt and commitment. Up to the last publication
(`GameState.public_seq`) anyone may download the ledger; entries still private there
are sealed (their payload replaced by its digest, which keeps the chain checkable):
letters between powers, always; each power's vote on a draw or concession, always, in a
game whose votes are secret (the draw-result entry says how the vote ended); and the
submissions of a phase not yet adjudicated; and conditional orders filed for later phases
until every phase they name is published (gm.plans).
Nothing after the last publication is shown, so the record a player can see while a
phase is open says nothing of the others' activity in it; the game page shows each
power's commitment instead.

`verify_archive` checks such a download on any machine, with no database and no GM.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence, cast

from ..ledger import Entry, JSONObject, JSONValue, Receipt, parse_stamp
from ..rules import Phase
from ..store.standings import StandingsRecords
from ..store import Records
from . import limits
from .desk import Desk, authenticate
from .disputes import with_dispute
from .errors import GMError, NotFound
from . import plans
from .events import (EVENTS, OPENING, PHASE_PRIVATE, PUBLISHED, PUBLISHING, Adjudicated, CoinTossed, ConditionalChosen,
                     Correction, CredentialReplaced, DeadlineClosed, DrawProposed, DrawResult, DrawVote, Event,
                     EventKind, GMAction, GameCreated, GameEnded, GameStarted, KeyAdded, LeagueAdded, LiveChanged,
                     LotsDrawn, OrdersRefused, OrdersSubmitted, OrdersWithdrawn, PhaseAdjudicated, PhaseOpened,
                     PlanFiled, PlanRead, PlayerJoined, PlayerReplaced, PlayerResigned, PowerJoined, PowersAssigned,
                     Press, Ready, SeatClaimed, SetDisputed, StandbyCalled, StandbyReleased, handlers, parse_event)
from .plans import sealed_plans
from .reading import parse_phase
from .settings import Settings
from .state import GameState
from .verify import Tables, check_receipt, verify_entries
from .views import LedgerHead, PhaseRecord, ReceiptCheck, RecordEntry, VerifyReport

ARCHIVE_FORMAT = "gamesmaster-public-record"
ARCHIVE_VERSION = 1


def public_head(entries: Sequence[Entry]) -> int:
    """The last entry that published something: the public record ends there."""
    return max((e.seq for e in entries if e.kind in PUBLISHING), default=0)


def public_copy(entries: Sequence[Entry]) -> list[Entry]:
    """The ledger as anyone may see it: up to the last publication, private entries sealed."""
    head = public_head(entries)
    shown = [e for e in entries if e.seq <= head]
    decided = {e.payload["phase"] for e in shown if e.kind in PUBLISHED}
    secret = secret_votes(entries)
    plans = sealed_plans(shown)
    return [e.seal() if e.seq in plans or _private(e, decided, secret) else e for e in shown]


def secret_votes(entries: Sequence[Entry]) -> bool:
    """Whether the game's draw votes are secret (its settings, as its first entry records them)."""
    first = entries[0] if entries else None
    if first is None or first.kind != EventKind.GAME_CREATED or first.payload is None:
        return True
    return Settings.from_dict(first.payload.get("settings")).votes == "secret"


def _private(e: Entry, decided: set[str], secret: bool) -> bool:
    p = e.payload
    if e.kind == EventKind.PRESS:
        return bool(p.get("to"))  # a letter: only its parties may read it
    if e.kind == EventKind.DRAW_VOTE:
        return secret
    return e.kind in PHASE_PRIVATE and p.get("phase") not in decided


_SEALED_WORDS: dict[str, str] = {
    EventKind.PRESS: "a letter between powers (sealed)",
    EventKind.DRAW_VOTE: "a secret vote on a proposal (sealed: only the outcome is published)",
    EventKind.PLAN_FILED: plans.SEALED_WORDS, EventKind.PLAN_READ: plans.SEALED_WORDS}


def describe(e: Entry) -> str:
    """One line saying what an entry records, for people reading the record."""
    if e.sealed:
        return _SEALED_WORDS.get(e.kind, f"{e.kind} (sealed until its phase is published)")
    ev = parse_event(e)
    return _DESCRIPTIONS[type(ev)](ev)


def _submitted(ev: OrdersSubmitted) -> str:
    by = f", entered by {ev.entered_by}" if ev.entered_by else ""
    return (f"{ev.power} set #{ev.number} for {ev.phase} ({len(ev.orders)} orders, via {ev.channel}{by}); "
            f"commitment {ev.commitment[:16]}...")


def _closed(ev: DeadlineClosed) -> str:
    used = ", ".join(f"{pw} #{u.get('number')}" for pw, u in ev.used.items())
    cd = ", ".join(ev.civil_disorder) or "none"
    return f"deadline of {ev.phase} closed ({ev.trigger}): orders used {used or 'none'}; civil disorder: {cd}"


def _adjudicated(ev: Adjudicated) -> str:
    what = "corrected" if isinstance(ev, Correction) else "adjudicated"
    return f"{ev.phase} {what}: {len(ev.results)} orders, next {ev.next.get('phase')}"


def _lots(ev: LotsDrawn) -> str:
    return f"lots drawn with seed {ev.seed}: " + "; ".join(
        f"{name} {'/'.join([lot] if isinstance(lot, str) else lot)}" for name, lot in ev.powers.items())


def _disputed(ev: SetDisputed) -> str:
    text = ev.text if isinstance(ev.text, str) else ""
    return (f"{ev.power}'s player disputes set #{ev.number} for {ev.phase}, which it did not send"
            + (f": {text[:60]}" if text else ""))


def _opened(ev: GameStarted | PhaseOpened) -> str:
    return f"{ev.phase} opened, orders due {ev.deadline or '(no deadline running)'}"


def _gm(ev: GMAction) -> str:
    return f"the gamesmaster: {ev.ACTION}"


def _kind(ev: Event) -> str:
    return ev.KIND.value  # entries whose kind says all a line would


_DESCRIPTIONS: dict[type[Event], Callable[[Any], str]] = {
    OrdersSubmitted: _submitted,
    OrdersWithdrawn: lambda ev: f"{ev.power} withdrew its orders for {ev.phase}",
    OrdersRefused: lambda ev: f"orders for {ev.power} refused: {ev.reason}",
    DeadlineClosed: _closed,
    PhaseAdjudicated: _adjudicated,
    Correction: _adjudicated,
    Press: lambda ev: f"{ev.sender} to {'everyone' if not ev.to else ', '.join(ev.to)}: {ev.text[:60]}",
    DrawProposed: lambda ev: f"proposal {ev.proposal}: {ev.kind} {', '.join(ev.powers)}, by {ev.proposer}",
    DrawVote: lambda ev: f"{ev.power} votes {'yes' if ev.yes else 'no'} on proposal {ev.proposal}",
    DrawResult: lambda ev: f"proposal {ev.proposal} {ev.status} ({ev.yes} yes, {ev.no} no)",
    KeyAdded: lambda ev: (f"player {ev.player} gave a browser a key ({ev.how or None}), "
                          "proved by the seat's credential"),
    SetDisputed: _disputed,
    PlayerJoined: lambda ev: f"{ev.name} joined as {ev.role} (player {ev.player})",
    **{action: _gm for action in EVENTS if issubclass(action, GMAction)},
    LotsDrawn: _lots,
    CoinTossed: lambda ev: (f"coin tossed in {ev.phase} with seed {ev.seed}: {ev.name} wins; {ev.power} joins in "
                            f"{ev.joins}"),
    PowerJoined: lambda ev: f"{ev.power} joins {ev.side} ({ev.name or 'nobody plays it'}) from {ev.phase}",
    PhaseOpened: _opened,
    GameStarted: _opened,
    PlanFiled: plans.describe_filed,
    PlanRead: plans.describe_read,
    **{kind: _kind for kind in (GameCreated, CredentialReplaced, SeatClaimed, PowersAssigned, ConditionalChosen, Ready,
                                GameEnded, StandbyCalled, StandbyReleased, PlayerReplaced, PlayerResigned, LiveChanged,
                                LeagueAdded)},
}
handlers("description", _DESCRIPTIONS)


def record_entry(e: Entry) -> RecordEntry:
    """A ledger entry as the public record shows it."""
    return RecordEntry(e.seq, parse_stamp(e.at), e.kind, describe(e), e.payload, e.payload_digest, e.prev_hash, e.hash)


def archive_doc(state: GameState, entries: Sequence[Entry]) -> JSONObject:
    """A game's public record as one JSON document, for `gamesmaster verify --archive`."""
    copy = public_copy(entries)
    head = copy[-1] if copy else None
    return {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "game": state.id, "title": state.title,
            "head": {"seq": head.seq, "hash": head.hash} if head else None,
            "entries": [e.as_dict() for e in copy]}


def read_archive(doc: JSONValue) -> tuple[str, list[Entry], LedgerHead | None]:
    """The game id, entries and stated head of a public record document (JSON as read); GMError names what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != ARCHIVE_FORMAT:
        raise GMError(f"not a gamesmaster public record (expected \"format\": \"{ARCHIVE_FORMAT}\")")
    if doc.get("version") != ARCHIVE_VERSION:
        raise GMError(f"public record version {doc.get('version')!r} is not one this gamesmaster reads ({ARCHIVE_VERSION})")
    game, listed = doc.get("game"), doc.get("entries")
    if not isinstance(game, str) or not isinstance(listed, list):
        raise GMError("the public record lacks its game or its entries")
    try:
        entries = [Entry.from_dict(e) if isinstance(e, dict) else _unreadable(e) for e in listed]
    except (ValueError, TypeError, AttributeError) as exc:
        raise GMError(f"the public record's entries cannot be read: {exc}") from None
    head = doc.get("head")
    stated = LedgerHead(int(cast(int, head["seq"])), str(head["hash"])) if isinstance(head, dict) else None
    return game, entries, stated


def _unreadable(value: JSONValue) -> Entry:
    raise TypeError(f"an entry is an object, not {type(value).__name__}")


def verify_archive(doc: JSONValue, receipts: Sequence[str] = (), heads: Sequence[str] = ()) -> VerifyReport:
    """Verify a downloaded public record on its own: chain, replay of every published phase, receipts, heads."""
    game, entries, stated = read_archive(doc)
    extra = [f"{stated.seq}:{stated.hash}"] if stated else []
    return verify_entries(game, entries, receipts=receipts, heads=[*heads, *extra])


class Record:
    """The record as players and the public may check it, and `verify` for the GM."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def _entries(self, rec: Records, game_id: str) -> tuple[GameState, list[Entry]]:
        state = self._desk.snapshot(rec, game_id)
        return state, rec.entries(game_id)

    def public_record(self, game_id: str) -> tuple[RecordEntry, ...]:
        """Every entry anyone may see now, private ones sealed."""
        with self._desk.reading() as rec:
            _, entries = self._entries(rec, game_id)
            return tuple(record_entry(e) for e in public_copy(entries))

    def phase_record(self, game_id: str, phase: str) -> PhaseRecord:
        """A published phase's whole record: every entry of that phase (letters sealed), in ledger order."""
        wanted = parse_phase(phase)
        with self._desk.reading() as rec:
            state, entries = self._entries(rec, game_id)
            copy = public_copy(entries)
        result = [e for e in copy if not e.sealed and e.kind in PUBLISHED
                  and e.payload["phase"] == wanted]
        if not result:
            raise NotFound(f"{wanted} has not been published in {game_id}: its record is public once its results are out")
        mine = [e for e, open_phase in _with_open_phase(copy)
                if (e.sealed and e.seq <= result[-1].seq and open_phase == wanted)
                or (not e.sealed and e.payload.get("phase") == wanted)]
        head = copy[-1]
        return PhaseRecord(game_id, Phase.parse(wanted), result[-1].seq, LedgerHead(head.seq, head.hash),
                           tuple(record_entry(e) for e in mine))

    def archive(self, game_id: str) -> JSONObject:
        """The public record as one JSON document (what `verify --archive` reads)."""
        with self._desk.reading() as rec:
            state, entries = self._entries(rec, game_id)
            return archive_doc(state, entries)

    def check_receipt(self, game_id: str, text: str, *, credential: str | None = None,
                      by_gm: bool = False) -> ReceiptCheck:
        """What the record says of a receipt. Anyone may check one once its phase is published; before,
        the power itself (with its credential) or the GM."""
        text = limits.clean(text, "the receipt", limits.RECEIPT_CHARS).strip()
        with self._desk.reading() as rec:
            state, entries = self._entries(rec, game_id)
            private = by_gm
            if credential:
                seat = authenticate(rec, state, credential, now=self._desk.now())
                try:
                    private = Receipt.parse(text).power in seat.acts_for()
                except ValueError:
                    private = False
            shown = entries if private else public_copy(entries)
            return with_dispute(check_receipt(game_id, text, shown, private=private), state)

    def verify(self, game_id: str, receipts: Sequence[str] = (), heads: Sequence[str] = ()) -> VerifyReport:
        """Replay the game from its ledger, audit every ruling, check receipts and heads, compare every cache."""
        with self._desk.reading() as rec:
            row = rec.game(game_id)
            entries = rec.entries(game_id)
            if row is None and not entries:
                raise NotFound(f"no game {game_id!r}")
            # a game with no lines at all has not had them written yet (the table came after it; the
            # standings write them on their next reading); any line there is compared
            lines = StandingsRecords(rec.conn).game(game_id)
            tables = Tables(row, rec.credentials(game_id), rec.phases(game_id, current_only=False), rec.press(game_id),
                            lines or None)
        return verify_entries(game_id, entries, tables=tables, receipts=receipts, heads=heads)


def _with_open_phase(copy: Sequence[Entry]) -> Iterator[tuple[Entry, str | None]]:
    """Each entry with the phase open when it was written (a sealed entry belongs to that phase), in one pass."""
    phase = None
    for e in copy:
        if not e.sealed and e.kind in OPENING:
            phase = e.payload["phase"]
        yield e, phase

