"""The ledger's events as types: one frozen value per kind of entry.

Every entry the gamesmaster writes is one of these. `to_payload()` is the JSON the entry
holds, key for key as the ledger has always held it (a field left `ABSENT` is a key the
payload omits, which is not the same as a null it writes), so every hash, receipt and
archive made before the events had types still verifies; `from_payload()` reads it
back, and refuses with an `EventError` what is no such event. `parse_event(entry)` gives
an entry's event, found by its kind (and a GM action by its `action`).

An event built in code normalises itself on construction (`Payload.__post_init__`): each field
becomes the very value its payload reads back as (tuples for lists, kinds for their words, an
object's keys in the written order, ...), or the construction fails with an `EventError`. So
`Transaction.record` folds the event it was given without reading its entry back, and the state
it leaves is the one every later fold of the ledger makes (tests/gm/test_event_forms.py holds
every class to that).

The fold, `verify` and the record's wording each keep a table of handlers keyed by the
event's class, checked at import against `EVENTS` (`check_handled`): a kind written
without its fold, its audit or its description stops the program starting, and
`Transaction.record` refuses an event whose class is not registered here.
"""

from __future__ import annotations

import types
from collections import abc
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum, StrEnum
from typing import (Any, Callable, ClassVar, Literal, Mapping, NamedTuple, Self, Sequence, Union, cast, get_args,
                    get_origin, get_type_hints)

from ..ledger import Entry, JSONObject, JSONValue
from ..rules.adjudication import Outcome
from ..rules.verdicts import FAILS, INVALID, SUCCEEDS, Verdict
from .views import OrderResult


class EventKind(StrEnum):
    """Every kind of ledger entry (the entry's `kind`, as written)."""

    GAME_CREATED = "game-created"
    PLAYER_JOINED = "player-joined"
    CREDENTIAL_REPLACED = "credential-replaced"
    SEAT_CLAIMED = "seat-claimed"
    LOTS_DRAWN = "lots-drawn"
    POWERS_ASSIGNED = "powers-assigned"
    GAME_STARTED = "game-started"
    ORDERS_SUBMITTED = "orders-submitted"
    ORDERS_WITHDRAWN = "orders-withdrawn"
    ORDERS_REFUSED = "orders-refused"
    CONDITIONAL_CHOSEN = "conditional-chosen"
    PLAN_FILED = "plan-filed"
    PLAN_READ = "plan-read"
    READY = "ready"
    DEADLINE_CLOSED = "deadline-closed"
    PHASE_ADJUDICATED = "phase-adjudicated"
    CORRECTION = "correction"
    PHASE_OPENED = "phase-opened"
    GAME_ENDED = "game-ended"
    GM_ACTION = "gm-action"
    STANDBY_CALLED = "standby-called"
    STANDBY_RELEASED = "standby-released"
    PLAYER_REPLACED = "player-replaced"
    PLAYER_RESIGNED = "player-resigned"
    COIN_TOSSED = "coin-tossed"
    POWER_JOINED = "power-joined"
    PRESS = "press"
    DRAW_PROPOSED = "draw-proposed"
    DRAW_VOTE = "draw-vote"
    DRAW_RESULT = "draw-result"
    LIVE = "live"
    KEY_ADDED = "key-added"
    SET_DISPUTED = "set-disputed"
    LEAGUE_ADDED = "league-added"


class GMActionKind(StrEnum):
    """What a GM action did (its `action`): each is an event class of its own."""

    GRACE = "grace"
    EXTEND = "extend"
    PAUSE = "pause"
    RESUME = "resume"
    AWAITING_REMOVALS = "awaiting-removals"
    DEADLOCK = "deadlock"
    CIVIL_DISORDER = "civil-disorder"
    SEATS_OPEN = "seats-open"
    BOTS = "bots"
    DECLARE_DRAW = "declare-draw"


class ResultKind(StrEnum):
    """What became of an order, as the record writes it: the kind of the adjudicator's verdict (its `RESULT`)."""

    SUCCEEDS = SUCCEEDS
    FAILS = FAILS
    INVALID = INVALID

    @classmethod
    def of(cls, verdict: Verdict) -> "ResultKind":
        """The result a verdict's type gives."""
        return cls(verdict.RESULT)


class RefusalCause(StrEnum):
    """Why orders were refused, in terms verify checks against the ledger."""

    PUBLISHED_EARLY = "published-early"  # a revision for a phase published as soon as every power had ordered
    OTHER_PHASE = "other-phase"  # the orders named another phase than the one open
    WRITTEN_EARLIER = "written-earlier"  # written for a phase adjudicated before they came
    LATE = "late"  # after the deadline


class EndingKind(StrEnum):
    """How a game ended."""

    VICTORY = "victory"
    SHORT_GAME = "short-game"  # the agreed last year played out: the most centres win
    DRAW = "draw"
    CONCESSION = "concession"


class ProposalKind(StrEnum):
    """What a proposal to end the game proposes."""

    DRAW = "draw"
    CONCESSION = "concession"


class VoteOutcome(StrEnum):
    """How a proposal's vote ended (a vote still open is not on the record)."""

    PASSED = "passed"
    REJECTED = "rejected"


class Absent(Enum):
    """The value of a field whose key the payload leaves out (a null it writes is None)."""

    ABSENT = "absent"

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        """False, like the None or empty value a missing key stood for when payloads were read with .get()."""
        return False


ABSENT: Literal[Absent.ABSENT] = Absent.ABSENT


# A part of a payload the record holds as JSON of any form (a position, a proof, a plan): read as it is.
Json = Any
JsonObject = dict[str, Any]


class EventError(ValueError):
    """A payload that is no event of its kind; the message names the kind and what is wrong."""


def optional() -> Any:
    """A field a payload may leave out (ABSENT when it does)."""
    return field(default=ABSENT)


# -- reading and writing fields ------------------------------------------------------------------------------


def _plain(value: Any, where: str = "a value") -> JSONValue:
    """A value as its written JSON reads back: tuples as lists, kinds as their words, values as their own payloads,
    an object's keys as text and in order (EventError, naming `where`, for what JSON cannot hold)."""
    kind = type(value)  # the exact types first: every payload is made of them, and this is on every write
    if kind in _SCALARS:
        return cast(JSONValue, value)
    if kind is list or kind is tuple:
        return [_plain(v, where) for v in value]
    if kind is dict:
        return {k: _plain(v, where) for k, v in _in_order(value)}
    if isinstance(value, Enum):
        return _plain(value.value, where)
    if isinstance(value, (tuple, list)):
        return [_plain(v, where) for v in value]
    if isinstance(value, Payload):
        return dict(sorted(value.to_payload().items()))
    if isinstance(value, abc.Mapping):
        return {k: _plain(v, where) for k, v in _in_order(value)}
    for simple in (int, float, str):  # a subclass is written as the plain value it holds
        if isinstance(value, simple):
            return cast(JSONValue, simple(value))
    raise EventError(f"{where} holds {_shown(value)}, which JSON cannot hold")


_SCALARS = frozenset({type(None), str, int, float, bool})


def _in_order(mapping: abc.Mapping[Any, Any]) -> list[tuple[str, Any]]:
    """A mapping's items as its JSON object is read back: keys as text, sorted (canonical JSON sorts them; the keys
    are unlike, so no two values are ever compared)."""
    if all(type(k) is str for k in mapping):
        return sorted(mapping.items())
    return sorted({str(k): v for k, v in mapping.items()}.items())


class Reader(NamedTuple):
    """How a field of one type is read from JSON (the types it takes, then `read`) and normalised from code values."""

    taken: frozenset[type]
    read: Callable[[Any, str], Any]
    normal: Callable[[Any, str], Any]  # a code value made the one its JSON reads back as (both: EventError if none)


_ANY_JSON = frozenset({type(None), bool, int, float, str, list, dict})
_SIMPLE: dict[Any, frozenset[type]] = {type(None): frozenset({type(None)}), bool: frozenset({bool}),
                                      int: frozenset({int}), float: frozenset({int, float}), str: frozenset({str})}


def _as_is(value: Any, where: str) -> Any:
    return value  # a whole number read as a number stays one, so that it is written back as it was


def _kept(kept: frozenset[type], taken: frozenset[type], read: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    """A normaliser that keeps a value of a type in `kept` as it is, and reads any other as its JSON would be read."""
    def normal(value: Any, where: str) -> Any:
        if type(value) in kept:
            return value
        return _checked(_plain(value, where), taken, read, where)
    return normal


def _reader(hint: Any) -> Reader:
    """How a field of this type is read from JSON and normalised from code, worked out once for its class."""
    origin = get_origin(hint)
    if hint is Any or hint is object or hint == JSONValue:
        return Reader(_ANY_JSON, _as_is, _plain)
    if hint in _SIMPLE:
        return Reader(_SIMPLE[hint], _as_is, _kept(_SIMPLE[hint], _SIMPLE[hint], _as_is))
    if origin is Union or origin is types.UnionType:
        options = [_reader(option) for option in get_args(hint) if option is not Absent]
        taken = frozenset().union(*(option.taken for option in options))

        def either(value: Any, where: str) -> Any:
            for option in options:
                if type(value) in option.taken:
                    return option.read(value, where)
            raise EventError(f"{where} is {_shown(value)}, not {_hint_words(hint)}")

        def either_normal(value: Any, where: str) -> Any:
            for option in options:  # a value of a JSON type goes to the option that reads that type
                if type(value) in option.taken:
                    return option.normal(value, where)
            return _checked(_plain(value, where), taken, either, where)
        return Reader(taken, either, either_normal)
    if isinstance(hint, type) and issubclass(hint, Enum):
        def member(value: Any, where: str) -> Any:
            try:
                return hint(value)
            except ValueError:
                raise EventError(f"{where} is {_shown(value)}, not {_hint_words(hint)}") from None
        return Reader(frozenset({str}), member, _kept(frozenset({hint}), frozenset({str}), member))
    if isinstance(hint, type) and issubclass(hint, Payload):
        def payload(value: Any, where: str) -> Any:
            return hint.from_payload(value, parsed=True)  # the whole payload is JSON as read by now
        return Reader(frozenset({dict}), payload, _kept(frozenset({hint}), frozenset({dict}), payload))
    if origin in (tuple, abc.Sequence):
        item = _reader(get_args(hint)[0])
        plain = item.read is _as_is  # items kept as they are, once of a type the item takes (the orders' texts)

        def listed(value: Any, where: str) -> Any:
            if plain and all(type(v) in item.taken for v in value):
                return tuple(value)
            return tuple(_checked(v, item.taken, item.read, f"{where}[{n}]") for n, v in enumerate(value))

        def listed_normal(value: Any, where: str) -> Any:
            if type(value) in (tuple, list):
                if plain and all(type(v) in item.taken for v in value):
                    return value if type(value) is tuple else tuple(value)
                return tuple(item.normal(v, where) for v in value)
            return _checked(_plain(value, where), frozenset({list}), listed, where)
        return Reader(frozenset({list}), listed, listed_normal)
    if origin in (dict, abc.Mapping):
        of = _reader(get_args(hint)[1])
        if of.read is _as_is and of.taken is _ANY_JSON:
            return Reader(frozenset({dict}), _as_is, _kept(frozenset(), frozenset({dict}), _as_is))

        def keyed(value: Any, where: str) -> Any:
            return {k: _checked(v, of.taken, of.read, f"{where}[{k!r}]") for k, v in value.items()}

        def keyed_normal(value: Any, where: str) -> Any:
            if isinstance(value, abc.Mapping):
                return {k: of.normal(v, where) for k, v in _in_order(value)}
            return _checked(_plain(value, where), frozenset({dict}), keyed, where)
        return Reader(frozenset({dict}), keyed, keyed_normal)
    if origin is Literal:
        allowed = get_args(hint)

        def one_of(value: Any, where: str) -> Any:
            if value not in allowed:
                raise EventError(f"{where} is {_shown(value)}, not one of {', '.join(map(repr, allowed))}")
            return value
        taken = frozenset(type(a) for a in allowed)
        return Reader(taken, one_of, _kept(frozenset(), taken, one_of))
    raise TypeError(f"no reader for a field of type {hint!r}")  # a new event's field: give it one above


def _checked(value: Any, taken: frozenset[type], read: Callable[[Any, str], Any], where: str) -> Any:
    """A value read by its field's reader, once its JSON type is one the field takes."""
    if type(value) not in taken:
        raise EventError(f"{where} is {_shown(value)}, not {_words(taken)}")
    return read(value, where)


def _words(taken: frozenset[type]) -> str:
    names = {type(None): "null", bool: "true or false", int: "a whole number", float: "a number", str: "text",
             list: "a list", dict: "an object"}
    if taken == frozenset({int, float}):
        return "a number"
    return " or ".join(names[t] for t in names if t in taken and not (t is int and float in taken))


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _hint_words(hint: Any) -> str:
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "one of " + ", ".join(repr(m.value) for m in hint)
    return _words(_reader(hint)[0])


class Payload:
    """A value written as a JSON object, one key a field (ABSENT fields left out); `OPEN` ones keep other keys in `more`."""

    OPEN: ClassVar[bool] = False
    NAME: ClassVar[str] = "payload"  # what an error calls it

    def __post_init__(self) -> None:
        """Make each field the very value its payload reads back as (EventError where none would read back)."""
        # Transaction.record folds the event it was built as: it must be what every later fold reads from the ledger.
        schema, names = _schema(type(self))
        for name, required, reader, where in schema:
            value = getattr(self, name)
            if value is ABSENT:
                if required:
                    raise EventError(f"{self.NAME} lacks its {name!r}: it is ABSENT")
                continue
            normal = reader.normal(value, where)
            if normal is not value:
                object.__setattr__(self, name, normal)
        if self.OPEN:
            more = _plain(getattr(self, "more"), f"{self.NAME}'s more")
            if not isinstance(more, dict) or names & more.keys():
                raise EventError(f"{self.NAME}'s more is {_shown(more)}, not an object of keys other than its fields'")
            object.__setattr__(self, "more", more)

    def to_payload(self) -> JSONObject:
        """The JSON object this value is written as."""
        out: JSONObject = {}
        for name, _, _, _ in _schema(type(self))[0]:
            value = getattr(self, name)
            if value is not ABSENT:
                out[name] = _plain(value)
        if self.OPEN:
            out.update(getattr(self, "more"))
        return out

    @classmethod
    def from_payload(cls, payload: object, *, parsed: bool = False) -> Self:
        """Read to_payload's form back; EventError names a missing, unknown or ill-typed key.

        parsed: the payload is JSON just parsed from an entry's canonical text, already in the form the fields take;
        any other (a payload made in code) is first made that JSON (tuples as lists, keys in order, ...)."""
        if not parsed:
            payload = _plain(payload, cls.NAME)
        if not isinstance(payload, dict):
            raise EventError(f"{cls.NAME} is {_shown(payload)}, not an object")
        schema, names = _schema(cls)
        values: dict[str, Any] = {}
        for name, required, (taken, read, _), where in schema:
            if name in payload:
                values[name] = _checked(payload[name], taken, read, where)
            elif required:
                raise EventError(f"{cls.NAME} lacks its {name!r}")
            else:
                values[name] = ABSENT
        extra = {k: v for k, v in payload.items() if k not in names}
        if cls.OPEN:
            values["more"] = extra
        elif extra:
            named = sorted(extra)
            raise EventError(f"{cls.NAME} has keys it does not take: {', '.join(k[:40] + '...' * (len(k) > 40) for k in named[:5])}"
                             + (f" and {len(named) - 5} more" if len(named) > 5 else ""))
        # What a reader gives of JSON as read is already the normal form (what __post_init__ makes of a value): the
        # value is made without the constructor, so that a fold does not walk every payload a second time.
        made = object.__new__(cls)
        made.__dict__.update(values)
        return made


Schema = tuple[tuple[tuple[str, bool, Reader, str], ...], frozenset[str]]
_SCHEMAS: dict[type, Schema] = {}


def _schema(cls: type) -> Schema:
    """A class's fields, each with whether the payload must have it, how it is read and what an error calls it; and
    their names (worked out once: every entry a fold reads goes through them)."""
    if cls not in _SCHEMAS:
        hints = get_type_hints(cls)
        for f in fields(cls):
            if f.name != "more" and f.default not in (MISSING, ABSENT):
                # from_payload makes a value without the constructor: a key left out can only mean ABSENT
                raise TypeError(f"{cls.__name__}.{f.name}: a field's default must be ABSENT (optional())")
        _SCHEMAS[cls] = (tuple((f.name, f.default is MISSING and f.default_factory is MISSING, _reader(hints[f.name]),
                                f"{getattr(cls, 'NAME')}'s {f.name!r}") for f in fields(cls) if f.name != "more"),
                         frozenset(f.name for f in fields(cls)))
    return _SCHEMAS[cls]


# -- the events --------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Event(Payload):
    """One ledger entry's meaning; each kind is a subclass with its KIND and typed fields."""

    KIND: ClassVar[EventKind]
    SIGNED: ClassVar[bool] = False  # a seat's act, proved with one use of a key of the seat when `by` names a player
    PUBLISHES: ClassVar[bool] = False  # everything up to it is public (private letters sealed)
    PHASE_PRIVATE: ClassVar[bool] = False  # sealed on the public record until its phase is published

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "KIND" in cls.__dict__:
            cls.NAME = f"a {cls.KIND} entry"


@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    """The game set up: its title, variant, rules, settings and any starting position."""

    KIND = EventKind.GAME_CREATED
    title: str
    variant: str
    rules: Json
    rule_options: JsonObject = optional()
    settings: JsonObject
    position: JsonObject | None = optional()
    keys: str | Absent = optional()
    id: str | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    """A seat taken: its player's number, name, role and credential's fingerprint."""

    KIND = EventKind.PLAYER_JOINED
    player: int
    name: str
    role: str
    rank: int | None | Absent = optional()
    powers: tuple[str, ...] | None | Absent = optional()
    key: str
    credential_key: JsonObject | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class CredentialReplaced(Event):
    """A seat's credential issued again (the old one, and every key it proved, no longer counts)."""

    KIND = EventKind.CREDENTIAL_REPLACED
    player: int
    name: str
    key: str
    reason: str | Absent = optional()
    credential_key: JsonObject | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class SeatClaimed(Event):
    """An account's claim on a seat, proved by the seat's credential."""

    KIND = EventKind.SEAT_CLAIMED
    SIGNED = True
    player: int
    name: str
    account: str
    how: str
    power: str | Absent = optional()
    by: Json | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class LotsDrawn(Event):
    """The powers drawn by lot, with the seed that lets anyone draw them again."""

    KIND = EventKind.LOTS_DRAWN
    seed: Json
    players: tuple[str, ...]
    powers: Mapping[str, str | Sequence[str]]
    method: str
    all_powers: tuple[str | Sequence[str], ...]


@dataclass(frozen=True, kw_only=True)
class PowersAssigned(Event):
    """The powers given by the GM (or chosen by the players), by player name."""

    KIND = EventKind.POWERS_ASSIGNED
    powers: Mapping[str, str | Sequence[str]]


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """The game begun: its first phase, position and deadline."""

    KIND = EventKind.GAME_STARTED
    PUBLISHES = True
    phase: str
    position: JsonObject
    deadline: str | None = optional()


@dataclass(frozen=True, kw_only=True)
class PowerOrders(Event):
    """What a power's author does with its set of orders: who, for which phase, by which door."""

    SIGNED = True
    PHASE_PRIVATE = True
    phase: str
    power: str
    author: str
    by: Json
    channel: str
    entered_by: str


@dataclass(frozen=True, kw_only=True)
class OrdersSubmitted(PowerOrders):
    """A power's set of orders, committed to with a salt (its conditional text in a plan-filed entry before)."""

    KIND = EventKind.ORDERS_SUBMITTED
    number: int
    orders: tuple[str, ...]
    conditional: str | None
    plan: str | Absent = optional()
    salt: str
    commitment: str
    note: JsonObject | None = optional()


@dataclass(frozen=True, kw_only=True)
class OrdersWithdrawn(PowerOrders):
    """A power's orders withdrawn (it has none on file)."""

    KIND = EventKind.ORDERS_WITHDRAWN


@dataclass(frozen=True, kw_only=True)
class OrdersRefused(Event):
    """Orders refused (late, for another phase, ...), with the reason the sender was given and the cause as a word."""

    KIND = EventKind.ORDERS_REFUSED
    PHASE_PRIVATE = True
    phase: str | None
    power: str | None
    by: Json
    channel: str
    entered_by: str
    reason: str
    text: str | None
    cause: RefusalCause | Absent = optional()
    published: str | Absent = optional()  # published-early: the phase
    named: str | Absent = optional()  # other-phase: the phase the orders named
    written_at: str | Absent = optional()  # written-earlier: when, and the results they answered
    answering: Json | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class ConditionalChosen(Event):
    """Conditional orders filed earlier, read at the phase's opening: the clause that holds (None: none does)."""

    KIND = EventKind.CONDITIONAL_CHOSEN
    PHASE_PRIVATE = True
    phase: str
    power: str
    filed_phase: str
    condition: str | None
    orders: tuple[str, ...] | None


@dataclass(frozen=True, kw_only=True)
class PlanFiled(Event):
    """A conditional text filed with a set of orders (sealed until every phase it names is published)."""

    KIND = EventKind.PLAN_FILED
    phase: str
    power: str
    number: int
    conditional: str
    names: tuple[str, ...]
    salt: str


@dataclass(frozen=True, kw_only=True)
class PlanRead(Event):
    """A power's conditional orders as read at a deadline (or for a correction)."""

    KIND = EventKind.PLAN_READ
    phase: str
    power: str
    names: tuple[str, ...]
    plan: JsonObject


@dataclass(frozen=True, kw_only=True)
class Ready(Event):
    """A power says it is ready (or no longer is) for the phase to be adjudicated early."""

    KIND = EventKind.READY
    SIGNED = True
    PHASE_PRIVATE = True
    phase: str
    power: str
    ready: bool
    by: Json


@dataclass(frozen=True, kw_only=True)
class DeadlineClosed(Event):
    """A phase closed: what closed it, the set used for each power, and who was in civil disorder."""

    KIND = EventKind.DEADLINE_CLOSED
    phase: str
    trigger: str
    used: dict[str, JsonObject]
    civil_disorder: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class ResultLine(Payload):
    """One order's result as the record writes it, its result a typed value (the kind of the verdict reached)."""

    NAME = "a result"
    power: str
    text: str
    order: str | None
    result: ResultKind
    reason: str  # the verdict in words: the verdict itself is not on the record
    notes: tuple[str, ...] | Absent = optional()
    by_rule: bool | Absent = optional()

    @classmethod
    def of(cls, outcome: Outcome) -> "ResultLine":
        """An adjudicated outcome as the record writes it, its result the kind of the verdict reached."""
        line = cls.from_payload(outcome.as_dict())
        if outcome.verdict is not None and line.result is not ResultKind.of(outcome.verdict):
            raise EventError(f"{outcome!r}: its result is not its verdict's")
        return line

    @property
    def succeeded(self) -> bool:
        """Whether the order succeeded."""
        return self.result is ResultKind.SUCCEEDS

    def published(self) -> OrderResult:
        """The result as the game's published phase shows it."""
        return OrderResult.from_dict(self.to_payload())


@dataclass(frozen=True, kw_only=True)
class Adjudicated(Event):
    """What a phase's adjudication (or its correction) records: the position, orders, results and next position."""

    phase: str
    revision: int
    rules: Json
    position: JsonObject
    orders: dict[str, tuple[str, ...]]
    used: JsonObject | Absent = optional()
    civil_disorder: tuple[str, ...] | None | Absent = optional()
    results: tuple[ResultLine, ...]
    dislodged: tuple[str, ...] | Absent = optional()
    next: JsonObject
    winner: str | None | Absent = optional()
    plans: JsonObject | Absent = optional()
    removed: tuple[str, ...] | Absent = optional()

    @property
    def succeeded(self) -> tuple[str, ...]:
        """The orders that succeeded, sorted (what a conditional order's condition reads)."""
        return tuple(sorted({r.order for r in self.results if r.order and r.succeeded}))


@dataclass(frozen=True, kw_only=True)
class PhaseAdjudicated(Adjudicated):
    """A phase adjudicated and published."""

    KIND = EventKind.PHASE_ADJUDICATED
    PUBLISHES = False  # its phase-opened entry publishes


@dataclass(frozen=True, kw_only=True)
class Correction(Adjudicated):
    """A published phase adjudicated again by the GM, with the reason and what changed."""

    KIND = EventKind.CORRECTION
    PUBLISHES = True
    number: int
    reason: str
    original: JsonObject
    difference: tuple[str, ...]
    following: tuple[int, ...] | Absent = optional()
    then: Literal["stand", "withdrawn"] | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class PhaseOpened(Event):
    """A phase opened for orders, with its deadline (or the time left on a paused clock)."""

    KIND = EventKind.PHASE_OPENED
    PUBLISHES = True
    phase: str
    deadline: str | None
    paused_remaining: float | None | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class GameEnded(Event):
    """The game over: how (victory, short game, draw, concession), who, and the final board."""

    KIND = EventKind.GAME_ENDED
    PUBLISHES = True
    kind: EndingKind
    winners: tuple[str, ...]
    phase: str
    reason: str
    at: str
    summary: dict[str, dict[str, int]] | Absent = optional()
    played: str | None | Absent = optional()
    scores: dict[str, float] | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class GMAction(Event):
    """An act of the GM's on the game (each `action` its own class below)."""

    KIND = EventKind.GM_ACTION
    ACTION: ClassVar[GMActionKind]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "ACTION" in cls.__dict__:
            cls.NAME = f"a gm-action {cls.ACTION} entry"

    def to_payload(self) -> JSONObject:
        """The payload, its action first."""
        return {"action": self.ACTION.value, **super().to_payload()}

    @classmethod
    def from_payload(cls, payload: object, *, parsed: bool = False) -> Self:
        """Read the payload of this action (EventError for another action's)."""
        if not isinstance(payload, dict) or payload.get("action") != cls.ACTION:
            raise EventError(f"{cls.NAME}'s action is {_shown(payload.get('action') if isinstance(payload, dict) else payload)}")
        return super().from_payload({k: v for k, v in payload.items() if k != "action"}, parsed=parsed)


@dataclass(frozen=True, kw_only=True)
class Grace(GMAction):
    """The grace period given: some powers had sent no orders by the deadline."""

    ACTION = GMActionKind.GRACE
    phase: str
    missing: tuple[str, ...]
    deadline: str


@dataclass(frozen=True, kw_only=True)
class Extended(GMAction):
    """The deadline moved by the GM."""

    ACTION = GMActionKind.EXTEND
    phase: str | None
    old: str
    new: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Paused(GMAction):
    """The game paused, with the time that was left."""

    ACTION = GMActionKind.PAUSE
    phase: str | None
    remaining_seconds: float | None
    reason: str


@dataclass(frozen=True, kw_only=True)
class Resumed(GMAction):
    """The game resumed, with its new deadline."""

    ACTION = GMActionKind.RESUME
    phase: str | None
    deadline: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class AwaitingRemovals(GMAction):
    """The phase waits for the GM to choose the removals the rule set leaves to the GM."""

    ACTION = GMActionKind.AWAITING_REMOVALS
    phase: str
    removals: dict[str, int]


@dataclass(frozen=True, kw_only=True)
class Deadlock(GMAction):
    """No centre has changed hands for the years the deadlock rule counts."""

    ACTION = GMActionKind.DEADLOCK
    years: int
    phase: str | None
    year: int


@dataclass(frozen=True, kw_only=True)
class CivilDisorder(GMAction):
    """A power in civil disorder for a phase (its player's count of missed phases)."""

    ACTION = GMActionKind.CIVIL_DISORDER
    phase: str
    power: str
    player: int
    name: str
    missed: int


@dataclass(frozen=True, kw_only=True)
class SeatsOpen(GMAction):
    """The game's seats opened to (or closed on) players joining, and how powers are given."""

    ACTION = GMActionKind.SEATS_OPEN
    open: bool
    seats: str | None | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class BotsAllowed(GMAction):
    """The powers DAIDE bots may play, and whether bots stand in for civil disorder."""

    ACTION = GMActionKind.BOTS
    open: tuple[str, ...]
    civil_disorder: bool
    reason: str | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class DrawDeclared(GMAction):
    """The GM declares a draw (the game-ended entry follows)."""

    ACTION = GMActionKind.DECLARE_DRAW
    powers: tuple[str, ...]
    reason: str


@dataclass(frozen=True, kw_only=True)
class StandbyCalled(Event):
    """A stand-by (or a bot) asked to order for a power in civil disorder."""

    KIND = EventKind.STANDBY_CALLED
    power: str
    powers: tuple[str, ...] | Absent = optional()
    standby: int
    name: str
    player: int
    phase: str | None
    bot: bool | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class StandbyReleased(Event):
    """A stand-by no longer orders for a power."""

    KIND = EventKind.STANDBY_RELEASED
    power: str
    powers: tuple[str, ...] | Absent = optional()
    standby: int
    name: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class PlayerReplaced(Event):
    """A power (or a seat's powers) given to another player."""

    KIND = EventKind.PLAYER_REPLACED
    power: str
    powers: tuple[str, ...]
    old: int | None
    new: int
    old_name: str | None
    name: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class PlayerResigned(Event):
    """A player resigned (naming a successor, or leaving the power in civil disorder)."""

    KIND = EventKind.PLAYER_RESIGNED
    SIGNED = True
    power: str
    player: int
    name: str
    successor: str | None
    by: Json


@dataclass(frozen=True, kw_only=True)
class CoinTossed(Event):
    """The coin tossed for a power joining a side (World War I's 24), with the seed that repeats it."""

    KIND = EventKind.COIN_TOSSED
    power: str
    phase: str | None
    seed: Json
    sides: Json
    method: str
    name: str
    winner: tuple[str, ...]
    joins: str


@dataclass(frozen=True, kw_only=True)
class PowerJoined(Event):
    """A power joined the side the coin gave it (and that side's player, if any)."""

    KIND = EventKind.POWER_JOINED
    power: str
    phase: str | None
    side: str
    player: int | None
    name: str | None


@dataclass(frozen=True, kw_only=True)
class Press(Event):
    """A press item: a release, a letter (salted, so its digest gives nothing away) or a GM notice."""

    KIND = EventKind.PRESS
    SIGNED = True
    sender: str
    to: tuple[str, ...] | None
    anonymous: bool
    text: str
    phase: str | None
    question: int | Absent = optional()  # asking the GM: the question's number
    answers: int | Absent = optional()  # the GM's answer to that question
    channel: str | Absent = optional()
    by: Json | Absent = optional()
    salt: str | Absent = optional()


@dataclass(frozen=True, kw_only=True)
class DrawProposed(Event):
    """A draw or concession proposed."""

    KIND = EventKind.DRAW_PROPOSED
    proposal: int
    kind: ProposalKind
    proposer: str
    powers: tuple[str, ...]
    phase: str | None


@dataclass(frozen=True, kw_only=True)
class DrawVote(Event):
    """A power's vote on a proposal (sealed in a game whose votes are secret)."""

    KIND = EventKind.DRAW_VOTE
    SIGNED = True
    proposal: int
    power: str
    yes: bool
    by: Json


@dataclass(frozen=True, kw_only=True)
class DrawResult(Event):
    """How a proposal's vote ended."""

    KIND = EventKind.DRAW_RESULT
    proposal: int
    status: VoteOutcome
    yes: int
    no: int
    voters: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class LiveChanged(Event):
    """A live table's clock or phase changed (its action's own details kept in `more`)."""

    KIND = EventKind.LIVE
    OPEN = True
    action: str
    phase: str | None
    state: JsonObject
    config: JsonObject | Absent = optional()
    more: JsonObject = field(default_factory=dict)

    @classmethod
    def of(cls, action: str, phase: str | None, detail: Mapping[str, JSONValue], state: JSONObject,
           config: JSONObject | Absent = ABSENT) -> "LiveChanged":
        """A table's change: its details may name the phase it concerns (a phase processed), over the one open."""
        payload: JSONObject = {"action": action, "phase": phase, **detail, "state": state}
        if config is not ABSENT:
            payload["config"] = config
        return cls.from_payload(payload)


@dataclass(frozen=True, kw_only=True)
class KeyAdded(Event):
    """A browser given a key of a seat, proved by the seat's credential."""

    KIND = EventKind.KEY_ADDED
    SIGNED = True
    player: int
    how: str | Absent = optional()
    key: JsonObject
    by: Json


@dataclass(frozen=True, kw_only=True)
class SetDisputed(Event):
    """A power's player disputes a set of orders on the record that it says it did not send."""

    KIND = EventKind.SET_DISPUTED
    SIGNED = True
    phase: str
    power: str
    number: int
    receipt: str
    text: str | Absent = optional()
    by: Json


@dataclass(frozen=True, kw_only=True)
class LeagueAdded(Event):
    """The game counted in a league's standings (or, removed, no longer)."""

    KIND = EventKind.LEAGUE_ADDED
    league: str
    removed: bool | Absent = optional()


# -- the registry ------------------------------------------------------------------------------------------

EVENTS: tuple[type[Event], ...] = (
    GameCreated, PlayerJoined, CredentialReplaced, SeatClaimed, LotsDrawn, PowersAssigned, GameStarted,
    OrdersSubmitted, OrdersWithdrawn, OrdersRefused, ConditionalChosen, PlanFiled, PlanRead, Ready, DeadlineClosed,
    PhaseAdjudicated, Correction, PhaseOpened, GameEnded,
    Grace, Extended, Paused, Resumed, AwaitingRemovals, Deadlock, CivilDisorder, SeatsOpen, BotsAllowed, DrawDeclared,
    StandbyCalled, StandbyReleased, PlayerReplaced, PlayerResigned, CoinTossed, PowerJoined, Press, DrawProposed,
    DrawVote, DrawResult, LiveChanged, KeyAdded, SetDisputed, LeagueAdded)

_BY_KIND: dict[EventKind, type[Event]] = {c.KIND: c for c in EVENTS if not issubclass(c, GMAction)}
_BY_ACTION: dict[GMActionKind, type[GMAction]] = {c.ACTION: c for c in EVENTS if issubclass(c, GMAction)}
assert set(_BY_KIND) | {EventKind.GM_ACTION} == set(EventKind), "every kind has its class"
assert set(_BY_ACTION) == set(GMActionKind), "every GM action has its class"


def kind_of(entry: Entry) -> EventKind:
    """An entry's kind as a type (EventError for a kind no gamesmaster writes)."""
    try:
        return EventKind(entry.kind)
    except ValueError:
        raise EventError(f"unknown kind of entry {entry.kind!r}") from None


def kinds(*classes: type[Event]) -> frozenset[EventKind]:
    """The kinds of these event classes (for testing an entry, sealed or not, by its kind)."""
    return frozenset(c.KIND for c in classes)


def event_class(kind: str, payload: object) -> type[Event]:
    """The class of the event an entry of this kind and payload holds."""
    try:
        k = EventKind(kind)
    except ValueError:
        raise EventError(f"unknown kind of entry {kind!r}") from None
    if k is not EventKind.GM_ACTION:
        return _BY_KIND[k]
    action = payload.get("action") if isinstance(payload, dict) else None
    try:
        return _BY_ACTION[GMActionKind(str(action))]
    except ValueError:
        raise EventError(f"unknown GM action {_shown(action)}") from None


def parse_payload(kind: str, payload: object, *, parsed: bool = False) -> Event:
    """The event a payload of this kind holds (EventError says why it holds none; parsed: as from_payload)."""
    return event_class(kind, payload).from_payload(payload, parsed=parsed)


def parse_event(entry: Entry) -> Event:
    """The typed event an entry holds (EventError for a sealed entry, an unknown kind or a malformed payload)."""
    if entry.payload_text is None:
        raise EventError(f"ledger entry {entry.seq} ({entry.kind}) is sealed: only its digest is shown")
    return parse_payload(entry.kind, entry.payload, parsed=True)


def check_handled(what: str, table: Mapping[type[Event], object]) -> None:
    """Refuse (at import) a table of handlers that lacks an event class, or names one not registered."""
    missing = [c.__name__ for c in EVENTS if c not in table]
    unknown = [c.__name__ for c in table if c not in EVENTS]
    if missing or unknown:
        raise TypeError(f"{what}: no handler for {', '.join(missing) or '-'}; not events: {', '.join(unknown) or '-'}")


_HANDLERS: dict[str, Mapping[type[Event], object]] = {}


def handlers(what: str, table: Mapping[type[Event], object]) -> None:
    """Register one of the tables every event must have its entry in (fold, audit, description): checked now."""
    check_handled(what, table)
    _HANDLERS[what] = table


def unhandled(cls: type[Event]) -> list[str]:
    """The tables (of those registered) that have no handler for this class; ['registry'] if it is no event."""
    missing = [] if cls in EVENTS else ["registry"]
    return missing + [what for what, table in _HANDLERS.items() if cls not in table]


PUBLISHED = kinds(PhaseAdjudicated, Correction)  # the entries that publish a phase's results
OPENING = kinds(GameStarted, PhaseOpened)  # the entries that open a phase for orders
for _cls in (*EVENTS, ResultLine):
    _schema(_cls)  # a field of a type no reader reads stops the program here, not at the first entry of its kind

SIGNED: frozenset[EventKind] = frozenset(c.KIND for c in EVENTS if c.SIGNED)
PUBLISHING: frozenset[EventKind] = frozenset(c.KIND for c in EVENTS if c.PUBLISHES)
PHASE_PRIVATE: frozenset[EventKind] = frozenset(c.KIND for c in EVENTS if c.PHASE_PRIVATE)
