"""Live club games: the gamesmaster's table (issue 9; rulebook sections IV, VII.4-5, XIV.1).

A live game is an ordinary game whose phases are timed in minutes by the gamesmaster at
the table. Each movement phase has a diplomacy period (30 minutes for the first, 15
after), which ends early when every player agrees, then a writing period (5 minutes);
when writing runs out the phase is processed with the orders on record (a power with no
orders is in civil disorder: its units hold). Then comes the read-out: every power's
orders revealed at once, the results one power at a time, then the new position, each
step at the GM's click. Retreats and builds follow at once (a short period, processed as
soon as every power concerned has ordered). The GM may pause, add time, or end a period.

The timing is pure and clock-injected (`LiveConfig`, `LiveState` and the transition
functions below take `now`); `LiveTable` keeps the state in the game's `flags["live"]`
and puts every change on the ledger (entries of kind "live") through the Gamesmaster.

A practice game (seed 001 XIV.1: newcomers "play a country, without diplomacy, for a few
moves") is a live game with `practice=True`: no diplomacy periods, the powers nobody
plays simply hold, and every result is shown with its reason.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from typing import Mapping, Sequence

from ..rules.phase import Phase
from ..ledger import JSONObject, JSONValue
from . import values as read
from .errors import GMError

PERIODS = ("diplomacy", "writing", "orders", "readout", "over")
LABELS = {"diplomacy": "Diplomacy", "writing": "Writing orders", "orders": "Orders", "readout": "Read-out",
          "over": "The game is over"}


@dataclass(frozen=True)
class LiveConfig:
    """Period lengths in minutes (rulebook defaults) and whether this is a newcomers' practice game."""

    diplomacy_first: float = 30.0  # the first diplomacy period (rulebook IV)
    diplomacy: float = 15.0  # later diplomacy periods
    writing: float = 5.0  # "no more than five minutes" to write orders (XIV.1)
    retreats: float = 5.0  # retreats and builds: at once, processed when all have ordered
    adjustments: float = 5.0
    practice: bool = False  # newcomers' practice: no diplomacy, unplayed powers hold

    def to_dict(self) -> JSONObject:
        """JSON for the ledger."""
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue] | None) -> "LiveConfig":
        """Read to_dict's form (or the GM's periods as JSON); GMError names one that does not read."""
        doc = dict(doc or {})
        unknown = set(doc) - set(cls.__dataclass_fields__)
        if unknown:
            raise GMError(f"unknown live setting{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
        practice = read.flag(doc.pop("practice", False), "practice")
        values: dict[str, float] = {}
        for k, v in doc.items():
            values[k] = read.number(v, f"{k.replace('_', ' ')} (minutes)")
            if not 0 <= values[k] <= 24 * 60:
                raise GMError(f"{k.replace('_', ' ')}: between 0 and 1440 minutes")
        cfg = cls(practice=practice, **values)
        if cfg.practice:
            cfg = replace(cfg, diplomacy_first=0.0, diplomacy=0.0)
        for k in ("writing", "retreats", "adjustments"):
            if getattr(cfg, k) <= 0:
                raise GMError(f"the {k} period needs some time (minutes above 0)")
        return cfg

    def minutes(self, period: str, phase: Phase, first: bool) -> float:
        if period == "diplomacy":
            return self.diplomacy_first if first else self.diplomacy
        if period == "writing":
            return self.writing
        return self.retreats if phase.is_retreat else self.adjustments


@dataclass(frozen=True)
class LiveState:
    """Where the table is: the period, its end (or the time left while paused), votes, the read-out."""

    period: str
    phase: str  # the game phase the period belongs to (for a read-out: the phase being read out)
    ends: datetime | None = None
    paused: bool = False
    remaining: float | None = None  # seconds left, while paused
    agreed: tuple[str, ...] = ()
    step: int = 0  # read-out step
    steps: int = 0
    shown: int = 0  # published phases already read out
    first_phase: str = ""  # the game's first phase: its diplomacy period is the long one

    def to_dict(self) -> JSONObject:
        """JSON for the ledger."""
        doc = asdict(self)
        doc["ends"] = self.ends.isoformat() if self.ends else None
        doc["agreed"] = list(self.agreed)
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, JSONValue]) -> "LiveState":
        """Read to_dict's form."""
        ends, remaining = doc.get("ends"), doc.get("remaining")
        return cls(period=read.text(doc["period"], "period"), phase=read.text(doc["phase"], "phase"),
                   ends=datetime.fromisoformat(read.text(ends, "end")) if ends else None,
                   paused=read.flag(doc.get("paused", False), "paused"),
                   remaining=None if remaining is None else read.number(remaining, "time left"),
                   agreed=tuple(read.text(p, "power") for p in read.items(doc.get("agreed") or [], "agreed")),
                   step=read.whole(doc.get("step", 0), "step"), steps=read.whole(doc.get("steps", 0), "steps"),
                   shown=read.whole(doc.get("shown", 0), "shown"),
                   first_phase=read.text(doc.get("first_phase", ""), "first phase"))

    def left(self, now: datetime) -> float | None:
        """Seconds left in the period (None: no clock, e.g. the read-out)."""
        if self.paused:
            return self.remaining
        if self.ends is None:
            return None
        return max(0.0, (self.ends - now).total_seconds())

    def expired(self, now: datetime) -> bool:
        return not self.paused and self.ends is not None and now >= self.ends

    def deadline(self, config: LiveConfig) -> datetime | None:
        """The game's deadline for orders: the end of writing (projected during diplomacy); none while
        paused or reading out, so nothing is late and the deadline worker leaves the game alone."""
        if self.paused or self.ends is None:
            return None
        if self.period == "diplomacy":
            return self.ends + timedelta(minutes=config.writing)
        if self.period in ("writing", "orders"):
            return self.ends
        return None


# Rulebook XIV.1 (and XI.1, XIII.2): "Diplomacy and other conversation should not be allowed during
# the writing and reading of moves, between moves and retreats, during and after retreats, or
# during adjustment."
_NO_DIPLOMACY = {"writing": "while orders are written", "readout": "while the results are read out",
                 "orders": "during retreats and adjustments"}


def press_closed(state: LiveState) -> str | None:
    """Why the players may not send press at the table now (None: a diplomacy period, or the game is over)."""
    when = _NO_DIPLOMACY.get(state.period)
    if when is None:
        return None
    return f"no diplomacy {when} (rulebook XIV.1): press opens again with the next diplomacy period"


# -- transitions (pure) ------------------------------------------------------------------------


def open_period(config: LiveConfig, phase: str, now: datetime, *, shown: int, first_phase: str) -> LiveState:
    """The period that starts a game phase: diplomacy before movement (none in practice), else orders."""
    ph = Phase.parse(phase)
    if ph.is_movement:
        minutes = config.minutes("diplomacy", ph, phase == first_phase)
        if minutes > 0:
            return LiveState("diplomacy", phase, now + timedelta(minutes=minutes), shown=shown, first_phase=first_phase)
        return LiveState("writing", phase, now + timedelta(minutes=config.writing), shown=shown, first_phase=first_phase)
    return LiveState("orders", phase, now + timedelta(minutes=config.minutes("orders", ph, False)), shown=shown,
                     first_phase=first_phase)


def to_writing(state: LiveState, config: LiveConfig, now: datetime) -> LiveState:
    if state.period != "diplomacy":
        raise GMError(f"the table is in the {LABELS.get(state.period, state.period).lower()} period, not diplomacy")
    return replace(state, period="writing", ends=now + timedelta(minutes=config.writing), paused=False,
                   remaining=None, agreed=())


def pause(state: LiveState, now: datetime) -> LiveState:
    if state.paused:
        raise GMError("the clock is already stopped")
    if state.ends is None:
        raise GMError(f"there is no clock running in the {LABELS.get(state.period, state.period).lower()}")
    return replace(state, paused=True, remaining=state.left(now), ends=None)


def resume(state: LiveState, now: datetime) -> LiveState:
    if not state.paused:
        raise GMError("the clock is running: nothing to resume")
    return replace(state, paused=False, ends=now + timedelta(seconds=state.remaining or 0), remaining=None)


def add_time(state: LiveState, now: datetime, minutes: float) -> LiveState:
    if not minutes or minutes < -600 or minutes > 600:
        raise GMError("add between -600 and 600 minutes (not 0)")
    if state.paused:
        return replace(state, remaining=max(0.0, (state.remaining or 0) + minutes * 60))
    if state.ends is None:
        raise GMError(f"there is no clock running in the {LABELS.get(state.period, state.period).lower()}")
    return replace(state, ends=max(now, state.ends + timedelta(minutes=minutes)))


def end_now(state: LiveState, now: datetime) -> LiveState:
    """The GM ends the period: it runs out now."""
    if state.period not in ("diplomacy", "writing", "orders"):
        raise GMError(f"the {LABELS.get(state.period, state.period).lower()} is not a timed period "
                      "(step the read-out on with next)")
    return replace(state, ends=now, paused=False, remaining=None)


def agree(state: LiveState, power: str, yes: bool, voters: Sequence[str]) -> tuple[LiveState, bool]:
    """A player agrees (or no longer agrees) to end diplomacy; returns (state, everyone agrees)."""
    if state.period != "diplomacy":
        raise GMError("agreement ends a diplomacy period, and this is not one")
    agreed = set(state.agreed)
    if yes:
        agreed.add(power)
    else:
        agreed.discard(power)
    new = replace(state, agreed=tuple(p for p in voters if p in agreed))
    return new, bool(voters) and all(p in agreed for p in voters)


def start_readout(state: LiveState, phase: str, steps: int) -> LiveState:
    return replace(state, period="readout", phase=phase, ends=None, paused=False, remaining=None, agreed=(),
                   step=0, steps=steps)


def readout_steps(phase: str, powers: Sequence[str]) -> int:
    """Movement: orders, then each power's results, then the new position. Retreats and builds:
    orders, then all the results."""
    return 2 + len(powers) if Phase.parse(phase).is_movement else 2
