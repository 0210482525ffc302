"""A game's state as its ledger leaves it: typed values, folded from the entries by `gm.fold`.

Nothing here is a source of truth. `GameState` is what the ledger says the game is at
a given entry; the store keeps a copy of it beside the ledger (a cache, rebuilt and
compared by `verify`). Every value is immutable and turns into JSON and back
(`to_dict`/`from_dict`) for that copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Iterable, Literal, Mapping, TypedDict, cast

from ..ledger import JSONObject, JSONValue, canonical
from ..rules import Phase, Position, RuleOptions
from ..rules.conditional import Facts
from ..rules.variant import Variant
from ..rules.victory import Side, sides as sides_of
from ..variants import load_rules, load_variant
from .live import LiveConfig, LiveState
from .settings import Settings

GM = "GM"
PLAYER, STANDBY, FORMER = "player", "standby", "former"
# A field written to the snapshot only once it holds something, so the snapshots of older games stay as they were.
OMIT_EMPTY = "omit-empty"


def _plain(value: object) -> JSONValue:
    """A value as JSON: dataclasses field by field, tuples as lists, mappings with text keys."""
    # The commonest kinds first, by exact type: a game's snapshot is written on every change, and an
    # isinstance test against typing's Mapping costs more than the rest of the walk.
    kind = type(value)
    if value is None or kind in _SCALARS:
        return value  # type: ignore[return-value]  # one of JSON's scalars, by the test above
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]  # type: ignore[attr-defined]  # a tuple or a list, by the test above
    if kind is dict:
        return {str(k): _plain(v) for k, v in value.items()}  # type: ignore[attr-defined]
    names = _plain_fields(kind)
    if names is not None:
        return {name: _plain(getattr(value, name)) for name, omit_empty in names
                if not (omit_empty and not getattr(value, name))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{kind.__name__} has no JSON form in a game's state")


_SCALARS = frozenset({str, int, bool, float})


def _plain_fields(kind: type) -> tuple[tuple[str, bool], ...] | None:
    """A dataclass's fields as its JSON form writes them (name, written only once it holds something); None for
    a type that is not a dataclass."""
    try:
        return _FIELDS_OF[kind]
    except KeyError:
        found = _FIELDS_OF[kind] = (tuple((f.name, bool(f.metadata.get(OMIT_EMPTY))) for f in fields(kind) if f.init)
                                    if is_dataclass(kind) else None)
        return found


_FIELDS_OF: dict[type, tuple[tuple[str, bool], ...] | None] = {}


def _fields(doc: Mapping[str, JSONValue]) -> dict[str, Any]:
    """A snapshot's fields as keyword arguments: to_dict wrote them, so each has its field's type."""
    return dict(doc)


KeyKind = Literal["credential", "session"]  # a seat's credential's key, or a browser's (gm.keys)


@dataclass(frozen=True)
class KeyOnRecord:
    """A key a seat proves its actions with (gm.keys): its salt and anchor as recorded, its last value, uses."""

    player: int
    salt: str
    anchor: str
    last: str
    used: int = 0
    kind: KeyKind = "credential"

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "KeyOnRecord":
        """Read to_dict's form."""
        return cls(**_fields(doc))


@dataclass(frozen=True)
class Dispute:
    """A player's word on the record that a set of orders in its power's name was not its own."""

    seq: int  # the entry that records it
    phase: str
    power: str
    number: int  # the set disputed
    player: int
    text: str

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Dispute":
        """Read to_dict's form."""
        return cls(**_fields(doc))


@dataclass(frozen=True)
class Seat:
    """A player of the game: the number in the credential, the power held or stood by for."""

    number: int
    name: str
    role: str  # player, standby or former
    powers: tuple[str, ...] = ()  # the powers played (role player): one, or several in a small set-up
    standby_for: str | None = None  # the power a called stand-by was called for
    rank: int = 0  # a stand-by's place in the queue
    key: str = ""  # the fingerprint of the credential's stored hash (what the ledger records)
    ready: bool = False
    missed: int = 0  # movement phases missed
    # A called stand-by stands by for the whole seat of the player who missed: every power he commands.
    stands_for: tuple[str, ...] = field(default=(), metadata={OMIT_EMPTY: True})

    @property
    def power(self) -> str | None:
        """The (first) power played, if any."""
        return self.powers[0] if self.powers else None

    def acts_for(self) -> tuple[str, ...]:
        """The powers this seat may order for now: those it plays, or the one it stands by for."""
        if self.role == PLAYER:
            return self.powers
        if self.role == STANDBY and self.standby_for:
            return self.stands_for or (self.standby_for,)
        return ()

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Seat":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(**{**d, "powers": tuple(d.get("powers") or ()), "stands_for": tuple(d.get("stands_for") or ())})


@dataclass(frozen=True)
class OrderSet:
    """A power's set of orders on record for the current phase (the last it submitted)."""

    seq: int  # the ledger entry that records it
    number: int  # the power's own submission number in this phase (its receipt's number)
    power: str
    author: str  # player or standby
    orders: tuple[str, ...]
    conditional: str | None
    channel: str
    entered_by: str
    commitment: str
    at: str  # ledger time
    condition: str | None = None  # conditional orders installed: the condition that chose them
    filed_phase: str | None = None  # ... and the phase they were filed with

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "OrderSet":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(**{**d, "orders": tuple(d["orders"])})


@dataclass(frozen=True)
class Pending:
    """Conditional orders for a later phase, filed with a phase since adjudicated: chosen when their phase opens."""

    power: str
    filed_phase: str
    phase: str  # the phase they are for
    section: JSONObject  # rules.conditional.Section.to_dict(), as the ledger records it
    succeeded: tuple[str, ...]  # the filing phase's orders that succeeded (canonical)
    dislodged: tuple[str, ...]  # ... and the units it dislodged
    centres: Mapping[str, str]  # supply centre -> owner when they were filed

    @property
    def target(self) -> Phase:
        """The phase they are for, as a value."""
        return Phase.parse(self.phase)

    def facts(self, centres_now: Mapping[str, str]) -> Facts:
        """What their conditions are tested on, with the supply centres as they stand now."""
        return Facts(frozenset(self.succeeded), frozenset(self.dislodged), self.centres, centres_now)

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Pending":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(**{**d, "succeeded": tuple(d["succeeded"]), "dislodged": tuple(d["dislodged"]),
                      "centres": dict(d["centres"])})


def owners(position_doc: Mapping[str, JSONValue]) -> dict[str, str]:
    """Supply centre -> owner, from a position as recorded."""
    centres = position_doc.get("centers")
    return {str(c): power for power, cs in (centres.items() if isinstance(centres, dict) else ())
            if isinstance(cs, list) for c in cs}


@dataclass(frozen=True)
class Seeking:
    """Whether a forming game is open to players with accounts, and how their powers are given (gm.joining)."""

    open: bool = False
    seats: str = "lot"  # lot: drawn when the game starts; choice: each player chooses on joining
    choices: Mapping[int, str] = field(default_factory=dict)  # player number -> the power chosen

    @classmethod
    def read(cls, doc: SeekingDoc) -> "Seeking":
        """From the state's record of the GM's last word (`GameState.seeking`)."""
        return cls(bool(doc.get("open")), doc.get("seats") or "lot",
                   {int(n): p for n, p in (doc.get("choices") or {}).items()})


class SeekingDoc(TypedDict, total=False):
    """`GameState.seeking` as recorded: the GM's last word on players with accounts (see `Seeking`)."""

    open: bool
    seats: str
    choices: dict[str, str]  # player number (as text) -> the power chosen


class CoinTossDoc(TypedDict, total=False):
    """`GameState.coin_toss` as recorded: the set-up's toss (two players, rulebook XIV.2); empty before it."""

    power: str  # the power the toss gives
    winner: list[str]  # the powers of the side that won
    name: str  # that side's name
    joins: str  # the phase the power joins it in
    joined: bool


class AwaitingDoc(TypedDict, total=False):
    """`GameState.awaiting` as recorded: a phase waiting for the GM's decision; empty when none is."""

    seq: int  # the gm-action entry that said so
    phase: str
    removals: dict[str, int]  # power -> removals the GM is to choose for it (seed 004 s24, Armageddonia)


class BotsDoc(TypedDict, total=False):
    """`GameState.bots` as recorded: the powers open to DAIDE bots and whether they stand in (gm.bots)."""

    open: list[str]
    civil_disorder: bool


@dataclass(frozen=True)
class Question:
    """A player's question to the gamesmaster (a letter to GM), and the press items that answer it."""

    id: int
    power: str
    press: int  # the press item that asks it
    phase: str | None
    answers: tuple[int, ...] = ()  # the press items that answer it
    public: tuple[bool, ...] = ()  # ... and whether each went to everyone

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Question":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(**{**d, "answers": tuple(d["answers"]), "public": tuple(d["public"])})


@dataclass(frozen=True)
class Proposal:
    """A draw or concession put to the vote of the surviving powers."""

    id: int
    kind: str  # draw or concession
    phase: str
    proposer: str
    powers: tuple[str, ...]
    votes: Mapping[str, bool]
    status: str  # open, passed, rejected, lapsed
    at: str

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Proposal":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(**{**d, "powers": tuple(d["powers"]), "votes": dict(d["votes"])})


@dataclass(frozen=True)
class Standing:
    """A power's supply centres and units when the game ended."""

    centres: int
    units: int


@dataclass(frozen=True)
class Ending:
    """How the game ended: a victory, a short game, a draw or a concession."""

    kind: str
    winners: tuple[str, ...]
    phase: str
    reason: str
    at: str
    summary: Mapping[str, Standing] = field(default_factory=dict)
    # The last phase adjudicated when the game ended ("" when none was; None in records from before
    # it was kept). `phase` is the phase open then: a draw agreed in Fall 1902 ends it after Spring 1902.
    played: str | None = None
    scores: Mapping[str, float] = field(default_factory=dict)  # under the game's scoring system (none: empty)

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Ending":
        """Read to_dict's form (and the game-ended entry's payload)."""
        d = _fields(doc)
        summary = {p: Standing(int(s["centres"]), int(s["units"])) for p, s in (d.get("summary") or {}).items()}
        played = (d["played"] or "") if "played" in d else None
        scores = {p: float(v) for p, v in (d.get("scores") or {}).items()}
        return cls(d["kind"], tuple(d["winners"]), d["phase"], d["reason"], d["at"], summary, played, scores)

    @property
    def headline(self) -> str:
        """The result in a few words: 'France wins', 'a draw between England, France'."""
        winners = ", ".join(p.capitalize() for p in self.winners)
        wins = "wins" if len(self.winners) == 1 else "win"
        return {"victory": f"{winners} {wins}", "short-game": f"{winners} {wins} the short game",
                "draw": f"a draw between {winners}", "concession": f"conceded to {winners}"}.get(self.kind, self.kind)


@dataclass(frozen=True)
class Live:
    """A live club game's table: the period lengths and where the table is."""

    config: LiveConfig
    state: LiveState

    def to_dict(self) -> JSONObject:
        """JSON for the snapshot."""
        return {"config": self.config.to_dict(), "state": self.state.to_dict()}

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "Live":
        """Read to_dict's form."""
        d = _fields(doc)
        return cls(LiveConfig.from_dict(d["config"]), LiveState.from_dict(d["state"]))


@dataclass(frozen=True)
class GameState:
    """Everything the ledger says about a game up to one entry."""

    id: str
    title: str
    variant_name: str
    rules_spec: str | JSONObject | None  # the rules as recorded: a preset name or {"preset": ..., option: value} (settings.RuleSpec)
    settings: Settings
    created: str
    start_position: JSONObject | None = None  # a custom starting position, as recorded (see `start`)
    status: str = "forming"  # forming, active, paused, finished
    phase: str | None = None
    position_doc: JSONObject | None = None  # the current phase's position as recorded (see `position`)
    deadline: str | None = None  # ISO time, UTC
    paused_remaining: float | None = None  # seconds left when paused
    grace_used: bool = False  # the NMR grace period of this movement phase is spent
    deadlock_year: int | None = None  # a deadlock waits for the GM's ruling
    live: Live | None = None
    seats: tuple[Seat, ...] = ()
    orders: tuple[OrderSet, ...] = ()  # on record for the current phase
    counts: Mapping[str, int] = field(default_factory=dict)  # submissions per power in the current phase
    pending: tuple[Pending, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    questions: tuple[Question, ...] = ()
    spring_centres: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)  # year -> centres
    published: int = 0  # phases published (current revisions)
    last_published: int | None = None  # the ledger entry that published the last phase
    phase_opened: int = 0  # the ledger entry that opened the current phase
    press_count: int = 0
    result: Ending | None = None
    head_seq: int = 0
    head_hash: str = ""
    public_seq: int = 0  # the last entry anyone may see: where the last results were published
    public_hash: str = ""
    # Seats open to DAIDE bots, as the GM last set them (gm.bots): {"open": [powers], "civil_disorder": bool}.
    bots: BotsDoc = field(default_factory=lambda: BotsDoc())
    # The coin toss of a set-up that has one (two players, XIV.2): {"power", "winner" (the
    # powers of the side that won), "name", "joins" (phase), "joined"}; empty before the toss.
    coin_toss: CoinTossDoc = field(default_factory=lambda: CoinTossDoc())
    # The powers in civil disorder at the last movement deadline (rulebook XIV.3: under
    # missed_move = "season" they stay in it for that season's retreats and adjustments).
    disorder: tuple[str, ...] = ()
    # Accounts holding seats, by player number (as text), from `seat-claimed` entries: {"3": account ref}.
    claims: Mapping[str, str] = field(default_factory=dict)
    # Open to players with accounts, as the GM last set it: {"open": bool, "seats": "lot"|"choice",
    # "choices": {player number: power}} (gm.joining; see `joining`).
    seeking: SeekingDoc = field(default_factory=lambda: SeekingDoc())
    # The phase waits for the GM to decide (a civil-disorder power's removals left to the GM's judgment).
    awaiting: AwaitingDoc = field(default_factory=lambda: AwaitingDoc())
    # A conditional plan filed and not yet taken up by its submission (the entry after it): digest -> text
    # (gm.plans); and the plans read at a deadline, until the results take them up: power -> plan.
    filed_plans: Mapping[str, str] = field(default_factory=dict)
    plans_read: Mapping[str, JSONObject] = field(default_factory=dict)
    # Whether every action by a seat must carry a proof of a key on the record (games created since keys).
    keyed: bool = False
    # The keys seats prove their actions with, by id (gm.keys).
    keys: Mapping[str, KeyOnRecord] = field(default_factory=dict)
    # Sets of orders their players said on the record they did not send.
    disputes: tuple[Dispute, ...] = ()

    # -- derived values ------------------------------------------------------------------------

    @cached_property
    def variant(self) -> Variant:
        """The game's map and powers."""
        return load_variant(self.variant_name)

    @cached_property
    def options(self) -> RuleOptions:
        """The rule options the game is played by."""
        return load_rules(self.rules_spec, default=self.variant.default_rules)

    @property
    def published_version(self) -> tuple[str, int]:
        """What moves whenever the published record does (phases, the position, the rules): the public head, and
        the phases published (an adjudicated phase counts at once; the entry opening the next one publishes it)."""
        return self.public_hash, self.published

    @cached_property
    def position(self) -> Position | None:
        """The position of the current phase (None before the game starts)."""
        return Position.from_dict(self.variant, self.position_doc) if self.position_doc else None

    @property
    def start(self) -> Position | None:
        """The custom starting position, if the game has one."""
        return Position.from_dict(self.variant, self.start_position) if self.start_position else None

    @property
    def joining(self) -> Seeking:
        """Whether the game is open to players with accounts, and how their powers are given."""
        return Seeking.read(self.seeking)

    @property
    def deadline_at(self) -> datetime | None:
        """The deadline as a datetime."""
        return datetime.fromisoformat(self.deadline) if self.deadline else None

    @property
    def phase_value(self) -> Phase | None:
        """The current phase as a value."""
        return Phase.parse(self.phase) if self.phase else None

    def seat(self, number: int) -> Seat | None:
        """The seat with this player number."""
        return self.seats[number - 1] if 1 <= number <= len(self.seats) else None

    def holder(self, power: str) -> Seat | None:
        """The player who plays a power."""
        return next((s for s in self.seats if s.role == PLAYER and power in s.powers), None)

    def sides(self) -> tuple[Side, ...]:
        """Who wins or loses together: each player's powers, then every power nobody plays on its own."""
        return sides_of(self.variant, [s.powers for s in self.seats if s.role == PLAYER and s.powers])

    def standby_for(self, power: str) -> Seat | None:
        """The stand-by called for a power (for the whole seat it belongs to)."""
        return next((s for s in self.seats if s.role == STANDBY and power in s.acts_for()), None)

    def seat_named(self, name: str) -> Seat | None:
        """A current player or stand-by by name (any case)."""
        key = " ".join(name.split()).lower()
        return next((s for s in self.seats if s.name.lower() == key and s.role != FORMER), None)

    def order_set(self, power: str, author: str = PLAYER) -> OrderSet | None:
        """The set on record for a power from its player or its stand-by."""
        return next((o for o in self.orders if o.power == power and o.author == author), None)

    # -- JSON ------------------------------------------------------------------------------------

    def to_dict(self) -> JSONObject:
        """The state as JSON (the snapshot the store keeps)."""
        doc: JSONObject = {}
        for name in _SNAPSHOT_FIELDS:
            value = self._field_doc(name)
            if value is not _OMITTED:
                doc[name] = cast(JSONValue, value)  # anything but the marker is _plain's JSON
        return doc

    def _field_doc(self, name: str) -> JSONValue | object:
        """One field as the snapshot writes it, or _OMITTED if the snapshot leaves it out."""
        value = getattr(self, name)
        if name == "settings":
            return self.settings.to_dict()
        if name == "live":
            return self.live.to_dict() if self.live else None
        doc = _plain(value)
        if name in _OMITTED_EMPTY and not doc:
            return _OMITTED  # written only once used, so the snapshots of older games stay as they were
        if name == "result" and isinstance(doc, dict) and self.result is not None:
            if self.result.played is None:
                del doc["played"]  # an ending recorded before the phase played was kept reads as it did
            if not self.result.scores:
                del doc["scores"]  # and so does an ending with no scoring system
        return doc

    def snapshot_text(self) -> str:
        """`canonical(self.to_dict())`, written field by field, each field's text kept for the states `evolve`
        makes from this one while the field is unchanged (the store writes a game's snapshot on every change:
        a set of orders changes one field of thirty)."""
        texts: dict[str, str] = self.__dict__.setdefault(_TEXTS, {})
        parts = []
        for name in _SNAPSHOT_FIELDS:
            text = texts.get(name)
            if text is None:
                doc = self._field_doc(name)
                text = texts[name] = "" if doc is _OMITTED else f"{canonical(name)}:{canonical(doc)}"
            if text:
                parts.append(text)
        return "{" + ",".join(parts) + "}"

    def texts_from(self, older: "GameState | None") -> "GameState":
        """This state, given the written texts (snapshot_text) an older state of the game kept for every field
        equal in both: a state read from the store then writes again only what changed since that one (the
        other web process's changes make most of a process's states so)."""
        texts = older.__dict__.get(_TEXTS) if older is not None and older.id == self.id else None
        if texts:
            mine: dict[str, str] = self.__dict__.setdefault(_TEXTS, {})
            for name, text in texts.items():
                if name not in mine and getattr(self, name) == getattr(older, name):
                    mine[name] = text
        return self

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "GameState":
        """Read to_dict's form."""
        d = _fields(doc)
        d["settings"] = Settings.from_dict(d["settings"])
        d["live"] = Live.from_dict(d["live"]) if d.get("live") else None
        d["seats"] = tuple(Seat.from_dict(s) for s in d.get("seats", ()))
        d["orders"] = tuple(OrderSet.from_dict(o) for o in d.get("orders", ()))
        d["pending"] = tuple(Pending.from_dict(p) for p in d.get("pending", ()))
        d["proposals"] = tuple(Proposal.from_dict(p) for p in d.get("proposals", ()))
        d["questions"] = tuple(Question.from_dict(q) for q in d.get("questions", ()))
        d["spring_centres"] = {y: {p: tuple(cs) for p, cs in v.items()} for y, v in d.get("spring_centres", {}).items()}
        d["result"] = Ending.from_dict(d["result"]) if d.get("result") else None
        d["disorder"] = tuple(d.get("disorder") or ())
        d["keys"] = {k: KeyOnRecord.from_dict(v) for k, v in (d.get("keys") or {}).items()}
        d["disputes"] = tuple(Dispute.from_dict(x) for x in d.get("disputes") or ())
        return cls(**d)

    def evolve(self, **changes: Any) -> "GameState":  # Any: the changes are the fields', of their own types
        """A copy with some fields changed (keeping the values derived from fields that did not)."""
        new = replace(self, **changes)
        texts = self.__dict__.get(_TEXTS)
        if texts:
            new.__dict__[_TEXTS] = {k: v for k, v in texts.items() if k not in changes}
        kept = {"variant": ("variant_name",), "options": ("variant_name", "rules_spec"),
                "position": ("variant_name", "position_doc")}
        for name, inputs in kept.items():
            if name in self.__dict__ and not any(i in changes for i in inputs):
                new.__dict__[name] = self.__dict__[name]
        return new


_OMITTED = object()  # a field the snapshot leaves out
_TEXTS = "_snapshot_texts"  # where a state keeps its fields' written texts (see snapshot_text)
_OMITTED_EMPTY = ("claims", "seeking", "awaiting", "filed_plans", "plans_read", "keyed", "keys", "disputes")
# The snapshot's fields in its written order (canonical JSON sorts keys).
_SNAPSHOT_FIELDS = tuple(sorted(f.name for f in fields(GameState)))


def replace_seat(seats: Iterable[Seat], number: int, **changes: Any) -> tuple[Seat, ...]:  # Any: as in evolve
    """The seats with one of them changed."""
    return tuple(replace(s, **changes) if s.number == number else s for s in seats)
