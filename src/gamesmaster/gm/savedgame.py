"""Games in and out in the `diplomacy` package's saved-game format (what research data sets publish).

A saved game is one JSON document: `id`, `map`, `rules` (the package's rule names) and
`phases`, each with its `name` ("S1901M"), the `state` at its start (units, dislodged
units marked `*` with their `retreats`, `centers`, `homes`, ...), the `orders` given, the
`results` by unit (`[]` when the order went as given, else codes such as `bounce`,
`void`, `dislodged`) and the `messages` sent during it. The last phase is the game as it
stands (no orders or results yet), or `COMPLETED` after the end.

`saved_game` writes any game that way, from its published phases (`gm.fates` gives the
result codes) and the position now. Only public press goes in while a game runs;
letters between powers too once it is over; anonymous releases never (the format has
no way to hide a sender). The package's `zobrist_hash` is written as "0": it is the
package's own hash of a position, which it recomputes when it loads a game.

`import_saved_game` reads one (the standard map, any number of phases) into a new
gamesmaster game: each phase's press is posted and each power's orders are submitted
by the GM through channel "import", and the phase is adjudicated by this engine, so the
imported game is an ordinary one (on the site, on the record, `verify` holds). The
import follows the file while this engine reaches the position the file records; at
the first phase where it does not, the game stops there (paused, with a notice). Every
phase of the file is also adjudicated on its own from the file's state, and each one
whose recorded result differs from this engine's is reported with the orders and the
reasons, so one difference does not hide the later ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence, cast

from ..ledger import JSONObject, JSONValue
from ..rules import (
    Adjudication,
    Phase,
    PhaseError,
    Position,
    PositionError,
    RuleOptions,
    adjudicate,
    format_order,
    powers_to_act,
)
from ..rules.adjustments import balance
from ..rules.variant import Variant
from ..variants import load_variant
from . import values as read
from .errors import GMError
from .fates import fates
from .games import GAME_ID
from .limits import PRESS_CHARS as MAX_PRESS
from .service import Gamesmaster
from .settings import RuleSpec, Settings
from .state import GM
from .views import GameView, PhaseResult, PressItem

COMPLETED = "COMPLETED"
SYSTEM, GLOBAL = "SYSTEM", "GLOBAL"
STANDARD_BOARDS = ("standard",)  # maps the package knows that gamesmaster variants are played on
MAX_PHASES = 5000
MAX_MESSAGES = 100_000
# The game JSON's `scoring_system` names (the specification of Meta's dipcc engine, which the
# package's loader ignores); ManorCon has no reserved name and is written under its own.
SAVED_SCORING = {"dss": "draw_size", "sos": "sum_of_squares", "c-diplo": "c_diplo_100", "carnage": "carnage",
                 "tribute": "tribute", "manorcon": "manorcon"}
FAILURES = frozenset({"bounce", "cut", "void", "no convoy", "disrupted", "dislodged", "disband"})


# -- export ------------------------------------------------------------------------------------


def map_name(view: GameView) -> str:
    """The package's map for a game: "standard" for every set-up on the standard board, else the variant's name."""
    return "standard" if view.variant.name.split("-")[0] in STANDARD_BOARDS else view.variant.name


def saved_game(view: GameView, results: Sequence[PhaseResult], press: Sequence[PressItem]) -> JSONObject:
    """A game in the saved-game format: every published phase, and the phase it is in now."""
    board = map_name(view)
    rules: list[JSONValue] = ["POWER_CHOICE", *(["NO_PRESS"] if view.settings.press == "none" else [])]
    common = {"game_id": view.id, "map": board, "rules": rules}  # in every phase's state
    # A game without press has no messages in the package's sense (its own check refuses NO_PRESS
    # with messages), so the GM's notices stay out of it too.
    messages = _messages(view, press) if view.settings.press != "none" else {}
    phases: list[dict[str, object]] = []  # built of JSON values, then returned as the JSON it is
    since = None  # when each phase's position came about: the previous phase's adjudication
    for result in results:
        state = _state(view, result.position, result.civil_disorder)
        state["timestamp"] = _microseconds(since or result.adjudicated_at)
        state.update(common)
        phases.append({"name": str(result.phase), "state": state, "orders": _orders(view, result),
                       "results": _results(result), "messages": messages.pop(str(result.phase), [])})
        since = result.adjudicated_at
    if view.position is not None:
        name = COMPLETED if view.result is not None else str(view.position.phase)
        state = _state(view, view.position, ())
        state["timestamp"] = _microseconds(since) if since else 0
        state["name"] = name
        if view.result is not None:
            state["note"] = f"{view.result.headline} ({view.result.reason})" + "".join(
                f"; {p.capitalize()} scores {v:.2f}" for p, v in view.result.scores.items())
        state.update(common)
        left = [m for ms in messages.values() for m in ms]
        phases.append({"name": name, "state": state, "orders": {p: None for p in view.variant.powers},
                       "results": {}, "messages": sorted(left, key=lambda m: cast(int, m["time_sent"]))})
    scoring = {"scoring_system": SAVED_SCORING[view.settings.scoring]} if view.settings.scoring != "none" else {}
    return {"id": view.id, "map": board, "rules": rules, **scoring, "phases": cast(list[JSONValue], phases)}


def _microseconds(when: datetime) -> int:
    """A time as the package writes it: microseconds since the epoch."""
    return int(when.timestamp() * 1_000_000)


def _state(view: GameView, position: Position, civil_disorder: Iterable[str]) -> dict[str, object]:
    """A position as the package's state of a phase."""
    variant = position.variant
    disorder = set(civil_disorder)
    units: dict[str, list[str]] = {}
    retreats: dict[str, dict[str, list[str]]] = {}
    for p in variant.powers:
        units[p] = [str(u) for u in position.units_of(p)]
        retreats[p] = {}
    for d in position.dislodged:
        units[d.unit.power].append(f"*{d.unit}")
        retreats[d.unit.power][str(d.unit)] = [str(loc) for loc in d.retreats or ()]
    builds: dict[str, dict[str, object]] = {}
    for p in variant.powers:
        count, homes = 0, []
        if position.phase.is_adjustment:
            count = balance(position, p)
            if count > 0:
                homes = [c for c in variant.powers[p].home_centres
                         if position.centres.get(c) == p and c not in position.units]
                count = min(count, len(homes))
        builds[p] = {"count": count, "homes": homes}
    return {
        "timestamp": 0, "zobrist_hash": "0", "note": "", "name": str(position.phase),
        "units": units, "retreats": retreats,
        "centers": {p: position.centres_of(p) for p in variant.powers},
        "homes": {p: list(variant.powers[p].home_centres) for p in variant.powers},
        # The package tracks where each power last stood; gamesmaster keeps no such thing,
        # so a power's influence is written as its centres and the provinces its units hold.
        "influence": {p: sorted({*position.centres_of(p), *(u.province for u in position.units_of(p))})
                      for p in variant.powers},
        "civil_disorder": {p: int(p in disorder) for p in variant.powers},
        "builds": builds,
    }


def _orders(view: GameView, result: PhaseResult) -> dict[str, list[str]]:
    """Each power's orders as the engine read them (canonical notation, which is the package's)."""
    out: dict[str, list[str]] = {p: [] for p in view.variant.powers}
    for r in result.results:
        if r.order and not r.by_rule:
            out[r.power].append(r.order)
    return out


def _results(result: PhaseResult) -> dict[str, list[str]]:
    """The package's result codes by unit."""
    out: dict[str, list[str]] = {}
    for fate in fates(result):
        if fate.unit is not None:
            out[str(fate.unit)] = list(fate.codes)
    return out


def _messages(view: GameView, press: Sequence[PressItem]) -> dict[str, list[JSONObject]]:
    """Press by phase, one message per recipient, times strictly increasing (the package keys messages by time)."""
    over = view.result is not None
    out: dict[str, list[JSONObject]] = {}
    last = 0
    for item in press:
        if item.anonymous or (item.to is not None and not over) or not item.phase:
            continue
        sender = SYSTEM if item.sender == GM else item.sender
        for recipient in (item.to or (GLOBAL,)):
            last = max(last + 1, _microseconds(item.sent_at))
            out.setdefault(item.phase, []).append({"sender": sender, "recipient": recipient, "time_sent": last,
                                                   "phase": item.phase, "message": item.text})
    return out


# -- reading a saved game ------------------------------------------------------------------------


@dataclass(frozen=True)
class FilePhase:
    """One phase of a saved game, read and checked."""

    name: str
    position: Position | None  # None for COMPLETED
    orders: Mapping[str, tuple[str, ...]]
    results: Mapping[str, tuple[str, ...]]
    messages: tuple[FileMessage, ...]


@dataclass(frozen=True)
class FileMessage:
    """A message of a saved game's phase, as the file has it (a power, GLOBAL or SYSTEM on either side)."""

    sender: str
    recipient: str
    message: str

    @classmethod
    def read(cls, doc: Mapping[str, JSONValue]) -> "FileMessage":
        """From the file's message object."""
        return cls(str(doc.get("sender") or "").upper(), str(doc.get("recipient") or "").upper(),
                   str(doc.get("message") or "").strip())


def read_saved_game(given: JSONValue) -> tuple[str, list[FilePhase], list[str]]:
    """The id, phases and rule names of a saved game (JSON as read); GMError names what is wrong with it."""
    if not isinstance(given, dict) or not isinstance(given.get("phases"), list):
        raise GMError("not a saved game: expected a JSON object with a list of \"phases\"")
    doc = given
    board = str(doc.get("map", "standard"))
    if board != "standard":
        raise GMError(f"map {board!r}: only saved games on the standard map can be imported")
    listed = read.items(doc["phases"], "the saved game's phases")
    if not listed:
        raise GMError("the saved game has no phases")
    if len(listed) > MAX_PHASES:
        raise GMError(f"the saved game has {len(listed)} phases; at most {MAX_PHASES} are read")
    variant = load_variant("standard")
    phases = []
    for i, raw in enumerate(listed):
        try:
            phases.append(_phase(variant, raw))
        except (KeyError, TypeError, ValueError, AttributeError, PositionError, PhaseError) as exc:
            name = raw.get("name") if isinstance(raw, Mapping) else None
            raise GMError(f"phase {i + 1} ({name or 'unnamed'}) of the saved game cannot be read: {exc}") from None
    if sum(len(p.messages) for p in phases) > MAX_MESSAGES:
        raise GMError(f"the saved game has more than {MAX_MESSAGES} messages")
    rules = [r for r in read.items(doc.get("rules") or [], "the saved game's rules") if isinstance(r, str)]
    return str(doc.get("id") or "imported"), phases, rules


def _phase(variant: Variant, given: JSONValue) -> FilePhase:
    raw = cast(dict[str, Any], given)  # a foreign file: read_saved_game names what does not read
    name = str(raw["name"])
    state = raw["state"]
    orders = {str(p).upper(): tuple(str(o) for o in (v or ())) for p, v in (raw.get("orders") or {}).items()}
    results = {str(u): tuple(str(c) for c in (v or ())) for u, v in (raw.get("results") or {}).items()}
    messages = tuple(FileMessage.read(m) for m in raw.get("messages") or () if isinstance(m, Mapping))
    if name == COMPLETED:
        return FilePhase(name, None, orders, results, messages)
    Phase.parse(name)
    return FilePhase(name, position_of(variant, name, state), orders, results, messages)


def position_of(variant: Variant, name: str, given: JSONValue) -> Position:
    """A saved game's state as a gamesmaster position (dislodged units are the ones marked '*').

    PositionError (or KeyError, TypeError, ...) when the state does not read."""
    state = cast(dict[str, Any], given)  # a foreign file: a part that does not read raises
    units: dict[str, list[str]] = {}
    dislodged: dict[str, list[JSONObject]] = {}
    retreats = state.get("retreats") or {}
    for power, listed in (state.get("units") or {}).items():
        for text in listed or ():
            text = str(text)
            if text.startswith("*"):
                unit = text[1:]
                where = (retreats.get(power) or {}).get(unit) or []
                dislodged.setdefault(power, []).append({"unit": unit, "retreats": list(where)})
            else:
                units.setdefault(power, []).append(text)
    doc = {"phase": name, "units": units, "centers": state.get("centers") or {}, "dislodged": dislodged}
    return Position.from_dict(variant, doc)


# -- comparing ---------------------------------------------------------------------------------------


def board_of(position: Position) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """What two positions must share to be the same: units, centres and dislodged units, with their powers."""
    return (frozenset(f"{u.power} {u}" for u in position.units.values()),
            frozenset(f"{p} {c}" for c, p in position.centres.items()),
            frozenset(f"{d.unit.power} {d.unit}" for d in position.dislodged))


def differences(want: Position, got: Position) -> list[str]:
    """How this engine's position differs from the file's, in words."""
    out = []
    if str(want.phase) != str(got.phase):
        out.append(f"the file goes on to {want.phase.title}, this engine to {got.phase.title}")
    for label, a, b in zip(("units", "supply centres", "dislodged units"), board_of(want), board_of(got)):
        if a - b:
            out.append(f"{label} only in the file: {', '.join(sorted(a - b))}")
        if b - a:
            out.append(f"{label} only here: {', '.join(sorted(b - a))}")
    return out


@dataclass(frozen=True)
class PhaseDifference:
    """A phase where the file's recorded result is not this engine's: the orders, what differs, and why."""

    phase: str
    orders: Mapping[str, tuple[str, ...]]
    differences: tuple[str, ...]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class ImportReport:
    """What `import_saved_game` did: the game made, how far it follows the file, every phase that differs."""

    game: str
    phases: int  # in the file
    replayed: int  # adjudicated in the imported game
    stopped_at: str | None  # the phase where the game stopped following the file
    messages: int
    differing: tuple[PhaseDifference, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)


def order_of(phase: Phase) -> tuple[int, int, int]:
    """A phase's place in the game: year, then season, then movement, retreats, adjustments."""
    return phase.year, "SFW".index(phase.season), "MRA".index(phase.kind)


def passed_over(phase: FilePhase, here: Position) -> bool:
    """Whether the file keeps a phase this engine skipped: earlier than where the engine is, on the same board."""
    return (phase.position is not None and order_of(phase.position.phase) < order_of(here.phase)
            and board_of(phase.position) == board_of(here))


def check_phase(phase: FilePhase, later: Sequence[FilePhase], options: RuleOptions) -> PhaseDifference | None:
    """Adjudicate one phase of the file from the file's own state and compare with where the file goes on."""
    assert phase.position is not None
    orders = {p: list(o) for p, o in phase.orders.items() if p in phase.position.variant.powers and o}
    adj = adjudicate(phase.position, orders, options)
    nxt = adj.next
    after = next((p for p in later if not passed_over(p, nxt)), later[-1])
    if after.position is None:
        return None  # COMPLETED: the file says nothing more of the board
    if str(after.position.phase) == str(nxt.phase) and board_of(after.position) == board_of(nxt):
        return None
    return PhaseDifference(phase.name, {p: tuple(o) for p, o in orders.items()},
                           tuple(differences(after.position, nxt)), tuple(_reasons(adj, phase)))


def _reasons(adj: Adjudication, phase: FilePhase) -> list[str]:
    """Orders whose outcome here is not the file's, with this engine's reason."""
    out = []
    for o in adj.outcomes:
        if o.order is None or not hasattr(o.order, "unit"):
            continue
        codes = phase.results.get(str(o.order.unit))
        if codes is None:
            continue
        theirs = not (set(codes) & FAILURES)
        ours = o.result == "succeeds"
        if theirs != ours:
            said = "succeeded" if theirs else f"failed ({', '.join(c for c in codes if c) or 'no code'})"
            out.append(f"{o.power.capitalize()} {format_order(o.order)}: in the file it {said}; "
                       f"here it {o.result}: {o.reason}")
    return out or ["every order has the outcome the file gives it; the position after the phase differs"]


def compare_file(phases: Sequence[FilePhase], options: RuleOptions) -> list[PhaseDifference]:
    """Every phase of the file adjudicated on its own; the ones whose result differs from the file's."""
    found = []
    for i, phase in enumerate(phases[:-1]):
        if phase.position is None:
            continue
        diff = check_phase(phase, phases[i + 1:], options)
        if diff is not None:
            found.append(diff)
    return found


# -- importing into a game ------------------------------------------------------------------------------


def import_id(source: str, wanted: str | None) -> str:
    """The game id to import under: the one asked for, or the file's id made into one."""
    if wanted:
        return wanted
    slug = re.sub(r"[^a-z0-9_-]+", "-", source.lower()).strip("-_")[:64] or "imported"
    return slug if GAME_ID.match(slug) else f"g{slug}"[:64]


def import_saved_game(gm: Gamesmaster, doc: JSONValue, game_id: str | None = None,
                      rules: str | RuleSpec | None = None) -> ImportReport:
    """Replay a saved game into a new game (orders entered by the GM, channel "import"); report every difference."""
    source, phases, names = read_saved_game(doc)
    new_id = import_id(source, game_id)
    if not GAME_ID.match(new_id):
        raise GMError(f"game id {new_id!r}: use lowercase letters, digits, '-' or '_' (--as)")
    first = phases[0].position
    if first is None:
        raise GMError("the saved game's first phase is COMPLETED: there is nothing to replay")
    spec = rules if isinstance(rules, RuleSpec) else RuleSpec(rules or "2023")
    options = spec.options("2023")
    messages = sum(len(p.messages) for p in phases)
    press = "none" if "NO_PRESS" in names and not messages else "full"
    variant = first.variant
    players = {p: f"{variant.powers[p].name} (imported)" for p in variant.powers}
    start = None if board_of(first) == board_of(Position.initial(variant)) and first.phase == variant.start \
        else first
    gm.setup.create_game(new_id, title=f"{source} (imported saved game)", rules=spec,
                   settings=Settings.from_dict({"press": press}), players=list(players.values()),
                   assign={name: power for power, name in players.items()}, position=start)
    notes: list[str] = []
    try:
        replayed, stopped = _replay(gm, new_id, phases, notes)
    except GMError as exc:  # the game made so far stays, as far as it got, and says why it stopped
        replayed, stopped = len(gm.games.results(new_id)), f"the gamesmaster refused part of the file: {exc}"
    differing = compare_file(phases, options)
    if stopped is not None:
        gm.press.post_press(new_id, f"The import stops following the saved game here: {stopped}", by_gm=True)
    elif phases[-1].position is None:
        notes.append("the saved game is over (COMPLETED); the imported game is paused where it ended")
    view = gm.games.game(new_id)
    if view.status == "active":
        gm.deadlines.pause(new_id, reason="imported from a saved game; resume it to play on")
    return ImportReport(new_id, len(phases), replayed, stopped, messages, tuple(differing), tuple(notes))


def _replay(gm: Gamesmaster, game_id: str, phases: Sequence[FilePhase], notes: list[str]) -> tuple[int, str | None]:
    """Follow the file phase by phase while this engine reaches the file's positions; (phases adjudicated, why stopped)."""
    replayed = 0
    for i, phase in enumerate(phases):
        view = gm.games.game(game_id)
        if phase.position is None or view.status == "finished":
            return replayed, None
        here = view.position
        assert here is not None  # created with a player for every power, the game started at once
        if str(here.phase) != phase.name:
            if passed_over(phase, here):
                continue  # a phase the package keeps and gamesmaster skips: nothing happened in it
            return replayed, (f"the file goes on to {Phase.parse(phase.name).title}, this engine to "
                              f"{here.phase.title}")
        if board_of(here) != board_of(phase.position):
            return replayed, "; ".join(differences(phase.position, here))
        _post(gm, game_id, phase, notes)
        if i == len(phases) - 1:
            return replayed, None
        to_act = set(powers_to_act(here))
        for power, orders in phase.orders.items():
            if power in to_act and orders:
                gm.orders.submit_orders(game_id, power, "\n".join(orders), by_gm=True, channel="import")
            elif orders and power in here.variant.powers:
                notes.append(f"{phase.name}: orders for {power.capitalize()}, which had nothing to order, were left out")
        if str(gm.games.game(game_id).phase) == phase.name:
            gm.deadlines.process(game_id, force=True)
        replayed += 1
    return replayed, None


def _post(gm: Gamesmaster, game_id: str, phase: FilePhase, notes: list[str]) -> None:
    """A phase's messages as press, entered by the GM in the sender's name."""
    variant = load_variant("standard")
    for m in phase.messages:
        text, sender, recipient = m.message, m.sender, m.recipient
        if not text:
            continue
        if len(text) > MAX_PRESS:
            notes.append(f"{phase.name}: a message from {sender} was cut to {MAX_PRESS:,} characters")
            text = text[:MAX_PRESS]
        to = None if recipient in (GLOBAL, "") else [recipient]
        if sender == SYSTEM or sender not in variant.powers or (to and to[0] not in variant.powers) or to == [sender]:
            heard = "everyone" if to is None else recipient.capitalize()
            gm.press.post_press(game_id, f"({sender.capitalize() or 'unknown'} to {heard}) {text}"[:MAX_PRESS], by_gm=True)
            continue
        gm.press.post_press(game_id, text, power=sender, to=to, by_gm=True)


def describe(report: ImportReport) -> str:
    """The import report in words, for the console."""
    lines = [f"Imported {report.game}: {report.replayed} of the file's {report.phases - 1} adjudicated phases "
             f"replayed through this engine; {report.messages} messages posted as press."]
    if report.stopped_at:
        lines.append(f"The game stops following the file there: {report.stopped_at}.")
    if not report.differing:
        lines.append("Every phase of the file has the result this engine gives it.")
    for d in report.differing:
        lines.append(f"\n{Phase.parse(d.phase).title} ({d.phase}): the file's result differs from this engine's.")
        for power, orders in sorted(d.orders.items()):
            lines.append(f"  {power.capitalize()}: {'; '.join(orders)}")
        lines.extend(f"  differs: {x}" for x in d.differences)
        lines.extend(f"  why: {x}" for x in d.reasons)
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines)


def export_saved_game(gm: Gamesmaster, game_id: str) -> JSONObject:
    """A game in the store, in the saved-game format."""
    return saved_game(gm.games.game(game_id), gm.games.results(game_id), gm.press.press(game_id))


def is_saved_game(doc: JSONValue) -> bool:
    """Whether a JSON document looks like a saved game (rather than a gamesmaster archive)."""
    return isinstance(doc, dict) and isinstance(doc.get("phases"), list) and "format" not in doc


__all__ = ["ImportReport", "PhaseDifference", "compare_file", "describe", "export_saved_game", "import_saved_game",
           "is_saved_game", "read_saved_game", "saved_game"]
