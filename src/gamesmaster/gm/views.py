"""What the gamesmaster's calls return: typed values every door (console, web, mail) renders.

Doors never open the store, rebuild a `Position` or re-check an order: a `GameView`
carries the position, the rule options, the seats and the schedule as real values.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from typing import Collection, Mapping, Sequence, cast

from ..ledger import JSONObject, JSONValue, Receipt
from ..rules import Order, Outcome, Phase, Position, Reading, RuleOptions, format_order, parse_order
from ..rules.orders import Build, Convoy, Move, Retreat, Support, Waive
from ..rules.variant import Variant
from ..rules.victory import Victory, victory
from .settings import RuleSpec, Settings
from .state import Ending, GameState, Live, Proposal, Seat, Seeking

__all__ = ["plain", "OMIT_NONE", "NOT_WRITTEN", "AS_RECORD", "AS_DOCUMENT", "OrdersSource", "PowerResults", "PublishedPhase", "PhaseLink", "GameHistory", "Answer", "Checking", "LegalOrders", "Correction", "Created", "GameView", "LedgerHead", "OrderResult", "OrdersUsed", "PhaseResult",
           "PowerStatus", "PressItem", "Processed", "QuestionAnswer", "SeatView", "GM_SEAT", "ProposalShown", "Receipt", "ReceiptCheck", "RecordEntry", "PhaseRecord",
           "OrdersOnRecord", "Submission", "OrderOption", "UnitOptions", "WarRoom", "RecordAnswered", "CommandedPower", "GamePage", "GMRoom", "CentreChart", "ChartSeries", "VerifyReport", "Ending", "Proposal", "Seat", "Live", "RuleSpec", "Seeking"]


# A field so marked is left out of a view's JSON when it is None (the API sends no key for it).
OMIT_NONE = "omit-none"
# A field so marked is never written: a value handed on inside the process (orders as read), not shown.
NOT_WRITTEN = "not-written"
# A field so marked is written as the record of its own fields, not in its text form (a ledger head as {seq, hash}).
AS_RECORD = "as-record"
# A field so marked is written as its values' own documents (to_dict): order results in the adjudicate schema.
AS_DOCUMENT = "as-document"


@dataclass(frozen=True)
class Answer:
    """The answer to one written order: accepted as the canonical order, or why not."""

    text: str
    status: str  # accepted, invalid
    order: str | None
    message: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Checking:
    """How a set of orders would be read now: each order answered, the warnings, the conditional part."""

    power: str
    lines: tuple[str, ...]
    answers: tuple[Answer, ...]
    warnings: tuple[str, ...]
    conditional: str | None
    clauses: tuple[str, ...]
    conditional_error: str | None
    # each line as read, handed on (to the map, to a later check) so that nothing reads the text again
    readings: tuple[Reading, ...] = field(default=(), repr=False, compare=False, metadata={NOT_WRITTEN: True})

    @property
    def unreadable(self) -> bool:
        """Whether not one line reads as an order (a letter rather than a set of orders)."""
        return bool(self.answers) and self.conditional is None and all(
            a.status != "accepted" and a.message.startswith("unreadable") for a in self.answers)


@dataclass(frozen=True)
class LegalOrders:
    """Every legal order of a power now, by the province of the unit ('adjust': builds and removals)."""

    power: str
    by_unit: Mapping[str, tuple[Order, ...]]
    due: int = 0  # in an adjustment phase: builds due (more than 0) or removals due (less than 0)


@dataclass(frozen=True)
class OrderOption:
    """One legal order as the war room offers it: its canonical text, its kind and the provinces it names."""

    text: str
    kind: str  # the order's kind: hold, move, support, convoy, retreat, disband, build, remove, waive
    unit: str | None  # the province of the unit ordered (None: a waived build)
    dest: str | None  # where it moves, retreats, supports or convoys to
    provinces: tuple[str, ...]
    via: bool  # a move by convoy

    @classmethod
    def of(cls, order: Order) -> "OrderOption":
        """An order with the provinces a board taps on to choose it."""
        unit = getattr(order, "unit", None)
        provinces: list[str] = [unit.province] if unit is not None else []
        dest = None
        if isinstance(order, (Move, Retreat)):
            dest = order.dest.province
            provinces.append(dest)
        elif isinstance(order, Support):
            provinces.append(order.supported.province)
            if order.dest is not None:
                dest = order.dest.province
                provinces.append(dest)
        elif isinstance(order, Convoy):
            provinces += [order.army.province, order.dest.province]
            dest = order.dest.province
        return cls(format_order(order), type(order).__name__.lower(), unit.province if unit is not None else None,
                   dest, tuple(provinces), bool(getattr(order, "via_convoy", False)))


@dataclass(frozen=True)
class UnitOptions:
    """A unit (or, key 'adjust', a power's builds or removals) and every legal order it may be given."""

    key: str
    unit: str  # the unit as written ('A PAR'), or 'Builds' / 'Removals'
    province: str | None
    orders: tuple[OrderOption, ...]
    name: str | None = field(default=None, metadata={OMIT_NONE: True})  # the province's name (not for adjustments)

    @classmethod
    def listed(cls, position: Position, legal: "LegalOrders") -> tuple["UnitOptions", ...]:
        """A power's units (or its adjustments) in a position, each with its legal orders."""
        out = []
        for key, orders in legal.by_unit.items():
            options = tuple(OrderOption.of(o) for o in orders)
            if key == "adjust":
                label = "Builds" if any(isinstance(o, (Build, Waive)) for o in orders) else "Removals"
                out.append(cls(key, label, None, options))
                continue
            unit = position.unit_at(key)
            if position.phase.is_retreat:
                unit = next((d.unit for d in position.dislodged
                             if d.unit.province == key and d.unit.power == legal.power), unit)
            out.append(cls(key, str(unit) if unit else key, key, options, position.map.provinces[key].name))
        return tuple(out)


@dataclass(frozen=True)
class Submission:
    """A power's orders as received: the answer order by order, the warnings and the receipt."""

    game: str
    phase: str
    phase_title: str
    power: str
    author: str  # player or standby
    channel: str
    entered_by: str
    answers: tuple[Answer, ...]
    warnings: tuple[str, ...]
    conditional: tuple[str, ...]  # one line per clause, as filed
    receipt: Receipt
    deadline: datetime | None
    deadline_text: str
    processed: tuple[str, ...] = ()  # phases processed early as a result


@dataclass(frozen=True)
class Created:
    """A new game: its id and each player's credential (shown this once)."""

    game: str
    credentials: Mapping[str, str]  # player name -> credential
    powers: Mapping[str, str] = field(default_factory=dict)  # player name -> (first) power, once drawn
    commands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # player name -> every power commanded
    seed: int | None = None  # the seed the lots were drawn with (None: powers assigned, or not yet drawn)


@dataclass(frozen=True)
class OrderResult:
    """One order's outcome as published: what was written, how it was read, what became of it."""

    power: str
    text: str
    order: str | None
    result: str  # succeeds, fails, invalid
    reason: str
    notes: tuple[str, ...] = ()
    by_rule: bool = False  # what the rules did that no order said: a retreat made, a civil-disorder removal

    @classmethod
    def from_dict(cls, doc: Mapping[str, object]) -> "OrderResult":
        """Read a result as the ledger records it."""
        order, notes = doc.get("order"), doc.get("notes")
        return cls(str(doc["power"]), str(doc["text"]), None if order is None else str(order), str(doc["result"]),
                   str(doc["reason"]), tuple(str(n) for n in notes) if isinstance(notes, list) else (),
                   bool(doc.get("by_rule")))

    def to_dict(self) -> JSONObject:
        """The result in the `gamesmaster adjudicate` output schema."""
        doc: JSONObject = {"power": self.power, "text": self.text, "order": self.order, "result": self.result,
                               "reason": self.reason}
        if self.notes:
            doc["notes"] = list(self.notes)
        if self.by_rule:
            doc["by_rule"] = True
        return doc


@dataclass(frozen=True)
class AwaitingGM:
    """A phase that waits for the gamesmaster's decision, with no deadline: what the GM must decide, and how."""

    game: str
    seq: int  # the ledger entry that said so
    phase: Phase
    removals: Mapping[str, int]  # power -> removals the GM chooses for it (seed 004 s24)

    @classmethod
    def of(cls, state: GameState) -> "AwaitingGM | None":
        """What the game waits for the GM to decide, if anything."""
        aw = state.awaiting
        if not aw:
            return None
        return cls(state.id, int(aw.get("seq") or 0), Phase.parse(aw.get("phase") or ""), dict(aw.get("removals") or {}))

    @property
    def short(self) -> str:
        """What the game waits for, in a few words, for everyone."""
        owed = ", ".join(f"{n} for {p.capitalize()}" for p, n in self.removals.items())
        return f"the gamesmaster's choice of removals ({owed})"

    @property
    def text(self) -> str:
        """What to decide, in words, for the GM."""
        owed = "; ".join(f"{p.capitalize()} owes {n} removal{'s' if n != 1 else ''}" for p, n in self.removals.items())
        powers = ", ".join(p.capitalize() for p in self.removals)
        return (f"{self.phase.title} waits for the gamesmaster, with no deadline: {owed}, and the rules leave the "
                "choice to the gamesmaster's judgment of which removal does least damage to the power's position "
                f"(seed 004 s24, Armageddonia). Enter the removals as {powers}'s orders (gamesmaster orders "
                f"{self.game} POWER, or the GM console) and process the phase (gamesmaster process {self.game} --now).")


@dataclass(frozen=True)
class Processed:
    """One phase adjudicated (or a deadline extended by the grace period)."""

    game: str
    phase: str
    action: str  # adjudicated, grace, waiting (for the GM to choose removals)
    next_phase: str | None
    deadline: datetime | None
    civil_disorder: tuple[str, ...] = ()
    ended: Ending | None = None
    results: tuple[OrderResult, ...] = ()
    awaiting: AwaitingGM | None = None  # waiting: what the GM must decide


@dataclass(frozen=True)
class Correction:
    """A corrected phase: what changed."""

    game: str
    phase: str
    reason: str
    differences: tuple[str, ...]
    next_phase: str | None


@dataclass(frozen=True)
class LedgerHead:
    """A point of a game's ledger: its entry number and hash (what a publication is tied to)."""

    seq: int  # the ledger entry's number
    hash: str  # the ledger entry's hash (hex)

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


@dataclass(frozen=True)
class SeatView:
    """A seat as the doors show it: who holds it, in what role, for which powers (its number to its holder only)."""

    name: str
    role: str  # gm, player, standby (or former)
    power: str | None  # the (first) power played
    powers: tuple[str, ...]  # every power played: one, or several in a small set-up
    standby_for: str | None  # the power a called stand-by was called for
    number: int | None = field(default=None, metadata={OMIT_NONE: True})  # the player's number in the game

    @classmethod
    def of(cls, seat: Seat, *, numbered: bool = False) -> "SeatView":
        """A seat as everyone may see it; `numbered`: as its holder sees it, with its number."""
        return cls(seat.name, seat.role, seat.power, seat.powers, seat.standby_for, seat.number if numbered else None)


GM_SEAT = SeatView("the gamesmaster", "gm", None, (), None)  # the GM's credential, answering "whose is this?"


@dataclass(frozen=True)
class ProposalShown:
    """A draw or concession proposal as everyone may see it: how many have voted, and how each power voted only
    in a game whose votes are open."""

    id: int
    kind: str  # draw or concession
    phase: str  # the phase it was put in
    proposer: str
    powers: tuple[str, ...]  # the draw's powers, or the one conceded to
    status: str  # open, passed, rejected, lapsed
    votes_cast: int
    votes: Mapping[str, bool] | None  # each power's vote, in a game with open votes (else None)

    @classmethod
    def of(cls, p: Proposal, open_votes: bool) -> "ProposalShown":
        """A proposal as shown in a game whose votes are open, or secret."""
        return cls(p.id, p.kind, p.phase, p.proposer, p.powers, p.status, len(p.votes), dict(p.votes) if open_votes else None)


@dataclass(frozen=True)
class PowerStatus:
    """A power at a glance: who plays it, its strength, whether it has ordered (never what)."""

    power: str
    name: str
    colour: str
    player: str | None
    standby: str | None
    centres: int
    units: int
    to_order: bool
    ordered: bool
    standby_ordered: bool
    ready: bool
    missed: int
    commitment: str | None  # the hash of its orders on record (public while the phase is open)
    submissions: int  # how many sets it has sent this phase


@dataclass(frozen=True)
class GameView:
    """A game as it stands: position, rules, seats, schedule and who has ordered."""

    id: str
    title: str
    status: str
    variant: Variant
    rules: RuleOptions
    rules_spec: RuleSpec  # the rules as the GM gave them (`rules`: the options they read as)
    settings: Settings
    phase: Phase | None
    position: Position | None
    deadline: datetime | None
    deadline_text: str
    seats: tuple[Seat, ...]
    powers: tuple[PowerStatus, ...]
    proposals: tuple[Proposal, ...]  # open ones
    result: Ending | None
    live: Live | None
    deadlock_pending: bool
    published: int
    head: LedgerHead  # where the last results were published: everything before is public
    version: str = ""  # the ledger head this view is at: a view with the same version is the same view
    seeking: Seeking = field(default_factory=Seeking)  # open to players with accounts (gm.joining)
    awaiting: AwaitingGM | None = None  # the phase waits for the GM's decision
    # Under the game's scoring system: the final scores once it has ended, else the board's if it ended now
    scores: Mapping[str, float] = field(default_factory=dict)

    @property
    def published_version(self) -> tuple[str, int]:
        """The published record's version, as GameState.published_version gives it (what the position and the
        board are kept by)."""
        return self.head.hash, self.published

    @property
    def phase_title(self) -> str | None:
        """The current phase in words."""
        return self.phase.title if self.phase else None

    @property
    def victory(self) -> Victory:
        """The victory criterion in force (the set-up's or the rule set's), which every door states."""
        return victory(self.variant, self.rules)

    def power(self, power: str) -> PowerStatus:
        """One power's status."""
        return next(p for p in self.powers if p.power == power)

    def players(self) -> tuple[Seat, ...]:
        """The seats that are not former players."""
        return tuple(s for s in self.seats if s.role != "former")


@dataclass(frozen=True)
class OrdersUsed:
    """The orders a power's results were computed from, and where they came from."""

    texts: tuple[str, ...]
    source: str  # player, gm, standby, conditional, correction
    seq: int | None = None  # the ledger entry that recorded them
    number: int | None = None  # the power's own submission number
    commitment: str | None = None


@dataclass(frozen=True)
class PhaseResult:
    """A published phase: the orders used, every result, and the position it led to."""

    game: str
    phase: Phase
    revision: int
    number: int
    current: bool
    variant: Variant
    rules: RuleOptions  # the rule options the phase was adjudicated by
    position: Position  # where the phase started
    next: Position  # where the phase led
    orders: Mapping[str, OrdersUsed]
    results: tuple[OrderResult, ...]  # civil-disorder removals included, after the orders
    winner: str | None
    civil_disorder: tuple[str, ...]
    adjudicated_at: datetime
    seq: int
    entry_hash: str

    @property
    def title(self) -> str:
        """The phase in words."""
        return self.phase.title

    def unordered(self) -> tuple[OrderResult, ...]:
        """The units that got no order, as results to list beside the others: in a movement phase
        they held (and may have been dislodged), in a retreat phase they were disbanded."""
        ordered = {(r.power, r.order.split()[1].split("/")[0]) for r in self.results
                   if r.order and len(r.order.split()) > 1}
        out = []
        if self.phase.is_movement:
            dislodged = {d.unit.province for d in self.next.dislodged}
            # a power with an order that could not be read may have meant it for this unit
            unread = {r.power for r in self.results if r.order is None}
            for pid, unit in sorted(self.position.units.items()):
                if (unit.power, pid) not in ordered:
                    none = ("civil disorder" if unit.power in self.civil_disorder
                            else "no valid order" if unit.power in unread else "no orders")
                    out.append(OrderResult(unit.power, "", f"{unit} H", "fails" if pid in dislodged else "succeeds",
                                           f"{none}: held, and was dislodged" if pid in dislodged
                                           else f"{none}: holds"))
        elif self.phase.is_retreat:
            for d in self.position.dislodged:
                if (d.unit.power, d.unit.province) not in ordered:
                    out.append(OrderResult(d.unit.power, "", f"{d.unit} D", "succeeds", "no orders: disbanded"))
        return tuple(out)

    def outcomes(self, powers: Collection[str] | None = None) -> list[Outcome]:
        """The results as the engine's outcomes (each canonical order read back as an order), for the map."""
        position, rules = self.position, self.rules
        return [Outcome(r.power, r.text, parse_order(r.order, position, r.power, rules).order if r.order else None,
                        r.result, r.reason, r.notes)
                for r in self.results if powers is None or r.power in powers]


@dataclass(frozen=True)
class OrdersSource:
    """Whose orders a published phase used for a power (the orders themselves are its results)."""

    source: str  # player, gm, standby, conditional, correction
    number: int | None  # the power's own submission number
    commitment: str | None  # the hash its receipt holds
    seq: int | None  # the ledger entry that recorded them


@dataclass(frozen=True)
class PowerResults:
    """One power's results in a published phase: every unit, ordered or not."""

    power: str
    name: str
    colour: str
    source: str | None  # whose orders were used: player, gm, standby, conditional, correction
    results: tuple[OrderResult, ...] = field(metadata={AS_DOCUMENT: True})


@dataclass(frozen=True)
class PublishedPhase:
    """A published phase as everyone may read it: its orders' results, by power, and the positions before and after."""

    phase: Phase
    title: str
    revision: int
    adjudicated_at: datetime
    results: tuple[OrderResult, ...] = field(metadata={AS_DOCUMENT: True})  # the orders', as published
    by_power: tuple[PowerResults, ...]  # every unit, ordered or not, by power
    not_ordered: tuple[str, ...]  # the powers that sent no orders
    civil_disorder: tuple[str, ...]
    next_phase: Phase
    next_title: str
    winner: str | None
    position: Position  # where the phase started
    next: Position  # where the phase led
    record: LedgerHead = field(metadata={AS_RECORD: True})  # the ledger entry that published it
    orders_used: Mapping[str, OrdersSource]

    @classmethod
    def of(cls, r: "PhaseResult") -> "PublishedPhase":
        """A phase's results as published, grouped by power with the units that had no order."""
        powers = r.variant.powers
        by_power: dict[str, list[OrderResult]] = {p: [] for p in powers}
        for x in r.results + r.unordered():
            by_power.setdefault(x.power, []).append(x)
        grouped = tuple(PowerResults(p, powers[p].name if p in powers else p, powers[p].colour if p in powers else "#888",
                                     r.orders[p].source if p in r.orders else None, tuple(rs))
                        for p, rs in by_power.items() if rs)
        return cls(r.phase, r.title, r.revision, r.adjudicated_at, r.results, grouped,
                   tuple(p for p, u in r.orders.items() if not u.texts), r.civil_disorder, r.next.phase,
                   r.next.phase.title, r.winner, r.position, r.next, LedgerHead(r.seq, r.entry_hash),
                   {p: OrdersSource(u.source, u.number, u.commitment, u.seq) for p, u in r.orders.items()})


@dataclass(frozen=True)
class PressItem:
    """A press release, a letter or a GM notice, as the reader may see it."""

    number: int
    phase: str | None
    sent_at: datetime
    sender: str  # a power, GM, or 'anonymous' when hidden from this reader
    to: tuple[str, ...] | None  # None: everyone
    anonymous: bool
    text: str
    seq: int


@dataclass(frozen=True)
class QuestionAnswer:
    """The gamesmaster's answer to a question: its text, whether it went to everyone, and when."""

    text: str
    public: bool  # to everyone (the question quoted, its asker not named); else to the asker alone
    at: datetime


@dataclass(frozen=True)
class QuestionView:
    """A question to the gamesmaster and its answers, as a reader may see them."""

    number: int  # the game's numbering for the GM; the asker's own count for the asker
    power: str
    phase: str | None
    asked_at: datetime
    text: str
    answered: bool = field(init=False)  # whether the GM has answered it (worked out from the answers)
    answers: tuple[QuestionAnswer, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "answered", bool(self.answers))  # frozen: set once, as the view is made


@dataclass(frozen=True)
class OrdersOnRecord:
    """A power's set of orders on record for the current phase (shown to that power and the GM)."""

    phase: str
    power: str
    author: str
    orders: tuple[str, ...]
    conditional: str | None
    channel: str
    entered_by: str
    submitted_at: datetime
    receipt: Receipt
    condition: str | None = None
    filed_phase: str | None = None


@dataclass(frozen=True)
class VerifyReport:
    """What `verify` found: every problem, with the ledger entry it breaks."""

    game: str
    entries: int
    phases_replayed: int
    receipts_checked: int
    problems: tuple[str, ...]
    head: LedgerHead | None = None
    reworded: int = 0  # phases this version of the engine explains in other words (the results the same)
    notes: tuple[str, ...] = ()  # what could not be checked yet (a receipt of a phase the record does not reach)

    @property
    def ok(self) -> bool:
        """True when the record holds."""
        return not self.problems


@dataclass(frozen=True)
class ReceiptCheck:
    """What the record says of one receipt: found as committed, and whether its orders were used."""

    receipt: str
    ok: bool
    status: str  # used, replaced, withdrawn, pending, mismatch, missing, not-yet-public, unreadable
    # ok is True only when the record was checked and holds: not-yet-public and unreadable are neither
    message: str
    seq: int | None = None
    entry_hash: str | None = None
    disputed: int | None = None  # the entry disputing the set that replaced this one, if any (gm.disputes)


@dataclass(frozen=True)
class RecordEntry:
    """One entry of a game's public record: sealed entries show only their digest; a submission, once published,
    its orders as written, its salt and its commitment."""

    seq: int
    at: datetime
    kind: str
    summary: str
    payload: JSONObject | None = field(metadata={NOT_WRITTEN: True})  # None when sealed; what is shown of it follows
    sealed: bool = field(init=False)  # a letter between powers, or a set of orders not yet published
    payload_sha256: str
    prev_hash: str
    hash: str
    orders: tuple[str, ...] | None = field(init=False)  # a submission's orders as written (None: not one, or sealed)
    salt: str | None = field(init=False)  # a submission's salt
    commitment: str | None = field(init=False)  # the hash of a submission's orders and salt: what its receipt holds

    def __post_init__(self) -> None:
        # Worked out once, as the view is made: the parts of the payload a reader of the record is shown.
        p = self.payload
        submitted = self.kind == "orders-submitted" and p is not None
        orders = p.get("orders") if p is not None and submitted else None
        object.__setattr__(self, "sealed", p is None)
        object.__setattr__(self, "orders", (tuple(str(o) for o in orders) if isinstance(orders, list) else ())
                           if submitted else None)
        for name in ("salt", "commitment"):
            value = p.get(name) if p is not None and submitted else None
            object.__setattr__(self, name, None if value is None else str(value))


@dataclass(frozen=True)
class PhaseRecord:
    """A published phase's whole record: every submission as written, with times and hashes."""

    game: str = field(metadata={NOT_WRITTEN: True})  # the game's id (the reader asked for it)
    phase: Phase
    title: str = field(init=False)  # the phase in words
    result_seq: int  # the ledger entry that published its results
    head: LedgerHead = field(metadata={AS_RECORD: True})  # where the public record ends
    entries: tuple[RecordEntry, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", self.phase.title)  # frozen: set once, as the view is made


def plain_object(value: object) -> JSONObject:
    """A view that is a record (a dataclass or a mapping) as a JSON object."""
    doc = plain(value)
    if not isinstance(doc, dict):
        raise TypeError(f"{type(value).__name__} is not a record: it is written as {type(doc).__name__}")
    return doc


def _written_fields(kind: type) -> tuple[tuple[str, bool, str | None], ...]:
    """A view class's written fields, once per class: (name, left out when None, written as AS_RECORD or
    AS_DOCUMENT says, else None)."""
    found = _WRITTEN_FIELDS.get(kind)
    if found is None:
        found = _WRITTEN_FIELDS[kind] = tuple(
            (f.name, bool(f.metadata.get(OMIT_NONE)),
             AS_RECORD if f.metadata.get(AS_RECORD) else AS_DOCUMENT if f.metadata.get(AS_DOCUMENT) else None)
            for f in fields(kind) if not f.metadata.get(NOT_WRITTEN))
    return found


_WRITTEN_FIELDS: dict[type, tuple[tuple[str, bool, str | None], ...]] = {}


def _written(value: object, how: str | None) -> JSONValue:
    """A view's field as plain() writes it, or as its metadata says (AS_RECORD, AS_DOCUMENT)."""
    if how == AS_RECORD and is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if how == AS_DOCUMENT and isinstance(value, tuple):
        return [v.to_dict() if hasattr(v, "to_dict") else plain(v) for v in value]
    return plain(value)


_AS_IS = frozenset((str, int, float, bool))


def plain(value: object) -> JSONValue:
    """A view as JSON (for the console's --json and the API): values as their written forms."""
    if value is None or type(value) in _AS_IS:
        return cast(JSONValue, value)  # most of a view's values: tested first, by exact type, before the rest
    if isinstance(value, Position):
        return value.to_dict()
    if isinstance(value, RuleOptions):
        return cast(JSONObject, value.as_dict())
    if isinstance(value, RuleSpec):
        return value.to_json()
    if isinstance(value, Settings):
        return value.to_dict()
    if isinstance(value, Variant):
        return value.name
    if isinstance(value, Phase):
        return str(value)
    if isinstance(value, (Receipt, LedgerHead)):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if is_dataclass(value) and not isinstance(value, type):
        out: JSONObject = {}
        for name, omit_none, how in _written_fields(type(value)):
            v = getattr(value, name)
            if not (omit_none and v is None):
                out[name] = plain(v) if how is None else _written(v, how)
        return out
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "as_dict"):
        return plain(value.as_dict())  # an outcome's document: plain again, so that it is JSON to the type checker too
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


@dataclass(frozen=True)
class RecordAnswered:
    """A set of orders on record, with the gamesmaster's answer to each order while it can still be changed."""

    orders: OrdersOnRecord
    checking: Checking | None  # None once the phase can no longer be ordered


@dataclass(frozen=True)
class CommandedPower:
    """A power a seat commands, as its war room lists it: whether it has something to order, and has."""

    power: str
    name: str
    colour: str
    to_order: bool
    ordered: bool
    current: bool  # the power the war room is open at


@dataclass(frozen=True)
class WarRoom:
    """A seat's war room, worked out in one look at the game with one check of the credential: the power
    being ordered, its orders on record (answered), its legal orders, its press, questions and votes."""

    game: GameView
    seat: Seat
    power: str | None  # None: the seat orders for no power now
    commands: tuple[CommandedPower, ...]
    records: tuple[RecordAnswered, ...] = ()
    options: tuple[UnitOptions, ...] = ()  # every legal order, while the power has something to order
    press: tuple[PressItem, ...] = ()
    questions: tuple["QuestionView", ...] = ()
    cannot_act: str | None = None  # why this sign-in can act on nothing (no key of it on the record)

    @property
    def me(self) -> PowerStatus | None:
        """The power's status in the game."""
        return next((p for p in self.game.powers if p.power == self.power), None)

    @property
    def can_order(self) -> bool:
        """Whether the power has orders to give now."""
        me = self.me
        return bool(self.game.status in ("active", "paused") and me is not None and me.to_order)

    @property
    def mine(self) -> RecordAnswered | None:
        """The seat's own set on record (a stand-by's own, a player's own)."""
        author = "standby" if self.seat.role == "standby" else "player"
        return next((r for r in self.records if r.orders.author == author), None)

    @property
    def orders_text(self) -> str:
        """The seat's own set as it would be typed again (the conditional part with its headings)."""
        mine = self.mine
        if mine is None:
            return ""
        text = "\n".join(mine.orders.orders)
        if mine.orders.conditional:
            text += "\n\n" + mine.orders.conditional
        return text


@dataclass(frozen=True)
class GamePage:
    """A game's public page, from one look at the game: the game, every phase published, the public press."""

    game: GameView
    published: tuple[PhaseResult, ...]  # the current revision of each published phase, in order
    press: tuple[PressItem, ...]  # public releases and GM notices, anonymous senders hidden


@dataclass(frozen=True)
class GMRoom:
    """A game as the gamesmaster's console shows it, from one look at the game: its public page, the sets each
    power has handed in (for the GM's eyes only), every proposal, all the press and every question."""

    page: GamePage
    received: tuple[OrdersOnRecord, ...]  # the sets on record now, player's and stand-by's
    proposals: tuple[Proposal, ...]  # every one, open or decided
    press: tuple[PressItem, ...]  # everything, as the GM reads it
    questions: tuple[QuestionView, ...]


@dataclass(frozen=True)
class ChartSeries:
    """One power's line on the centre chart: its supply centres at each point."""

    power: str
    name: str
    colour: str
    counts: tuple[int, ...]


@dataclass(frozen=True)
class CentreChart:
    """Supply-centre counts by power at the start of every year (and now), for the history's chart."""

    labels: tuple[str, ...]  # a year, or 'YEAR (phase)' for a last point that is not a spring
    victory: int | None  # the centres that win (None where the criterion counts units)
    series: tuple[ChartSeries, ...]

    @classmethod
    def of(cls, view: GameView, published: Sequence[PhaseResult]) -> "CentreChart":
        """The chart of a game from its published phases and where it stands now."""
        powers = view.variant.powers
        points: dict[str, dict[str, int]] = {}
        for row in published:
            ph = row.phase
            if ph.season == "S" and ph.is_movement:
                points[str(ph.year)] = {p: len(row.position.centres_of(p)) for p in powers}
        last = published[-1].next if published else view.position
        if last:
            ph = last.phase
            label = str(ph.year) if ph.season == "S" and ph.is_movement else f"{ph.year} ({ph.title})"
            if ph.season != "S" or not ph.is_movement or str(ph.year) not in points:
                points[label] = {p: len(last.centres_of(p)) for p in powers}
            if view.status == "finished":
                points[label] = {p: len(last.centres_of(p)) for p in powers}
        # The line "N to win" is drawn where centres win; a criterion that counts units has no place on it.
        return cls(tuple(points), None if view.victory.counts_units else view.victory.need,
                   tuple(ChartSeries(p, powers[p].name, powers[p].colour, tuple(points[k][p] for k in points))
                         for p in powers))


@dataclass(frozen=True)
class PhaseLink:
    """A published phase as a game's history lists it: which, its revision, and the entry that published it."""

    phase: Phase
    title: str
    revision: int  # 0, or how many corrections it has had
    record: LedgerHead = field(metadata={AS_RECORD: True})  # the ledger entry that published it


@dataclass(frozen=True)
class GameHistory:
    """A game's history: the phases published, the centre counts by year, and how it ended."""

    id: str
    phases: tuple[PhaseLink, ...]
    current: Phase | None  # the phase being played now
    chart: CentreChart
    result: Ending | None
    head: LedgerHead = field(metadata={AS_RECORD: True})  # where the last results were published

    @classmethod
    def of(cls, page: GamePage) -> "GameHistory":
        """The history of a game from its public page."""
        view, rows = page.game, page.published
        return cls(view.id, tuple(PhaseLink(r.phase, r.title, r.revision, LedgerHead(r.seq, r.entry_hash)) for r in rows),
                   view.phase, CentreChart.of(view, rows), view.result, view.head)
