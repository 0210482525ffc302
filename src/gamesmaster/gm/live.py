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

from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from ..rules.phase import Phase
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any] | None) -> "LiveConfig":
        doc = dict(doc or {})
        unknown = set(doc) - set(cls.__dataclass_fields__)
        if unknown:
            raise GMError(f"unknown live setting{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
        values: dict[str, Any] = {}
        for k, v in doc.items():
            if k == "practice":
                values[k] = bool(v)
                continue
            try:
                values[k] = float(v)
            except (TypeError, ValueError):
                raise GMError(f"{k.replace('_', ' ')} {v!r}: a number of minutes") from None
            if not 0 <= values[k] <= 24 * 60:
                raise GMError(f"{k.replace('_', ' ')}: between 0 and 1440 minutes")
        cfg = cls(**values)
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

    def to_dict(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["ends"] = self.ends.isoformat() if self.ends else None
        doc["agreed"] = list(self.agreed)
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> "LiveState":
        doc = dict(doc)
        ends = doc.get("ends")
        doc["ends"] = datetime.fromisoformat(ends) if ends else None
        doc["agreed"] = tuple(doc.get("agreed") or ())
        return cls(**{k: v for k, v in doc.items() if k in cls.__dataclass_fields__})

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


# -- the service -----------------------------------------------------------------------------


@dataclass
class TableEvent:
    action: str
    detail: dict[str, Any] = field(default_factory=dict)


class LiveTable:
    """The live game's table over a Gamesmaster: every change is a gm transaction on the ledger."""

    def __init__(self, gm: Any) -> None:
        self.gm = gm

    # -- creating --------------------------------------------------------------------------

    @staticmethod
    def settings_for(config: LiveConfig, press: str = "full") -> dict[str, Any]:
        """Game settings whose schedule matches the live periods (the worker's fallback deadlines)."""
        return {"press": press, "grace_hours": 0.0, "replacement": "none", "early_movement": False,
                "schedule": {"hours": (config.diplomacy + config.writing) / 60,
                             "retreat_hours": config.retreats / 60, "adjustment_hours": config.adjustments / 60}}

    def create(self, game_id: str, *, players: Sequence[str], assign: Mapping[str, str] | None = None,
               seed: int | None = None, config: LiveConfig | Mapping[str, Any] | None = None,
               title: str | None = None, variant: str = "standard", rules: Any = None, press: str = "full") -> Any:
        """Create a live game (or, with config practice=True, a newcomers' practice game) and start its clock."""
        cfg = config if isinstance(config, LiveConfig) else LiveConfig.from_dict(config)
        if not players:
            raise GMError("a live game needs its players (the powers nobody plays hold)")
        created = self.gm.create_game(game_id, title=title, variant=variant, rules=rules,
                                      settings=self.settings_for(cfg, "none" if cfg.practice else press),
                                      players=players, assign=assign, seed=seed)
        self.make_live(game_id, cfg)
        return created

    def make_live(self, game_id: str, config: LiveConfig | Mapping[str, Any] | None = None) -> LiveState:
        """Run a started game at the table from now: its current phase's first period starts."""
        cfg = config if isinstance(config, LiveConfig) else LiveConfig.from_dict(config)

        def act(rec: Any, g: Any, _cfg: Any, st: LiveState | None, now: datetime) -> LiveState:
            if g.status not in ("active",):
                raise GMError(f"{g.id} is {g.status}: only a running game can be played live")
            if st is not None:
                raise GMError(f"{g.id} is already played live")
            return open_period(cfg, g.phase, now, shown=len(rec.phases(g.id)), first_phase=g.phase)

        return self._change(game_id, "start", act, config=cfg, allow_new=True)

    # -- reading ---------------------------------------------------------------------------

    def get(self, game_id: str) -> tuple[LiveConfig, LiveState] | None:
        """(config, state) of a live game, None for a game not played live."""
        with self.gm._tx(write=False) as conn:
            row = self.gm._rec(conn).game(game_id)
        if row is None:
            from .errors import NotFound
            raise NotFound(f"no game {game_id!r}")
        return _live_of(row)

    # -- the clock ---------------------------------------------------------------------------

    def tick(self, game_id: str) -> list[TableEvent]:
        """Move the table on as time passes: diplomacy -> writing -> processed -> read-out. Cheap when
        nothing is due (a read-only look first)."""
        with self.gm._tx(write=False) as conn:
            rec = self.gm._rec(conn)
            row = rec.game(game_id)
            if row is None:
                return []
            live = _live_of(row)
            if live is None:
                return []
            _cfg, st = live
            now = self.gm.now()
            unread = len(rec.phases(game_id)) > st.shown
            finished = row["status"] == "finished" and st.period not in ("readout", "over")
            if not (st.expired(now) or (unread and st.period != "readout") or finished):
                return []
        events: list[TableEvent] = []
        with self.gm._tx() as conn:
            rec = self.gm._rec(conn)
            g = self.gm._load(rec, game_id, lock=True)
            live = _live_of(g.row)
            if live is None:
                return []
            cfg, st = live
            now = self.gm.now()
            for _ in range(6):
                published = rec.phases(g.id)
                if st.period != "readout" and len(published) > st.shown:
                    row = published[st.shown]
                    powers = _readout_powers(row)
                    st = start_readout(st, row["phase"], readout_steps(row["phase"], powers))
                    events.append(TableEvent("readout", {"phase": row["phase"]}))
                    break
                if st.period == "readout":
                    break
                if g.status == "finished":
                    if st.period != "over":
                        st = replace(st, period="over", ends=None, paused=False, remaining=None)
                        events.append(TableEvent("over"))
                    break
                if not st.expired(now) or g.status != "active":
                    break
                if st.period == "diplomacy":
                    st = to_writing(st, cfg, now)
                    events.append(TableEvent("writing", {"phase": st.phase, "reason": "time"}))
                    continue
                if st.period in ("writing", "orders"):
                    if g.phase != st.phase:  # processed already (early, or by the worker)
                        st = replace(st, ends=None)
                        continue
                    self._write(rec, g, cfg, st, now)  # the row's flags before processing
                    done = self.gm._process_locked(rec, g, now, "live")
                    events.append(TableEvent("processed", {"phase": done.phase, "outcome": done.action,
                                                           "civil_disorder": list(done.civil_disorder)}))
                    if done.action == "waiting":
                        st = replace(st, ends=None)
                        break
                    g = self.gm._load(rec, game_id, lock=True)
                    continue
                break
            if events:
                self._write(rec, g, cfg, st, now)
                for ev in events:
                    self.gm._log(rec, g, "live", {"action": ev.action, "phase": g.phase, **ev.detail,
                                                  "state": st.to_dict()}, now)
        if any(ev.action == "processed" for ev in events):
            self.gm._run_early(game_id)  # e.g. retreats that concern only unplayed powers
        return events

    # -- the GM's and the players' actions -------------------------------------------------

    def pause(self, game_id: str) -> LiveState:
        return self._change(game_id, "pause", lambda rec, g, cfg, st, now: pause(st, now))

    def resume(self, game_id: str) -> LiveState:
        return self._change(game_id, "resume", lambda rec, g, cfg, st, now: resume(st, now))

    def add_time(self, game_id: str, minutes: float) -> LiveState:
        return self._change(game_id, "add-time", lambda rec, g, cfg, st, now: add_time(st, now, float(minutes)),
                            minutes=float(minutes))

    def end_period(self, game_id: str) -> list[TableEvent]:
        """The GM ends the period now (diplomacy -> writing; writing -> the phase is processed)."""
        self._change(game_id, "end-period", lambda rec, g, cfg, st, now: end_now(st, now))
        return self.tick(game_id)

    def agree(self, game_id: str, yes: bool = True, *, power: str | None = None, credential: str | None = None,
              by_gm: bool = False) -> bool:
        """A player agrees to end the diplomacy period; when every player has agreed, writing starts.
        Returns whether everyone has agreed."""
        result = {"all": False}

        def act(rec: Any, g: Any, cfg: LiveConfig, st: LiveState, now: datetime) -> LiveState:
            who = self.gm._acting_power(g, power, credential, by_gm)
            if who == "GM":
                raise GMError("name the power whose agreement is given")
            voters = self.voters(g)
            if who not in voters:
                raise GMError(f"{who.capitalize()} has no say in ending diplomacy (only powers with a player)")
            new, everyone = agree(st, who, yes, voters)
            result["all"] = everyone
            self._extra = {"power": who, "yes": bool(yes), "everyone": everyone}
            if everyone:
                new = to_writing(new, cfg, now)
            return new

        self._change(game_id, "agree", act)
        return result["all"]

    def next_step(self, game_id: str) -> LiveState:
        """The GM steps the read-out on; after its last step the next period starts."""

        def act(rec: Any, g: Any, cfg: LiveConfig, st: LiveState, now: datetime) -> LiveState:
            if st.period != "readout":
                raise GMError("there is no read-out under way")
            if st.step + 1 < st.steps:
                return replace(st, step=st.step + 1)
            shown = st.shown + 1
            published = rec.phases(g.id)
            if len(published) > shown:
                row = published[shown]
                return replace(start_readout(st, row["phase"], readout_steps(row["phase"], _readout_powers(row))),
                               shown=shown)
            if g.status == "finished":
                return replace(st, period="over", shown=shown, step=0, steps=0)
            return open_period(cfg, g.phase, now, shown=shown, first_phase=st.first_phase)

        return self._change(game_id, "next", act)

    def slip(self, game_id: str, power: str, text: str) -> Any:
        """Orders handed to the GM on a slip of paper, typed in (channel in-person: the record says so)."""
        return self.gm.submit_orders(game_id, power, text, by_gm=True, channel="in-person")

    def channels(self, game_id: str, phase: str) -> dict[str, dict[str, str]]:
        """How each power's orders used in a published phase came in: {power: {channel, entered_by}}
        ("in-person" is a slip of paper typed in by the GM; "web" the war room)."""
        with self.gm._tx(write=False) as conn:
            rec = self.gm._rec(conn)
            rows = rec.phases(game_id)
            row = next((r for r in rows if r["phase"] == phase), None)
            if row is None:
                return {}
            out: dict[str, dict[str, str]] = {}
            for o in rec.orders(game_id, phase):
                source = (row["orders"].get(o["power"]) or {}).get("source")
                if source is None or (o["author"] == "standby") != (source == "standby"):
                    continue
                out[o["power"]] = {"channel": o["channel"], "entered_by": o["entered_by"]}
            return out

    def voters_of(self, game_id: str) -> list[str]:
        with self.gm._tx(write=False) as conn:
            return self.voters(self.gm._load(self.gm._rec(conn), game_id))

    @staticmethod
    def voters(g: Any) -> list[str]:
        """The powers whose agreement ends diplomacy: every surviving power with a player."""
        pos = g.position
        return [p for p in g.variant.powers if g.holder(p) and pos is not None and
                (pos.units_of(p) or pos.centres_of(p))]

    # -- plumbing ------------------------------------------------------------------------------

    def _write(self, rec: Any, g: Any, cfg: LiveConfig, st: LiveState, now: datetime) -> None:
        flags = dict(g.row.get("flags") or {})
        flags["live"] = {"config": cfg.to_dict(), "state": st.to_dict()}
        values: dict[str, Any] = {"flags": flags, "updated_at": now}
        if g.status == "active":
            values["deadline"] = st.deadline(cfg)
        rec.update_game(g.id, **values)
        g.row.update(values)

    def _change(self, game_id: str, action: str, act: Any, config: LiveConfig | None = None,
                allow_new: bool = False, **detail: Any) -> LiveState:
        self._extra: dict[str, Any] = {}
        with self.gm._tx() as conn:
            rec = self.gm._rec(conn)
            g = self.gm._load(rec, game_id, lock=True)
            live = _live_of(g.row)
            if live is None and not allow_new:
                raise GMError(f"{game_id} is not played live (create it as a live game)")
            cfg, st = live if live is not None else (config, None)
            now = self.gm.now()
            new = act(rec, g, cfg, st, now)
            self._write(rec, g, cfg, new, now)
            payload = {"action": action, "phase": g.phase, **detail, **self._extra, "state": new.to_dict()}
            if action == "start":
                payload["config"] = cfg.to_dict()
            self.gm._log(rec, g, "live", payload, now)
            return new


def _live_of(row: Mapping[str, Any]) -> tuple[LiveConfig, LiveState] | None:
    doc = (row.get("flags") or {}).get("live")
    if not doc:
        return None
    return LiveConfig.from_dict(doc.get("config")), LiveState.from_dict(doc["state"])


def _readout_powers(row: Mapping[str, Any]) -> list[str]:
    """The powers whose results are read out one at a time: those with units in the phase, in order."""
    units = (row.get("position") or {}).get("units") or {}
    seen = {r["power"] for r in row.get("results") or []}
    powers = [p for p in units if units[p]] + [p for p in sorted(seen) if p not in units]
    return sorted(set(powers))


# -- the console: gamesmaster new --live / --practice -----------------------------------------------


def cmd_new_live(args: Any, out: Any, gm: Any) -> int:
    """`gamesmaster new GAME --live|--practice --players ... [--assign ...] [--minutes writing=5,...]`."""
    from . import report

    config: dict[str, Any] = {"practice": bool(args.practice)}
    for pair in (args.minutes or "").split(","):
        if pair.strip():
            key, eq, value = pair.partition("=")
            if not eq:
                raise GMError(f"--minutes {pair.strip()!r}: write PERIOD=MINUTES, e.g. writing=5")
            config[key.strip().replace("-", "_")] = value.strip()
    players = [" ".join(n.split()) for n in (args.players or "").split(",") if n.strip()]
    assign = None
    if args.assign:
        assign = {}
        for pair in args.assign.split(","):
            name, eq, power = pair.partition("=")
            if not eq:
                raise GMError(f"--assign {pair.strip()!r}: write NAME=POWER")
            assign[name.strip()] = power.strip()
        players = players or list(assign)
    rules: Any = args.rules
    created = LiveTable(gm).create(args.game, title=args.title, players=players, assign=assign, seed=args.seed,
                                   config=config, variant=args.variant, rules=rules, press=args.press)
    cfg, st = LiveTable(gm).get(args.game)  # type: ignore[misc]
    kind = "practice game (no diplomacy; the powers nobody plays hold)" if cfg.practice else "live club game"
    out.write(f"Created {args.game}: a {kind}.\n")
    out.write(f"Periods: diplomacy {cfg.diplomacy_first:g} min first, {cfg.diplomacy:g} min later; writing "
              f"{cfg.writing:g} min; retreats {cfg.retreats:g} min; builds {cfg.adjustments:g} min.\n")
    out.write(f"Now: {LABELS[st.period]}, {st.left(gm.now()) or 0:.0f} seconds left. "
              f"Table view: /games/{args.game}/table\n")
    if created.seed is not None:
        out.write(f"Powers drawn by lot, seed {created.seed} (on the record).\n")
    out.write("Credentials (shown this once; give each player theirs):\n")
    for name, secret in created.credentials.items():
        out.write(f"  {name:20} {created.powers.get(name, '').capitalize():10} {secret}\n")
    out.write(report.status(gm.status(args.game)) + "\n")
    return 0
