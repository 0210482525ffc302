"""What the pages and the JSON API show and do: one code path over the `gm` calls.

Every function here takes the `Gamesmaster` and returns plain data (dicts, lists,
strings) that the API sends as JSON and the templates lay out. Nothing here reads a
request; who may see what is decided by the gm calls (a player's credential for its own
orders and letters, `by_gm` only after the GM credential was checked by the caller).
"""

from __future__ import annotations

import hashlib
import json
import re
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from ..gm import (
    Board,
    CentreChart,
    ChartSeries,
    Checking,
    Created,
    Dispute,
    GMError,
    GamePage,
    GameView,
    Gamesmaster,
    LegalOrders,
    Limited,
    PhaseRecord,
    PhaseResult,
    Position,
    PressItem,
    PublishedPhase,
    Proposal,
    ProposalShown,
    QuestionView,
    Reading,
    ReceiptCheck,
    SYSTEMS,
    Seat,
    SeatView,
    Settings,
    UnitOptions,
    WarRoom,
    acting_power,
    by_player,
    choices,
    drawn_png,
    end_setting,
    parse_duration,
    parse_movement,
    plain,
    plain_object,
    press_closed,
    rules_page,
    value_key,
)
from . import schemas

GM = "GM"

# -- small helpers -----------------------------------------------------------------------


def powers_info(variant: Any) -> list[dict[str, str]]:
    """The powers of a variant, for the GM console's choices."""
    return [{"power": p.id, "name": p.name, "adjective": p.adjective, "colour": p.colour}
            for p in variant.powers.values()]


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


# -- games -------------------------------------------------------------------------------


def summary(view: GameView) -> dict[str, Any]:
    """A game as the games list shows it: nothing secret."""
    variant = view.variant
    powers = [{"power": p.power, "name": p.name, "colour": p.colour, "player": p.player, "centres": p.centres,
               "units": p.units, "to_order": p.to_order, "ordered": p.ordered or p.standby_ordered, "ready": p.ready,
               "missed": p.missed, "standby": p.standby, "commitment": p.commitment}
              for p in view.powers]
    return {"id": view.id, "title": view.title, "status": view.status, "variant": variant.name,
            "variant_title": variant.title, "rules": view.rules_spec.to_json(), "phase": str(view.phase) if view.phase else None,
            "phase_title": view.phase_title, "deadline": _iso(view.deadline), "deadline_text": view.deadline_text,
            "powers": powers, "result": plain(view.result), "press": view.settings.press,
            "victory_centres": variant.victory_centres, "victory": view.victory.headline,
            "head": {"seq": view.head.seq, "hash": view.head.hash},
            "awaiting": view.awaiting.short if view.awaiting else None,
            "scoring": view.settings.scoring, "scores": dict(view.scores)}


def games(gm: Gamesmaster) -> list[dict[str, Any]]:
    """Every game, with variant, season, deadline, powers and centre counts."""
    return [summary(v) for v in gm.games.games()]


def game_json(gm: Gamesmaster, game_id: str) -> bytes:
    """The game's public document (game() as JSON), written once for each state of the game."""
    page = gm.games.game_page(game_id)
    return written(("game", game_id, page.game.version), lambda: game(page))


def position_json(gm: Gamesmaster, game_id: str) -> bytes:
    """The position now as JSON, written once for each version of the game's published record (only what
    publishes a phase moves the game to a new position)."""
    view = gm.games.game(game_id)
    if view.position is None:
        raise GMError(f"{game_id} has not started: there is no position yet")
    return written(("position", game_id, view.published_version), view.position.to_dict)


def written(key: Any, make: Any) -> bytes:
    """A JSON document kept by key (which must name everything it shows)."""
    return cast(bytes, _kept_as(key, lambda: json.dumps(make(), ensure_ascii=False, separators=(",", ":"),
                                                         default=_json_value).encode()))


def rendered(key: Any, make: Callable[[], str]) -> str:
    """A piece of a page as rendered, kept by key as `written` keeps documents (the key names everything it shows,
    a game's state by its view's version)."""
    return cast(str, _kept_as(key, make))


def _kept_as(key: Any, make: Callable[[], str | bytes]) -> str | bytes:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()
    value = _WRITTEN.get(digest)
    if value is None:
        value = make()
        _WRITTEN.put(digest, value)
    return value


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def game(page: GamePage) -> dict[str, Any]:
    """A game's public page: summary, centre ownership, last results, public press, proposals, commitments."""
    view = page.game
    out = summary(view)
    pos = view.position
    variant = view.variant
    out["settings"] = settings_doc(view.settings)
    out["ownership"] = []
    if pos is not None:
        for p in variant.powers:
            cs = sorted(pos.centres_of(p))
            out["ownership"].append({"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour,
                                     "centres": cs, "names": [pos.map.provinces[c].name for c in cs]})
        owned = {c for p in variant.powers for c in pos.centres_of(p)}
        out["unowned"] = sorted(c for c in variant.supply_centres if c not in owned)
    published = page.published
    out["last_results"] = phase_record(published[-1]) if published else None
    out["phases"] = [str(p.phase) for p in published]
    out["press"] = [press_item(p) for p in page.press]
    out["proposals"] = [public_proposal(p, view.settings.votes == "open") for p in view.proposals]
    out["players"] = [schemas.PlayerOut.written(SeatView.of(s)) for s in view.players()]
    out["deadlock"] = view.deadlock_pending
    out["player_scores"] = by_player(view.scores, view.seats)
    return out


def settings_doc(settings: Settings) -> dict[str, Any]:
    """A game's settings for the API, every one named (the record leaves out a default added later)."""
    return {**settings.to_dict(), "votes": settings.votes}


def public_proposal(p: Proposal, open_votes: bool = False) -> dict[str, Any]:
    """A proposal as everyone may see it: how many have voted; how each power voted only where votes are open."""
    return plain_object(ProposalShown.of(p, open_votes))


def press_item(p: PressItem) -> dict[str, Any]:
    """A press item as JSON (the API's PressOut)."""
    return schemas.PressOut.written(p)


def question_item(q: QuestionView) -> dict[str, Any]:
    """A question to the GM and its answers, as JSON (the API's QuestionOut)."""
    return schemas.QuestionOut.written(q)


def public_press(gm: Gamesmaster, game_id: str) -> list[dict[str, Any]]:
    """The press everyone may read: public releases and GM notices (anonymous senders hidden)."""
    return [press_item(p) for p in gm.press.public_press(game_id)]


def phase_record(r: PhaseResult) -> dict[str, Any]:
    """A published phase: its orders' results, grouped by power, and the position after (gm's PublishedPhase)."""
    return plain_object(PublishedPhase.of(r))


def results(gm: Gamesmaster, game_id: str) -> list[dict[str, Any]]:
    """Every published phase, in order."""
    return [phase_record(r) for r in gm.games.results(game_id)]


def result_of(gm: Gamesmaster, game_id: str, phase: str) -> dict[str, Any]:
    """One published phase."""
    return phase_record(gm.games.result(game_id, phase))


def chart_svg(chart: CentreChart, width: int = 380, height: int = 230) -> str:
    """The centre-count chart as a small SVG: one line per power at its true counts (tied powers'
    lines as one striped band), the years along the bottom, and a key below the plot (powers by
    centres now, in columns) so that tied powers never pile up."""
    from xml.sax.saxutils import escape
    labels = chart.labels
    series = chart.series
    top = max([chart.victory or 0] + [max(s.counts or (0,)) for s in series]) if series else 1
    top = max(top, 1)
    left, right, upper, lower = 28, 14, 12, 24
    w, h = width - left - right, height - upper - lower
    n = max(len(labels) - 1, 1)

    def x(i: int) -> float:
        return left + (w * i / n if len(labels) > 1 else w / 2)

    def y(v: float) -> float:
        return upper + h - h * v / top

    ranked = sorted(series, key=lambda s: (-(s.counts[-1] if s.counts else 0), s.name))
    columns = 3
    rows = -(-len(ranked) // columns)
    total = height + 8 + rows * 17
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {total}" '
           f'role="img" aria-label="Supply centres by year">']
    step = 2 if top <= 20 else 5
    for v in range(0, top + 1, step):
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e3e0d8"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="tick">{v}</text>')
    if chart.victory is not None and chart.victory <= top:
        vy = y(chart.victory)
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{vy:.1f}" y2="{vy:.1f}" stroke="#b33" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{left + w - 2}" y="{vy - 4:.1f}" text-anchor="end" class="tick victory">'
                   f'{chart.victory} to win</text>')
    # the bottom axis: each year once (a last point that is not a spring reads "now"), thinned to fit
    every = max(1, -(-len(labels) // max(1, int(w // 34))))
    for i, label in enumerate(labels):
        if i % every and i != len(labels) - 1:
            continue
        tick = label if " " not in label else "now"
        out.append(f'<text x="{x(i):.1f}" y="{upper + h + 16}" text-anchor="middle" class="tick">'
                   f'<title>{escape(label)}</title>{escape(tick)}</text>')
    # Every point stands at its true height: powers tied on a stretch of the chart share one line,
    # drawn as a band of nested strokes (the widest first) so that each colour shows along it, and
    # tied points are nested rings; nudging tied lines apart made equal counts look different.
    for i in range(len(labels) - 1):
        stretch: dict[tuple[int, int], list[ChartSeries]] = {}
        for s in series:
            stretch.setdefault((s.counts[i], s.counts[i + 1]), []).append(s)
        for (a, b), tied in stretch.items():
            for j, s in enumerate(tied):
                out.append(f'<line class="line" x1="{x(i):.1f}" y1="{y(a):.1f}" x2="{x(i + 1):.1f}" y2="{y(b):.1f}" '
                           f'stroke="{escape(s.colour)}" stroke-width="{2.5 + 1.5 * (len(tied) - 1 - j):g}" '
                           f'stroke-linecap="round"><title>{escape(s.name)}</title></line>')
    for i, label in enumerate(labels):
        spot: dict[int, list[ChartSeries]] = {}
        for s in series:
            spot.setdefault(s.counts[i], []).append(s)
        for v, tied in spot.items():
            for j, s in enumerate(tied):
                out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{3 + 1.2 * (len(tied) - 1 - j):g}" '
                           f'fill="{escape(s.colour)}"><title>{escape(s.name)}: {v} in {escape(label)}'
                           f'</title></circle>')
    col = (width - left) / columns
    for k, s in enumerate(ranked):
        cx, cy = left + (k % columns) * col, height + 8 + (k // columns) * 17
        out.append(f'<g class="legend-entry"><rect x="{cx:.1f}" y="{cy - 10}" width="11" height="11" rx="2" '
                   f'fill="{escape(s.colour)}"/><text x="{cx + 16:.1f}" y="{cy}" class="legend">'
                   f'{escape(s.name)} {s.counts[-1] if s.counts else 0}</text></g>')
    out.append("</svg>")
    return "".join(out)


# -- maps --------------------------------------------------------------------------------

class _Kept:
    """Answers already made (maps drawn, documents written), by what they show: bounded by their total
    size, the least recently used forgotten first."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.items: OrderedDict[str, str | bytes] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: str) -> str | bytes | None:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: str, value: str | bytes) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = value
            self.size += len(value)
            while self.size > self.max_bytes and len(self.items) > 1:
                _, old = self.items.popitem(last=False)
                self.size -= len(old)


_DRAWN = _Kept(96 * 1024 * 1024)
_WRITTEN = _Kept(32 * 1024 * 1024)
# Drawing a map takes a CPU for a while: two at once at most, whoever asks for how many.
_DRAWING = threading.BoundedSemaphore(2)
MAP_WIDTHS = (200, 2400)
# The widths a PNG is drawn at: a width asked is drawn at the first of these at least as wide, so one map
# is drawn at most six times however many widths are asked for (each new one cost 0.7 s of CPU).
PNG_WIDTHS = (400, 600, 800, 1200, 1600, 2400)
PNG_WAITING = 4  # PNGs waiting for the drawing process at once, beyond which a request is told to come back


def png_width(width: int) -> int:
    """The width a PNG asked for at `width` pixels is drawn at."""
    return next((w for w in PNG_WIDTHS if w >= width), PNG_WIDTHS[-1])


class _Rasteriser:
    """PNGs drawn in a process of their own, one at a time, a few waiting at most.

    resvg holds the GIL for the whole drawing (0.7 s at 1,200 pixels), so drawn in a thread it stalled
    every other request of the web process; in a process of its own it takes one CPU and nothing else."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None
        self.waiting = 0

    def png(self, svg: str, width: int) -> bytes:
        """The SVG drawn as a PNG `width` pixels wide; Limited when too many are waiting already."""
        with self.lock:
            if self.waiting >= PNG_WAITING:
                raise Limited("the gamesmaster is drawing other maps just now: try again in 5 seconds", 5)
            self.waiting += 1
            if self.pool is None:
                self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
            pool = self.pool
        try:
            return pool.submit(drawn_png, svg, width).result(timeout=120)
        except BrokenProcessPool:  # the drawing process died (killed, out of memory): a new one next time
            with self.lock:
                if self.pool is pool:
                    self.pool = None
            raise GMError("the map could not be drawn just now: try again") from None
        finally:
            with self.lock:
                self.waiting -= 1


_RASTERISER = _Rasteriser()


@dataclass(frozen=True)
class Drawn:
    """A map as drawn, with the tag that names exactly what it shows (for HTTP caching)."""

    content: str | bytes
    etag: str


def _cached(key_parts: Any, make: Any, may_draw: Callable[[], None] | None = None) -> Drawn:
    key = hashlib.sha256(json.dumps(key_parts, sort_keys=True, default=str).encode()).hexdigest()
    value = _DRAWN.get(key)
    if value is None and may_draw is not None:
        may_draw()  # the asker's budget for new drawings (raises Limited when it is spent)
    if value is None:
        with _DRAWING:
            value = _DRAWN.get(key)
            if value is None:
                value = make()
                _DRAWN.put(key, value)
    return Drawn(value, f'"{key[:32]}"')


def map_svg(gm: Gamesmaster, game_id: str, phase: str | None = None, *, results: bool = True,
            orders: Mapping[str, Sequence[str | Reading]] | None = None, highlight: str | None = None,
            width: int = 1200) -> Drawn:
    """The map of a game now (phase None) or of a published phase with its orders and results:
    the gm's board of that season (the same the mail door draws), with any orders (as written, or as the
    gamesmaster read them) and highlight."""
    board = gm.boards.board(game_id, phase, results=results)
    # orders as read are named by what was read: the drawing of a set is the same whichever way it came
    named = {p: [o if isinstance(o, str) else f"{o.text}\n{o.order!r}\n{o.error}" for o in os]
             for p, os in orders.items()} if orders else orders
    return _cached(["svg", board.key, named, highlight, width],
                   lambda: board.svg(orders=orders, highlight=highlight, width=width))


def board_svg(board: Board) -> Drawn:
    """A board's map as SVG, drawn within the same bound as every other map (the analysis board's)."""
    return _cached(["svg", board.key], board.svg)


def map_png(gm: Gamesmaster, game_id: str, phase: str | None = None, *, results: bool = True,
            width: int = 1200, may_draw: Callable[[], None] | None = None) -> Drawn:
    """The map as PNG, at the first of PNG_WIDTHS at least `width` wide (drawn once for each phase, size and
    results shown); may_draw is asked before a new drawing (the asker's budget)."""
    low, high = MAP_WIDTHS
    if not low <= width <= high:
        raise GMError(f"width {width}: choose between {low} and {high} pixels")
    svg = map_svg(gm, game_id, phase, results=results)
    drawn_at = png_width(width)
    return _cached(["png", svg.etag, drawn_at], lambda: _RASTERISER.png(str(svg.content), drawn_at), may_draw)


def inline_svg(drawn: Drawn | str) -> str:
    """An SVG document for inlining in HTML (no XML declaration)."""
    svg = str(drawn.content) if isinstance(drawn, Drawn) else drawn
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    return svg


# -- the record ------------------------------------------------------------------------------


def phase_record_view(record: PhaseRecord) -> dict[str, Any]:
    """A published phase's whole record (the API's PhaseRecordOut)."""
    return schemas.PhaseRecordOut.written(record)


def receipt_view(check: ReceiptCheck) -> dict[str, Any]:
    """What the record says of a receipt (the API's ReceiptOut)."""
    return schemas.ReceiptOut.written(check)


def dispute_view(d: Dispute) -> dict[str, Any]:
    """A dispute on the record (the API's DisputeOut)."""
    return schemas.DisputeOut.written(d)


# -- rules ---------------------------------------------------------------------------------


def rules_view(gm: Gamesmaster, game_id: str) -> dict[str, Any]:
    """The game's rule options in words, and how it is run (gm's rules page, as the API's RulesOut)."""
    return schemas.RulesOut.written(rules_page(gm.games.game(game_id)))


# -- the war room ------------------------------------------------------------------------


def legal_options(position: Position, legal: LegalOrders) -> list[dict[str, Any]]:
    """The power's units (or its adjustments) with every legal order."""
    return [plain_object(u) for u in UnitOptions.listed(position, legal)]


def answers(checking: Checking) -> dict[str, Any]:
    """The gamesmaster's answers to orders being written, as JSON."""
    return schemas.CheckingOut.written(checking)


def shown_credentials(created: Created) -> list[dict[str, Any]]:
    """The credentials of a new game as the GM's page shows them once: name, the powers commanded, secret."""
    return [{"name": n, "power": "/".join(created.commands.get(n, ())) or None, "credential": c}
            for n, c in created.credentials.items()]


def acts_for(seat: Seat, wanted: str | None = None) -> str | None:
    """The power a seat orders for now (gm.rooms.acting_power)."""
    return acting_power(seat, wanted)


def war_room(room: WarRoom) -> dict[str, Any]:
    """A power's page as the war room template lays it out, from the gm's one view of it.

    A player of several powers has one war room: `power` is the power being ordered, and
    `commands` lists every power the player commands with whether it has ordered."""
    view, seat, power = room.game, room.seat, room.power
    who = {"name": seat.name, "role": seat.role, "power": seat.power, "standby_for": seat.standby_for,
           "number": seat.number}
    out: dict[str, Any] = {"game": summary(view), "who": who, "power": power, "settings": settings_doc(view.settings),
                           "commands": [plain_object(c) for c in room.commands]}
    if power is None:
        out.update(orders=None, options=[], press=[], proposals=[], can_order=False, records=[], mine=None,
                   orders_text="", questions=[])
        return out
    info = view.variant.powers[power]
    out["power_name"], out["colour"] = info.name, info.colour
    out["me"] = next((p for p in out["game"]["powers"] if p["power"] == power), {})
    out["can_order"] = room.can_order
    out["records"] = []
    for r in room.records:
        item = {k: v for k, v in plain_object(r.orders).items() if k != "filed_phase"}
        if r.checking is not None:
            item.update(answers(r.checking))
        out["records"].append(item)
    mine = room.mine
    out["mine"] = out["records"][room.records.index(mine)] if mine is not None else None
    out["orders_text"] = room.orders_text
    out["options"] = [plain_object(u) for u in room.options]
    out["press"] = [press_item(p) for p in room.press]  # every power's it commands
    out["press_closed"] = press_closed(view.live.state) if view.live is not None else None
    out["questions"] = [question_item(q) for q in room.questions]
    out["proposals"] = [dict(public_proposal(p, view.settings.votes == "open"), my_vote=p.votes.get(power))
                        for p in view.proposals]
    out["other_powers"] = [{"power": p, "name": view.variant.powers[p].name} for p in view.variant.powers if p != power]
    out["early_movement"] = view.settings.early_movement
    return out


# -- the GM console ------------------------------------------------------------------------


def catalogue() -> dict[str, Any]:
    """What the GM console offers: variants, presets (with every option's value), option explanations."""
    cat = choices()
    presets = [{"name": p.name, "title": p.title,
                "values": {k: value_key(v) for k, v in p.options.as_dict().items() if k != "preset"}}
               for p in cat.presets]
    options = []
    for e in cat.options:
        item: dict[str, Any] = {"option": e.name, "title": e.title, "section": e.section,
                                "explanation": e.explanation, "values": [{"value": k, "text": v} for k, v in e.values]}
        if e.range is not None:
            item["range"] = list(e.range)
        if e.value_text is not None:
            item["value_text"] = e.value_text
        options.append(item)
    variants = [{"name": v.name, "title": v.title, "powers": list(v.powers), "default_rules": v.default_rules,
                 "players": v.players, "victory": v.victory} for v in cat.variants]
    return {"variants": variants, "presets": presets, "options": options,
            "press": ["none", "public", "full", "anonymous"], "replacement": ["preset", "none", "standby", "successor", "gm"],
            "draw_vote": ["unanimous", "majority"], "votes": ["secret", "open"], "scoring": list(SYSTEMS)}


_WHOLE = re.compile(r"-?[0-9]{1,18}")


def whole(text: str, *, signed: bool = False) -> int | None:
    """A whole number as typed in a form or a query (ASCII digits only, at most 18 of them, a '-' if signed);
    None for anything else ('²' is a digit to str.isdigit but not to int, 5,000 digits overflow the stores)."""
    text = text.strip()
    if not _WHOLE.fullmatch(text) or (text.startswith("-") and not signed):
        return None
    return int(text)


def rule_value(text: Any) -> Any:
    """An option's value as given in a form or JSON: booleans, whole numbers, 'none', or text."""
    if isinstance(text, (bool, int)) or text is None:
        return text
    low = str(text).strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    number = whole(low, signed=True)
    return number if number is not None else str(text).strip()


def build_settings(*, press: str = "full", tz: str = "UTC", movement: str | None = None, min_gap: str | None = None,
                   retreats: str | None = None, adjustments: str | None = None, grace: str | None = None,
                   replacement: str = "preset", early_movement: bool = False, draw_vote: str = "unanimous",
                   votes: str = "secret", end_year: int | None = None, end_at: str | None = None,
                   scoring: str = "none", min_reliability: float | None = None, min_games: int = 0) -> Settings:
    """Game settings from the console's fields (durations like '24h', movement like 'tue,fri 22:00').

    Every field is read, and a FormProblems names every one that does not read, not only the first."""
    problems: list[str] = []

    def read(label: str, parse: Any, text: str | None) -> Any:
        if not text or not str(text).strip():
            return None
        try:
            return parse(text)
        except (GMError, ValueError) as exc:
            problems.append(f"{label}: {exc}")
            return None

    schedule: dict[str, Any] = {"tz": (tz or "UTC").strip()}
    schedule.update(read("movement deadlines", parse_movement, movement) or {})
    for key, label, text in (("min_hours", "shortest movement phase", min_gap),
                             ("retreat_hours", "retreat phases", retreats),
                             ("adjustment_hours", "adjustment phases", adjustments)):
        value = read(label, parse_duration, text)
        if value is not None:
            schedule[key] = value
    settings = {"press": press, "schedule": schedule, "replacement": replacement,
                "grace_hours": read("grace period", parse_duration, grace) or 0.0,
                "early_movement": bool(early_movement), "draw_vote": draw_vote, "votes": votes, "end_year": end_year,
                "end_at": read("end at", lambda t: end_setting(t, schedule["tz"]), end_at), "scoring": scoring,
                "min_reliability": min_reliability, "min_games": min_games}
    read_settings: Settings | None = None
    try:
        read_settings = Settings.from_dict(settings)
    except (GMError, ValueError) as exc:
        problems.append(str(exc))
    if problems or read_settings is None:
        raise FormProblems(problems)
    return read_settings


class FormProblems(GMError):
    """Several fields of a form that do not read: each is named."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def names(text: str | Sequence[str] | None) -> list[str]:
    if text is None:
        return []
    if isinstance(text, str):
        parts = text.replace("\n", ",").split(",")
    else:
        parts = list(text)
    return [" ".join(str(p).split()) for p in parts if str(p).strip()]
