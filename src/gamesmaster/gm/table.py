"""The live game's table over a Gamesmaster: every change is a transaction that puts a `live` entry on the ledger.

The timing rules are in `gm.live` (pure); this module runs them against the record: the
table's state is what the game's last `live` entry says (`GameState.live`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ..ledger import JSONObject, JSONValue
from ..store.repo import PhaseRow
from .adjudicating import close_phase, run_early
from .desk import acting
from .errors import GMError
from .live import (LiveConfig, LiveState, add_time, agree, end_now, open_period, pause, readout_steps, resume,
                   start_readout, to_writing)
from .settings import RuleSpec, Settings
from .state import GameState
from .tx import Transaction
from .views import Created, Submission
from .events import ABSENT, EventKind, LiveChanged

if TYPE_CHECKING:
    from .desk import Desk
    from .games import Setup
    from .submissions import Submissions


@dataclass
class TableEvent:
    """Something the clock did at the table: writing began, the phase was processed, a read-out began."""

    action: str
    detail: JSONObject = field(default_factory=dict)


def readout_powers(row: PhaseRow) -> list[str]:
    """The powers whose results are read out one at a time: those with units in the phase, in order."""
    units = (row.position or {}).get("units") or {}
    seen = {r["power"] for r in row.results or []}
    return sorted({p for p in units if units[p]} | seen)


def voters(state: GameState) -> list[str]:
    """The powers whose agreement ends diplomacy: every surviving power with a player."""
    pos = state.position
    return [p for p in state.variant.powers if state.holder(p) and pos is not None and
            (pos.units_of(p) or pos.centres_of(p))]


Act = Callable[[Transaction, LiveConfig, "LiveState | None"], LiveState]


class LiveTable:
    """The gamesmaster's table for a live club game (or a newcomers' practice game)."""

    def __init__(self, desk: Desk, setup: Setup, orders: Submissions) -> None:
        self._desk, self._setup, self._orders = desk, setup, orders

    # -- creating --------------------------------------------------------------------------

    @staticmethod
    def settings_for(config: LiveConfig, press: str = "full") -> Settings:
        """Game settings whose schedule matches the live periods (the worker's fallback deadlines)."""
        return Settings.from_dict({
            "press": press, "grace_hours": 0.0, "replacement": "none", "early_movement": False,
            "schedule": {"hours": (config.diplomacy + config.writing) / 60,
                         "retreat_hours": config.retreats / 60, "adjustment_hours": config.adjustments / 60}})

    def create(self, game_id: str, *, players: Sequence[str], assign: Mapping[str, str] | None = None,
               seed: int | None = None, config: LiveConfig | None = None, title: str | None = None,
               variant: str = "standard", rules: str | RuleSpec | None = None, press: str = "full") -> Created:
        """Create a live game (or, with config practice=True, a newcomers' practice game) and start its clock."""
        cfg = config if config is not None else LiveConfig()
        if not players:
            raise GMError("a live game needs its players (the powers nobody plays hold)")
        created = self._setup.create_game(game_id, title=title, variant=variant, rules=rules,
                                      settings=self.settings_for(cfg, "none" if cfg.practice else press),
                                      players=players, assign=assign, seed=seed)
        self.make_live(game_id, cfg)
        return created

    def make_live(self, game_id: str, config: LiveConfig | None = None) -> LiveState:
        """Run a started game at the table from now: its current phase's first period starts."""
        cfg = config if config is not None else LiveConfig()

        def act(tx: Transaction, _cfg: LiveConfig, st: LiveState | None) -> LiveState:
            state = tx.state
            if state.status != "active":
                raise GMError(f"{state.id} is {state.status}: only a running game can be played live")
            if st is not None:
                raise GMError(f"{state.id} is already played live")
            return open_period(cfg, state.phase or "", tx.now, shown=state.published, first_phase=state.phase or "")

        return self._change(game_id, "start", act, config=cfg, allow_new=True)

    # -- reading ---------------------------------------------------------------------------

    def get(self, game_id: str) -> tuple[LiveConfig, LiveState] | None:
        """(config, state) of a live game, None for a game not played live."""
        with self._desk.reading() as rec:
            live = self._desk.snapshot(rec, game_id).live
        return (live.config, live.state) if live else None

    # -- the clock ---------------------------------------------------------------------------

    def tick(self, game_id: str) -> list[TableEvent]:
        """Move the table on as time passes: diplomacy -> writing -> processed -> read-out. Cheap when
        nothing is due (a read-only look first)."""
        with self._desk.reading() as rec:
            row = rec.game(game_id)
            if row is None:
                return []
            state = self._desk.snapshot(rec, game_id)
        if state.live is None:
            return []
        st = state.live.state
        now = self._desk.now()
        unread = state.published > st.shown
        finished = state.status == "finished" and st.period not in ("readout", "over")
        if not (st.expired(now) or (unread and st.period != "readout") or finished):
            return []
        events: list[TableEvent] = []
        with self._desk.transaction(game_id) as tx:
            live = tx.state.live
            if live is None:
                return []
            cfg, st = live.config, live.state
            processed = False
            for _ in range(6):
                state = tx.state
                if st.period != "readout" and state.published > st.shown:
                    shown = tx.rec.phases(game_id)[st.shown]
                    st = start_readout(st, shown.phase, readout_steps(shown.phase, readout_powers(shown)))
                    events.append(TableEvent("readout", {"phase": shown.phase}))
                    break
                if st.period == "readout":
                    break
                if state.status == "finished":
                    if st.period != "over":
                        st = replace(st, period="over", ends=None, paused=False, remaining=None)
                        events.append(TableEvent("over"))
                    break
                if not st.expired(tx.now) or state.status != "active":
                    break
                if st.period == "diplomacy":
                    st = to_writing(st, cfg, tx.now)
                    events.append(TableEvent("writing", {"phase": st.phase, "reason": "time"}))
                    continue
                if st.period in ("writing", "orders"):
                    if state.phase != st.phase:  # processed already (early, or by the worker)
                        st = replace(st, ends=None)
                        continue
                    done = close_phase(tx, "live")
                    processed = True
                    events.append(TableEvent("processed", {"phase": done.phase, "outcome": done.action,
                                                           "civil_disorder": list(done.civil_disorder)}))
                    if done.action == "waiting":
                        st = replace(st, ends=None)
                        break
                    continue
                break
            if processed:
                run_early(tx)  # e.g. retreats that concern only unplayed powers
            for ev in events:
                tx.record(LiveChanged.of(ev.action, tx.state.phase, ev.detail, st.to_dict()))
        return events

    # -- the GM's and the players' actions -------------------------------------------------

    def pause(self, game_id: str) -> LiveState:
        """Stop the table's clock."""
        return self._change(game_id, "pause", lambda tx, cfg, st: pause(_running(st), tx.now))

    def resume(self, game_id: str) -> LiveState:
        """Start the table's clock again."""
        return self._change(game_id, "resume", lambda tx, cfg, st: resume(_running(st), tx.now))

    def add_time(self, game_id: str, minutes: float) -> LiveState:
        """Add (or take away) minutes from the period."""
        return self._change(game_id, "add-time", lambda tx, cfg, st: add_time(_running(st), tx.now, float(minutes)),
                            minutes=float(minutes))

    def end_period(self, game_id: str) -> list[TableEvent]:
        """The GM ends the period now (diplomacy -> writing; writing -> the phase is processed)."""
        self._change(game_id, "end-period", lambda tx, cfg, st: end_now(_running(st), tx.now))
        return self.tick(game_id)

    def agree(self, game_id: str, yes: bool = True, *, power: str | None = None, credential: str | None = None,
              by_gm: bool = False) -> bool:
        """A player agrees to end the diplomacy period; when every player has agreed, writing starts.
        Returns whether everyone has agreed."""
        result = {"all": False}
        extra: JSONObject = {}

        def act(tx: Transaction, cfg: LiveConfig, st: LiveState | None) -> LiveState:
            who = acting(tx.rec, tx.state, power, credential, by_gm, now=tx.now).power
            if who is None:
                raise GMError("name the power whose agreement is given")
            eligible = voters(tx.state)
            if who not in eligible:
                raise GMError(f"{who.capitalize()} has no say in ending diplomacy (only powers with a player)")
            new, everyone = agree(_running(st), who, yes, eligible)
            result["all"] = everyone
            extra.update(power=who, yes=bool(yes), everyone=everyone)
            return to_writing(new, cfg, tx.now) if everyone else new

        self._change(game_id, "agree", act, extra=extra)
        return result["all"]

    def next_step(self, game_id: str) -> LiveState:
        """The GM steps the read-out on; after its last step the next period starts."""

        def act(tx: Transaction, cfg: LiveConfig, st: LiveState | None) -> LiveState:
            st = _running(st)
            if st.period != "readout":
                raise GMError("there is no read-out under way")
            if st.step + 1 < st.steps:
                return replace(st, step=st.step + 1)
            shown = st.shown + 1
            state = tx.state
            if state.published > shown:
                row = tx.rec.phases(state.id)[shown]
                return replace(start_readout(st, row.phase, readout_steps(row.phase, readout_powers(row))), shown=shown)
            if state.status == "finished":
                return replace(st, period="over", shown=shown, step=0, steps=0)
            return open_period(cfg, state.phase or "", tx.now, shown=shown, first_phase=st.first_phase)

        return self._change(game_id, "next", act)

    def slip(self, game_id: str, power: str, text: str) -> Submission:
        """Orders handed to the GM on a slip of paper, typed in (channel in-person: the record says so)."""
        return self._orders.submit_orders(game_id, power, text, by_gm=True, channel="in-person")

    def channels(self, game_id: str, phase: str) -> dict[str, tuple[str, str]]:
        """How each power's orders used in a published phase came in: {power: (channel, entered_by)}
        ("in-person" is a slip of paper typed in by the GM; "web" the war room)."""
        with self._desk.reading() as rec:
            row = next((r for r in rec.phases(game_id) if r.phase == phase), None)
            if row is None:
                return {}
            out = {}
            for power, used in (row.orders or {}).items():
                entry = rec.entry(game_id, int(used["seq"])) if used.get("seq") else None
                if entry is not None and entry.kind == EventKind.ORDERS_SUBMITTED:
                    out[power] = (entry.payload["channel"], entry.payload["entered_by"])
            return out

    def voters_of(self, game_id: str) -> list[str]:
        """The powers whose agreement ends diplomacy now."""
        with self._desk.reading() as rec:
            return voters(self._desk.snapshot(rec, game_id))

    # -- plumbing ------------------------------------------------------------------------------

    def _change(self, game_id: str, action: str, act: Act, config: LiveConfig | None = None,
                allow_new: bool = False, extra: JSONObject | None = None, **detail: JSONValue) -> LiveState:
        with self._desk.transaction(game_id) as tx:
            live = tx.state.live
            if live is None and not allow_new:
                raise GMError(f"{game_id} is not played live (create it as a live game)")
            cfg = live.config if live is not None else config
            assert cfg is not None
            new = act(tx, cfg, live.state if live is not None else None)
            tx.record(LiveChanged.of(action, tx.state.phase, {**detail, **(extra or {})}, new.to_dict(),
                                     cfg.to_dict() if live is None else ABSENT))
            return new


def _running(st: LiveState | None) -> LiveState:
    assert st is not None
    return st


__all__ = ["LiveTable", "TableEvent"]
