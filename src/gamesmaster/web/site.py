"""What the pages and the JSON API show and do: one code path over the `gm` calls.

Every function here takes the `Gamesmaster` and returns plain data (dicts, lists,
strings) that the API sends as JSON and the templates lay out. Nothing here reads a
request; who may see what is decided by the gm calls (a player's credential for its own
orders and letters, `by_gm` only after the GM credential was checked by the caller).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, Iterable, Mapping, Sequence

from ..gm import Gamesmaster, GMError, NotFound, answer_orders
from ..gm.conditional import parse_conditional, split_submission
from ..gm.report import results_with_removals
from ..gm.settings import Settings, parse_duration, parse_movement
from ..rules import Outcome, Phase, PhaseError, Position, RuleOptions, format_order, parse_order
from ..rules.orders import Build, Convoy, Move, Order, Retreat, Support, Waive
from ..rules.possible import possible_orders
from ..variants import load_rules, load_variant, preset_names, variant_names
from ..variants.presets import describe_rules, options_catalogue, preset_title, value_key

GM = "GM"

# -- small helpers -----------------------------------------------------------------------


def phase_title(phase: str | None) -> str:
    if not phase:
        return "-"
    try:
        return Phase.parse(phase).title
    except (PhaseError, ValueError):
        return phase


def parse_phase(text: str) -> str:
    """A phase named in a request ('S1901M', case-insensitive); GMError if it does not read."""
    try:
        return str(Phase.parse(str(text).strip().upper()))
    except (PhaseError, ValueError) as exc:
        raise GMError(str(exc)) from None


def powers_info(variant_name: str) -> list[dict[str, str]]:
    variant = load_variant(variant_name)
    return [{"power": p.id, "name": p.name, "adjective": p.adjective, "colour": p.colour}
            for p in variant.powers.values()]


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


# -- games -------------------------------------------------------------------------------


def summary(st: Mapping[str, Any]) -> dict[str, Any]:
    """A game as the games list shows it (from gm.status): nothing secret."""
    variant = load_variant(st["variant"])
    powers = []
    for p in st["powers"]:
        info = variant.powers[p["power"]]
        powers.append({"power": p["power"], "name": info.name, "colour": info.colour, "player": p["player"],
                       "centres": p["centres"], "units": p["units"], "to_order": p["to_order"],
                       "ordered": bool(p["ordered"] or p["standby_ordered"]), "ready": p["ready"],
                       "missed": p["missed"], "standby": p["standby"]})
    return {"id": st["id"], "title": st["title"], "status": st["status"], "variant": st["variant"],
            "variant_title": variant.title, "rules": st["rules"], "phase": st["phase"] or None,
            "phase_title": st["phase_title"], "deadline": _iso(st["deadline"]), "deadline_text": st["deadline_text"],
            "powers": powers, "result": st["result"], "press": st["settings"]["press"],
            "victory_centres": variant.victory_centres}


def games(gm: Gamesmaster) -> list[dict[str, Any]]:
    """Every game, with variant, season, deadline, powers and centre counts."""
    out = []
    for row in gm.games():
        try:
            out.append(summary(gm.status(row["id"])))
        except GMError:  # a game removed meanwhile
            continue
    return out


def current_position(st: Mapping[str, Any]) -> Position | None:
    if not st.get("position"):
        return None
    return Position.from_dict(load_variant(st["variant"]), st["position"])


def game(gm: Gamesmaster, game_id: str) -> dict[str, Any]:
    """A game's public page: summary, centre ownership, last results, public press, proposals."""
    st = gm.status(game_id)
    out = summary(st)
    pos = current_position(st)
    variant = load_variant(st["variant"])
    out["settings"] = st["settings"]
    out["ownership"] = []
    if pos is not None:
        for p in variant.powers:
            cs = sorted(pos.centres_of(p))
            out["ownership"].append({"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour,
                                     "centres": cs, "names": [pos.map.provinces[c].name for c in cs]})
        owned = {c for p in variant.powers for c in pos.centres_of(p)}
        out["unowned"] = sorted(c for c in variant.supply_centres if c not in owned)
    published = gm.results(game_id)
    out["last_results"] = phase_record(published[-1], variant) if published else None
    out["phases"] = [p["phase"] for p in published]
    out["press"] = public_press(gm, game_id)
    out["proposals"] = [public_proposal(p) for p in st["proposals"]]
    out["players"] = [{"name": p["name"], "role": p["role"], "power": p["power"], "standby_for": p["standby_for"]}
                      for p in st["players"] if p["role"] != "former"]
    out["flags"] = st["flags"]
    return out


def public_proposal(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": p["id"], "kind": p["kind"], "phase": p["phase"], "proposer": p["proposer"], "powers": p["powers"],
            "status": p["status"], "votes_cast": len(p["votes"])}


def public_press(gm: Gamesmaster, game_id: str) -> list[dict[str, Any]]:
    """The press everyone may read: public releases and GM notices (anonymous senders hidden)."""
    out = []
    for p in gm.press(game_id):
        if p["to"] is not None:
            continue
        item = dict(p)
        if item["anonymous"]:
            item["sender"] = "anonymous"
        item["sent_at"] = _iso(item["sent_at"])
        out.append(item)
    return out


def phase_record(row: Mapping[str, Any], variant: Any = None) -> dict[str, Any]:
    """A published phase: its orders' results, grouped by power, and the centre counts after."""
    variant = variant or load_variant(row["position"].get("variant", "standard"))
    results = results_with_removals(row)
    by_power: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by_power.setdefault(r["power"], []).append(r)
    sources = {p: v.get("source") for p, v in (row.get("orders") or {}).items()}
    nxt = row["next"]
    return {"phase": row["phase"], "title": phase_title(row["phase"]), "revision": row["revision"],
            "adjudicated_at": _iso(row["adjudicated_at"]), "results": results,
            "by_power": [{"power": p, "name": variant.powers[p].name if p in variant.powers else p,
                          "colour": variant.powers[p].colour if p in variant.powers else "#888",
                          "source": sources.get(p), "results": rs} for p, rs in by_power.items()],
            "not_ordered": [p for p in row["orders"] if not row["orders"][p].get("texts")] if row.get("orders") else [],
            "next_phase": nxt.get("phase"), "next_title": phase_title(nxt.get("phase")), "winner": row["winner"],
            "position": row["position"], "next": nxt}


def results(gm: Gamesmaster, game_id: str) -> list[dict[str, Any]]:
    st = gm.status(game_id)
    variant = load_variant(st["variant"])
    return [phase_record(r, variant) for r in gm.results(game_id)]


def result_of(gm: Gamesmaster, game_id: str, phase: str) -> dict[str, Any]:
    phase = parse_phase(phase)
    for r in results(gm, game_id):
        if r["phase"] == phase:
            return r
    raise NotFound(f"{phase_title(phase)} has not been published in {game_id}")


def centre_chart(gm: Gamesmaster, game_id: str, st: Mapping[str, Any] | None = None,
                 published: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """Supply-centre counts by power at the start of every year (and now): for the chart."""
    st = st or gm.status(game_id)
    variant = load_variant(st["variant"])
    published = gm.results(game_id) if published is None else published
    points: "OrderedDict[str, dict[str, int]]" = OrderedDict()
    for row in published:
        pos = row["position"]
        ph = Phase.parse(row["phase"])
        if ph.season == "S" and ph.is_movement:
            points[str(ph.year)] = {p: len(pos.get("centers", {}).get(p, [])) for p in variant.powers}
    last = published[-1]["next"] if published else st.get("position")
    if last:
        ph = Phase.parse(last["phase"])
        label = str(ph.year) if ph.season == "S" and ph.is_movement else f"{ph.year} ({phase_title(last['phase'])})"
        if ph.season != "S" or not ph.is_movement or str(ph.year) not in points:
            points[label] = {p: len(last.get("centers", {}).get(p, [])) for p in variant.powers}
        if st["status"] == "finished":
            points[label] = {p: len(last.get("centers", {}).get(p, [])) for p in variant.powers}
    return {"labels": list(points), "victory": variant.victory_centres,
            "series": [{"power": p, "name": variant.powers[p].name, "colour": variant.powers[p].colour,
                        "counts": [points[k][p] for k in points]} for p in variant.powers]}


def chart_svg(chart: Mapping[str, Any], width: int = 380, height: int = 250) -> str:
    """The centre-count chart as a small SVG (one line per power)."""
    from xml.sax.saxutils import escape
    labels = chart["labels"]
    series = chart["series"]
    top = max([chart["victory"]] + [max(s["counts"] or [0]) for s in series]) if series else 1
    top = max(top, 1)
    left, right, upper, lower = 28, 96, 12, 26
    w, h = width - left - right, height - upper - lower
    n = max(len(labels) - 1, 1)

    def x(i: int) -> float:
        return left + (w * i / n if len(labels) > 1 else w / 2)

    def y(v: float) -> float:
        return upper + h - h * v / top

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="Supply centres by year">']
    step = 2 if top <= 20 else 5
    for v in range(0, top + 1, step):
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e3e0d8"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="tick">{v}</text>')
    if chart["victory"] <= top:
        vy = y(chart["victory"])
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{vy:.1f}" y2="{vy:.1f}" stroke="#b33" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{left + w - 2}" y="{vy - 4:.1f}" text-anchor="end" class="tick victory">'
                   f'{chart["victory"]} to win</text>')
    for i, label in enumerate(labels):
        out.append(f'<text x="{x(i):.1f}" y="{height - 10}" text-anchor="middle" class="tick">{escape(label.split(" ")[0])}</text>')
    ends = []
    for s in series:
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s["counts"]))
        colour = escape(s["colour"])
        if len(s["counts"]) > 1:
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5" '
                       f'stroke-linejoin="round"><title>{escape(s["name"])}</title></polyline>')
        for i, v in enumerate(s["counts"]):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"><title>{escape(s["name"])}: '
                       f'{v} in {escape(labels[i])}</title></circle>')
        if s["counts"]:
            ends.append([y(s["counts"][-1]), s])
    ends.sort(key=lambda e: e[0])
    for i in range(1, len(ends)):  # keep the end labels apart, and within the chart
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 13)
    overflow = ends[-1][0] - (upper + h) if ends else 0
    if overflow > 0:
        for e in ends:
            e[0] -= overflow
    for ly, s in ends:
        out.append(f'<text x="{left + w + 8}" y="{ly + 4:.1f}" class="legend" fill="{escape(s["colour"])}">'
                   f'{escape(s["name"])} {s["counts"][-1]}</text>')
    out.append("</svg>")
    return "".join(out)


# -- maps --------------------------------------------------------------------------------

_CACHE: "OrderedDict[str, str]" = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 96


def _cached(key_parts: Any, make: Any) -> str:
    key = hashlib.sha256(json.dumps(key_parts, sort_keys=True, default=str).encode()).hexdigest()
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    value = make()
    with _CACHE_LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def outcomes_of(position: Position, rows: Iterable[Mapping[str, Any]], options: RuleOptions) -> list[Outcome]:
    """The published results as Outcomes (the canonical order read back) for drawing."""
    out = []
    for r in rows:
        order = None
        if r.get("order"):
            reading = parse_order(r["order"], position, r["power"], options)
            order = reading.order
        out.append(Outcome(r["power"], r["text"], order, r["result"], r["reason"], tuple(r.get("notes") or ())))
    return out


def map_svg(gm: Gamesmaster, game_id: str, phase: str | None = None, *, results: bool = True,
            orders: Mapping[str, Sequence[str]] | None = None, highlight: str | None = None,
            width: int = 1200) -> str:
    """The map of a game now (phase None) or of a published phase with its orders and results."""
    from .mapsvg import render_map
    st = gm.status(game_id)
    variant = load_variant(st["variant"])
    row = None
    if phase is not None:
        wanted = parse_phase(phase)
        row = next((r for r in gm.results(game_id) if r["phase"] == wanted), None)
        if row is None and wanted != st["phase"]:
            raise NotFound(f"{phase_title(wanted)} has not been published in {game_id}")
    if row is None:
        if st["position"] is None:
            raise GMError(f"{game_id} has not started: there is no map yet")
        pos_doc, rules, rows = st["position"], st["rules"], []
    else:
        pos_doc, rules, rows = row["position"], row["rules"], results_with_removals(row) if results else []

    def make() -> str:
        position = Position.from_dict(variant, pos_doc)
        options = load_rules(rules, default=variant.default_rules)
        outcomes = outcomes_of(position, rows, options) if rows else None
        return render_map(position, orders=orders, outcomes=outcomes, highlight_power=highlight,
                          title=position.phase.title, width=width, rules=options)

    return _cached(["map", pos_doc, rules, rows, orders, highlight, width], make)


def map_png(gm: Gamesmaster, game_id: str, phase: str | None = None, *, results: bool = True,
            width: int = 1200) -> bytes:
    from .mapsvg import render_png
    if not 200 <= width <= 4000:
        raise GMError(f"width {width}: choose between 200 and 4000 pixels")
    svg = map_svg(gm, game_id, phase, results=results)
    return render_png(svg, width)


def inline_svg(svg: str) -> str:
    """An SVG document for inlining in HTML (no XML declaration)."""
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    return svg


# -- rules ---------------------------------------------------------------------------------


def rules_view(gm: Gamesmaster, game_id: str) -> dict[str, Any]:
    """The game's rule options in words, and how it is run (press, deadlines, NMR, replacement)."""
    st = gm.status(game_id)
    variant = load_variant(st["variant"])
    options = load_rules(st["rules"], default=variant.default_rules)
    catalogue = options_catalogue()["option"]
    values = options.as_dict()
    lines = describe_rules(options)
    base = options.preset or variant.default_rules
    base_values = load_rules(base).as_dict() if base in preset_names() else {}
    items = []
    names = [n for n in RuleOptions().as_dict() if n != "preset"]
    for name, line in zip(names, lines):
        entry = catalogue[name]
        items.append({"option": name, "title": entry["title"], "section": entry["section"],
                      "question": entry["explanation"], "value": value_key(values[name]),
                      "text": line.split(": ", 1)[1] if ": " in line else line,
                      "changed": bool(base_values) and base_values.get(name) != values[name]})
    settings = Settings.from_dict(st["settings"])
    running = [
        ("Press", {"none": "No press: only the gamesmaster's notices.",
                   "public": "Public announcements only; no private letters.",
                   "full": "Public announcements and private letters between powers.",
                   "anonymous": "Public and private press; a release may hide its sender from the other players."}[settings.press]),
        ("Deadlines", settings.schedule.describe()[0].upper() + settings.schedule.describe()[1:] + "."),
        ("Missed orders", (f"A player who has not ordered at a movement deadline gets one grace period of "
                           f"{settings.grace_hours:g} hours; then civil disorder." if settings.grace_hours else
                           "A power with no orders at the deadline is in civil disorder for the season: "
                           "its units hold and do not support each other.")),
        ("Replacement", {"none": "Civil disorder until the gamesmaster replaces the player.",
                         "standby": "The first free stand-by is asked to send the next move; if the player sends it "
                                    "instead, the player keeps the country.",
                         "successor": "A player plays until resigning, and names a successor.",
                         "gm": "The gamesmaster appoints a neutral stand-by."}[settings.replacement]),
        ("Early processing", "Retreats and adjustments are processed as soon as every power concerned has ordered"
                             + ("; a movement phase once every player has ordered and marked ready." if settings.early_movement
                                else "; movement waits for the deadline.")),
        ("Draws", f"A draw or concession passes by {'a unanimous vote' if settings.draw_vote == 'unanimous' else 'a majority'} "
                  "of the surviving powers."),
    ]
    if options.last_year:  # the rules' short game, however it was set (--end-year or the rules)
        running.append(("Short game", f"After {options.last_year}, the power with the most units on the board wins."))
    return {"id": st["id"], "title": st["title"], "variant": st["variant"], "variant_title": variant.title,
            "victory_centres": variant.victory_centres, "preset": base,
            "preset_title": preset_title(base) if base in preset_names() else base,
            "rules": st["rules"], "options": items, "settings": [{"name": k, "text": v} for k, v in running],
            "fixed": [{"title": e["title"], "section": e["section"], "text": e["explanation"]}
                      for e in options_catalogue().get("fixed", {}).values()]}


# -- the war room ------------------------------------------------------------------------


def _order_info(order: Order) -> dict[str, Any]:
    """An order for the war room's clickable options: its text and the provinces it names."""
    text = format_order(order)
    kind = type(order).__name__.lower()
    provs: list[str] = []
    dest = None
    unit = getattr(order, "unit", None)
    if unit is not None:
        provs.append(unit.province)
    if isinstance(order, (Move, Retreat)):
        dest = order.dest.province
        provs.append(dest)
    elif isinstance(order, Support):
        provs.append(order.supported.province)
        if order.dest is not None:
            dest = order.dest.province
            provs.append(dest)
    elif isinstance(order, Convoy):
        provs += [order.army.province, order.dest.province]
        dest = order.dest.province
    return {"text": text, "kind": kind, "unit": unit.province if unit is not None else None,
            "dest": dest, "provinces": provs, "via": bool(getattr(order, "via_convoy", False))}


def legal_options(position: Position, power: str, options: RuleOptions) -> list[dict[str, Any]]:
    """The power's units (or its adjustments) with every legal order, from rules.possible."""
    out = []
    for key, orders in possible_orders(position, power, options).items():
        if key == "adjust":
            label = "Builds" if any(isinstance(o, (Build, Waive)) for o in orders) else "Removals"
            out.append({"key": key, "unit": label, "province": None, "orders": [_order_info(o) for o in orders]})
            continue
        unit = position.unit_at(key)
        if position.phase.is_retreat:
            unit = next((d.unit for d in position.dislodged if d.unit.province == key and d.unit.power == power), unit)
        name = position.map.provinces[key].name
        out.append({"key": key, "unit": str(unit) if unit else key, "province": key, "name": name,
                    "orders": [_order_info(o) for o in orders]})
    return out


def answers_for(position: Position, power: str, text: str, options: RuleOptions) -> dict[str, Any]:
    """What the gamesmaster answers to these orders now (the same answer_orders the gm call uses)."""
    lines, cond = split_submission(text)
    answers, warnings = answer_orders(position, power, lines, options)
    out: dict[str, Any] = {"answers": [{"text": a.text, "status": a.status, "order": a.order, "message": a.message,
                                        "notes": list(a.notes)} for a in answers],
                           "warnings": warnings, "conditional": cond, "clauses": [], "conditional_error": None}
    if cond is not None:
        try:
            if not position.phase.is_movement:
                raise GMError("conditional orders ('next season:') can be filed only with movement orders")
            parsed = parse_conditional(cond, position, power, options)
            out["clauses"] = [f"{c.label}: {'; '.join(c.orders) or '(no orders)'}" for c in parsed.clauses]
        except GMError as exc:
            out["conditional_error"] = str(exc)
    return out


def war_room(gm: Gamesmaster, game_id: str, credential: str, who: Mapping[str, Any]) -> dict[str, Any]:
    """A power's page: its units and legal options, its orders on record (answered), its press, the votes."""
    st = gm.status(game_id)
    variant = load_variant(st["variant"])
    power = who["power"] if who["role"] == "player" else who.get("standby_for")
    out: dict[str, Any] = {"game": summary(st), "who": dict(who), "power": power, "settings": st["settings"]}
    if power is None:
        out.update(orders=None, options=[], press=[], proposals=[], can_order=False, records=[])
        return out
    pos = current_position(st)
    options = load_rules(st["rules"], default=variant.default_rules)
    info = variant.powers[power]
    out["power_name"], out["colour"] = info.name, info.colour
    me = next((p for p in st["powers"] if p["power"] == power), {})
    out["me"] = me
    out["can_order"] = bool(st["status"] in ("active", "paused") and me.get("to_order"))
    records = gm.orders_on_record(game_id, power, credential=credential)
    out["records"] = []
    for r in records:
        item = {k: _iso(v) for k, v in r.items()}
        if pos is not None and out["can_order"]:
            item.update(answers_for(pos, power, "\n".join(r["orders"]), options))
        out["records"].append(item)
    mine = next((r for r in out["records"] if r["author"] == ("standby" if who["role"] == "standby" else "player")), None)
    out["mine"] = mine
    text = "\n".join(mine["orders"]) if mine else ""
    if mine and mine.get("conditional"):
        text += "\n\nnext season:\n" + mine["conditional"]
    out["orders_text"] = text
    out["options"] = legal_options(pos, power, options) if pos is not None and out["can_order"] else []
    out["press"] = [dict(p, sent_at=_iso(p["sent_at"])) for p in gm.press(game_id, power, credential=credential)]
    out["proposals"] = [dict(public_proposal(p), my_vote=p["votes"].get(power)) for p in st["proposals"]]
    out["other_powers"] = [{"power": p, "name": variant.powers[p].name} for p in variant.powers if p != power]
    out["early_movement"] = bool(st["settings"].get("early_movement"))
    return out


# -- the GM console ------------------------------------------------------------------------


def catalogue() -> dict[str, Any]:
    """What the GM console offers: variants, presets (with every option's value), option explanations."""
    cat = options_catalogue()
    names = [n for n in RuleOptions().as_dict() if n != "preset"]
    presets = []
    for n in preset_names():
        presets.append({"name": n, "title": preset_title(n),
                        "values": {k: value_key(v) for k, v in load_rules(n).as_dict().items() if k != "preset"}})
    options = []
    for n in names:
        e = cat["option"][n]
        item = {"option": n, "title": e["title"], "section": e["section"], "explanation": e["explanation"],
                "values": [{"value": k, "text": v} for k, v in e.get("values", {}).items()]}
        if "range" in e:
            item["range"] = list(e["range"])
        if "value" in e:
            item["value_text"] = e["value"]
        options.append(item)
    variants = []
    for v in variant_names():
        var = load_variant(v)
        variants.append({"name": v, "title": var.title, "powers": list(var.powers), "default_rules": var.default_rules})
    return {"variants": variants, "presets": presets, "options": options,
            "press": ["none", "public", "full", "anonymous"], "replacement": ["none", "standby", "successor", "gm"],
            "draw_vote": ["unanimous", "majority"]}


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
    if low.lstrip("-").isdigit():
        return int(low)
    return str(text).strip()


def build_settings(*, press: str = "full", tz: str = "UTC", movement: str | None = None, min_gap: str | None = None,
                   retreats: str | None = None, adjustments: str | None = None, grace: str | None = None,
                   replacement: str = "none", early_movement: bool = False, draw_vote: str = "unanimous",
                   end_year: int | None = None) -> dict[str, Any]:
    """Game settings from the console's fields (durations like '24h', movement like 'tue,fri 22:00')."""
    schedule: dict[str, Any] = {"tz": (tz or "UTC").strip()}
    if movement and movement.strip():
        schedule.update(parse_movement(movement))
    if min_gap and str(min_gap).strip():
        schedule["min_hours"] = parse_duration(min_gap)
    if retreats and str(retreats).strip():
        schedule["retreat_hours"] = parse_duration(retreats)
    if adjustments and str(adjustments).strip():
        schedule["adjustment_hours"] = parse_duration(adjustments)
    settings = {"press": press, "schedule": schedule, "replacement": replacement,
                "grace_hours": parse_duration(grace) if grace and str(grace).strip() else 0.0,
                "early_movement": bool(early_movement), "draw_vote": draw_vote, "end_year": end_year}
    Settings.from_dict(settings)  # names any problem now
    return settings


def names(text: str | Sequence[str] | None) -> list[str]:
    if text is None:
        return []
    if isinstance(text, str):
        parts = text.replace("\n", ",").split(",")
    else:
        parts = list(text)
    return [" ".join(str(p).split()) for p in parts if str(p).strip()]
