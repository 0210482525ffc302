"""Verdicts: what the adjudicator decided about each order, as values.

Every decision of the adjudicator returns one of these, and an outcome's reason is
only the wording of its verdict: nothing here decides anything. Verdicts are small
immutable values (slots, equality by type and fields), declared like frozen dataclasses. A verdict names the
units, orders and strengths the decision rested on, so that a reason can be read back
against what happened (the tests do). The kind of a reason is the verdict's type; its
`result` (succeeds, fails or invalid) is a property of that type.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from typing import Any, ClassVar, dataclass_transform

from .geography import Location
from .orders import Move, Order, describe_order, describe_unit, short
from .position import Unit

SUCCEEDS, FAILS, INVALID = "succeeds", "fails", "invalid"

# How an opponent stood a move off: holding its space, staying after its own move
# failed, or contending for the same space.
HOLDING, STAYED, CONTENDING = "holding", "stayed", "contending"

Template = str | tuple[object, ...]  # words, or a template and the units and places it names


def say(template: Template) -> str:
    """A template in words: its units named as players write them ('A Mun'), places abbreviated."""
    if isinstance(template, str):
        return template
    text, *things = template
    return str(text).format(*map(_name, things))


def _name(thing: object) -> str:
    if isinstance(thing, Unit):
        return describe_unit(thing)
    if isinstance(thing, (Location, str)):
        return short(thing)
    return str(thing)


@dataclass_transform(eq_default=True, frozen_default=True)
class _ValueType(ABCMeta):
    """Makes a Value class from its annotations: the fields (those not ClassVar) become its
    slots, and an __init__ takes them in order, with the defaults the class body gives.

    It does for the verdicts what a frozen dataclass would, at a thirtieth of the cost of
    defining one: every command that adjudicates defines all of them when it starts.
    """

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> "_ValueType":
        fields = [field for field, kind in namespace.get("__annotations__", {}).items()
                  if not str(kind).startswith("ClassVar")]
        defaults = {field: namespace.pop(field) for field in fields if field in namespace}
        namespace["__slots__"] = tuple(fields)
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        if fields:
            setattr(cls, "__init__", _make_init(fields, defaults))
        return cls


def _make_init(fields: list[str], defaults: dict[str, Any]) -> Any:
    params = ", ".join(f"{f}=_default_{f}" if f in defaults else f for f in fields)
    body = "".join(f"\n    _set(self, {f!r}, {f})" for f in fields)
    scope: dict[str, Any] = {"_set": object.__setattr__, **{f"_default_{f}": v for f, v in defaults.items()}}
    exec(f"def __init__(self, {params}):{body}", scope)
    return scope["__init__"]


class Value(metaclass=_ValueType):
    """An immutable value: equal to another of its type with equal fields."""

    __slots__: ClassVar[tuple[str, ...]]  # set by _ValueType: the fields

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        # Pickled and copied by calling the class again: the fields are its arguments, in order.
        return type(self), self._fields()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


class Verdict(Value):
    """What was decided about one order; `words()` says it to a player."""

    RESULT: ClassVar[str] = FAILS
    ok: ClassVar[bool] = False  # the decision's yes or no: the move succeeds, the support is given...

    @property
    def result(self) -> str:
        """The order's result: succeeds, fails or invalid."""
        return self.RESULT

    @abstractmethod
    def words(self) -> str:
        """The verdict in plain words."""

    def words_dislodged(self, hit: "Dislodged") -> str:
        """The verdict in words for a unit that was also dislodged."""
        return f"{self.words()}; {hit.words()}"


# -- moves -------------------------------------------------------------------------------


class Moved(Verdict):
    """The move succeeded; `dislodged` is the unit it drove out (attack against defence)."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True
    attack: int | None = None  # None: nothing opposed it, so no strength was needed
    dislodged: Unit | None = None
    defence: int = 0

    def words(self) -> str:
        """The verdict in plain words."""
        if self.dislodged is None:
            return "moved"
        return f"moved, dislodging {describe_unit(self.dislodged)}"


class Opposition(Value):
    """A unit that kept a move out: its strength, and whether it held, stayed or contended."""

    unit: Unit
    strength: int
    how: str  # HOLDING, STAYED or CONTENDING

    def words(self) -> str:
        """The opponent in words, as a bounce names it."""
        name = describe_unit(self.unit)
        if self.how == HOLDING:
            return f"{name} holding ({self.strength})"
        if self.how == STAYED:
            return f"{name}, which failed to move away ({self.strength})"
        return f"{name} ({self.strength})"


class Bounced(Verdict):
    """The move was kept out: by the unit in the space, or by every unit contending for it as strong."""

    unit: Unit
    attack: int
    against: tuple[Opposition, ...]
    uncounted: str | None = None  # a power whose support cannot count against its own unit

    def words(self) -> str:
        """The verdict in plain words."""
        against = " and ".join(o.words() for o in self.against)
        text = f"bounced: {describe_unit(self.unit)} (strength {self.attack}) against {against}"
        if self.uncounted is not None:
            occupant = self.against[0].unit
            text += f"; support from {self.uncounted} cannot count against its own {describe_unit(occupant)}"
        return text


class LostHeadToHead(Verdict):
    """The move met the unit coming the other way, which was at least as strong."""

    unit: Unit
    attack: int
    by: Unit
    defence: int

    def words(self) -> str:
        """The verdict in plain words."""
        return (f"bounced: {describe_unit(self.unit)} (strength {self.attack}) against {describe_unit(self.by)} "
                f"moving the other way ({self.defence})")


class OwnUnitInTheWay(Verdict):
    """The move would dislodge a unit of its own power, which stays: it has no strength."""

    occupant: Unit

    def words(self) -> str:
        """The verdict in plain words."""
        return f"cannot dislodge its own {describe_unit(self.occupant)}"


class ConvoyDisrupted(Verdict):
    """No chain of convoying fleets was left: these were dislodged, those cancelled by the paradox rule."""

    dislodged: tuple[Unit, ...]
    cancelled: tuple[Unit, ...] = ()

    def words(self) -> str:
        """The verdict in plain words."""
        if not self.dislodged:
            return "convoy paradox: by the Szykman rule the convoy does not take place"
        names = ", ".join(map(describe_unit, self.dislodged))
        text = f"convoy disrupted: {names} {'was' if len(self.dislodged) == 1 else 'were'} dislodged"
        if self.cancelled:
            text += f"; {', '.join(map(describe_unit, self.cancelled))} did not convoy (convoy paradox, Szykman rule)"
        return text


class KolinRule(Verdict):
    """Kolin's rule (s32): a unit attacked by another power turns to face the attack and does not move."""

    by: Move

    def words(self) -> str:
        """The verdict in plain words."""
        return f"did not move: it turned to face the attack of {describe_order(self.by)} (Kolin's rule)"


class Void(Verdict):
    """The order is legal but has no effect (a support for a move not made, no convoy route...)."""

    why: Template

    def words(self) -> str:
        """The verdict in plain words."""
        return say(self.why)


class Unresolved(Verdict):
    """A cycle of orders with no single answer that no paradox rule settles: the backup rule fails them."""

    def words(self) -> str:
        """The verdict in plain words."""
        return "paradox: these orders admit no single outcome, so the order fails (backup rule)"


# -- supports ---------------------------------------------------------------------------


class SupportGiven(Verdict):
    """The support was given (nothing cut it)."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True
    to: Order

    def words(self) -> str:
        """The verdict in plain words."""
        return f"support given to {describe_order(self.to)}"


class SupportCut(Verdict):
    """The support was cut by this attack."""

    by: Move

    def words(self) -> str:
        """The verdict in plain words."""
        return f"support cut by {describe_order(self.by)}"

    def words_dislodged(self, hit: "Dislodged") -> str:
        """The verdict in words for a unit that was also dislodged."""
        if hit.by == self.by:
            return f"support cut: {hit.words()}"
        return f"{self.words()}; {hit.words()}"


class NoEffect(Verdict):
    """Miller's rule: a dislodged unit's order has no effect."""

    by: Move

    def words(self) -> str:
        """The verdict in plain words."""
        return f"no effect: dislodged by {describe_order(self.by)} (Miller's rule)"

    def words_dislodged(self, hit: "Dislodged") -> str:
        """The verdict in words for a unit that was also dislodged (as it always is)."""
        return f"no effect (Miller's rule): {hit.words()}"


# -- convoys ----------------------------------------------------------------------------


class ConvoyHeld(Verdict):
    """The convoying fleet was not dislodged (whether the army came is another matter)."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True

    def words(self) -> str:
        """The verdict in plain words."""
        return "the fleet was not dislodged"


class ConvoyDislodged(Verdict):
    """The convoying fleet was dislodged by this attack, so it convoys nothing."""

    by: Move

    def words(self) -> str:
        """The verdict in plain words."""
        return f"convoy disrupted: dislodged by {describe_order(self.by)}"

    def words_dislodged(self, hit: "Dislodged") -> str:
        """The verdict in words, with the strengths of the dislodgement."""
        return f"convoy disrupted: {hit.words()}"


class ConvoyCancelled(Verdict):
    """The fleet's convoy was part of a paradox, which the Szykman rule settles: it does not convoy."""

    def words(self) -> str:
        """The verdict in plain words."""
        return "convoy paradox: by the Szykman rule this fleet does not convoy"


class Convoyed(Verdict):
    """The army arrived by a route through this fleet."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True
    army: Move

    def words(self) -> str:
        """The verdict in plain words."""
        return f"convoyed {describe_order(self.army)}"


class OtherRoute(Verdict):
    """The army arrived, but by a route this fleet was not on."""

    army: Unit

    def words(self) -> str:
        """The verdict in plain words."""
        return f"{describe_unit(self.army)} arrived by another route"


class ArmyStayed(Verdict):
    """The army this fleet convoys did not arrive, for the army's own reason."""

    army: Unit
    why: Verdict

    def words(self) -> str:
        """The verdict in plain words."""
        return f"the army did not arrive: {self.why.words()}"


# -- holds and dislodgements ----------------------------------------------------------------


class Held(Verdict):
    """The unit stayed where it was and was not dislodged."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True

    def words(self) -> str:
        """The verdict in plain words."""
        return "held"


class Dislodged(Verdict):
    """The unit stayed and was dislodged by this move, attack strength against its defence."""

    by: Move
    attack: int
    defence: int

    def words(self) -> str:
        """The verdict in plain words."""
        return f"dislodged by {describe_order(self.by)} ({self.attack} against {self.defence})"


# -- orders that cannot be followed, and repeats ------------------------------------------------


class Invalid(Verdict):
    """The order cannot be followed (unreadable, illegal, two meanings...): the unit holds."""

    RESULT: ClassVar[str] = INVALID
    why: str

    def words(self) -> str:
        """The verdict in plain words."""
        return self.why


class Repeated(Verdict):
    """The same order given twice: counted once, with the first one's verdict."""

    first: Verdict
    first_hit: Dislodged | None = None


    @property
    def result(self) -> str:
        """The first order's result."""
        return self.first.result

    def words(self) -> str:
        """The verdict in plain words."""
        first = self.first.words() if self.first_hit is None else self.first.words_dislodged(self.first_hit)
        return f"the same order as above, counted once: {first}"


# -- retreats ---------------------------------------------------------------------------------


class Retreated(Verdict):
    """The dislodged unit retreated as ordered."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True

    def words(self) -> str:
        """The verdict in plain words."""
        return "retreated"


class Disbanded(Verdict):
    """The dislodged unit was disbanded as ordered."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True

    def words(self) -> str:
        """The verdict in plain words."""
        return "disbanded"


class AutomaticRetreat(Verdict):
    """s16: the unit had a single retreat, which the GM made instead of the order given."""

    to: Location

    def words(self) -> str:
        """The verdict in plain words."""
        return f"the only retreat, to {short(self.to)}, is made automatically"


class RetreatClash(Verdict):
    """Two or more units retreated to one space: all are disbanded, or (Calhamer) retreat again."""

    count: int
    province: str
    again: bool

    def words(self) -> str:
        """The verdict in plain words."""
        then = "it must retreat again" if self.again else "so all are disbanded"
        return f"bounced: {self.count} units retreated to {short(self.province)}{';' if self.again else ','} {then}"


# -- adjustments ---------------------------------------------------------------------------------


class Adjusted(Verdict):
    """A build, removal or waive carried out: `what` is 'built', 'removed' or 'build waived'."""

    RESULT: ClassVar[str] = SUCCEEDS
    ok: ClassVar[bool] = True
    what: str

    def words(self) -> str:
        """The verdict in plain words."""
        return self.what


class TooManyOrdered(Verdict):
    """More builds or removals were ordered than are due, and the rules then carry out none."""

    due: int
    builds: bool

    def words(self) -> str:
        """The verdict in plain words."""
        if self.builds:
            return f"more builds ordered than the {self.due} allowed: none is carried out"
        return f"more removals ordered than the {self.due} due: the civil-disorder rule decides"


class BeyondAllowance(Verdict):
    """The builds or removals due were already made by the orders before this one."""

    due: int
    builds: bool

    def words(self) -> str:
        """The verdict in plain words."""
        if self.builds:
            return f"only {self.due} build{'s' if self.due != 1 else ''} allowed"
        return f"only {self.due} removal{'s' if self.due != 1 else ''} due"


class AlreadyBuilt(Verdict):
    """An earlier build of the same power already raised a unit in this centre."""

    centre: str  # the centre's name

    def words(self) -> str:
        """The verdict in plain words."""
        return f"a unit was already built in {self.centre}"


class AlreadyRemoved(Verdict):
    """An earlier order of the same power already removed this unit."""

    unit: Unit

    def words(self) -> str:
        """The verdict in plain words."""
        return f"{describe_unit(self.unit)} was already removed"
