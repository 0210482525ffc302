"""The gamesmaster's letters: answers to orders, results, the position, status, history, press.

Plain text, 80 columns or so, as the e-mail judges wrote them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..gm.report import phase_title as title, results_with_removals
from ..gm.settings import show_time
from ..gm.views import Submission
from ..rules import Position
from ..rules.adjustments import balance
from ..rules.orders import Build, Remove, Retreat
from ..rules.possible import possible_orders
from ..variants import load_rules, load_variant


def cap(power: str) -> str:
    """A power's id as a name: 'ENGLAND' -> 'England'."""
    return power.capitalize()


def submission(sub: Submission) -> str:
    """A power's orders as read: each order, notes and warnings, the deadline and the receipt."""
    how = ""
    if sub.author == "standby":
        how = f" (from the stand-by, {sub.entered_by})"
    lines = [f"Orders of {cap(sub.power)} for {sub.phase_title} in {sub.game}{how}:"]
    if not sub.answers:
        lines.append("  (no orders: every unit will hold, or the rules' default applies)")
    for a in sub.answers:
        if a.status == "accepted":
            text = f"  '{a.text}' read as '{a.order}'"
        else:
            text = f"  '{a.text}' INVALID, will not be followed: {a.message}"
        if a.notes:
            text += " (" + "; ".join(a.notes) + ")"
        lines.append(text)
    for w in sub.warnings:
        lines.append(f"  note: {w}")
    if sub.conditional:
        lines.append("Conditional orders for the next season:")
        lines.extend(f"  {c}" for c in sub.conditional)
    lines.append(f"Due {sub.deadline_text}. Only the last set sent before the deadline counts: "
                 "a new set replaces this one.")
    lines.append(f"Receipt (the hash of the orders on record): {sub.receipt}")
    for p in sub.processed:
        lines.append(f"Every power concerned has ordered: {title(p)} was processed at once (results follow).")
    return "\n".join(lines)


def on_record(rows: Sequence[Mapping[str, Any]], power: str, phase_title: str) -> str:
    if not rows:
        return f"No orders on record for {cap(power)} for {phase_title}."
    out = []
    for r in rows:
        who = "" if r["author"] == "player" else f" (from the stand-by, {r['entered_by']})"
        out.append(f"Orders of {cap(r['power'])} for {phase_title} on record{who}, sent by {r['channel']}:")
        out.extend(f"  {o}" for o in r["orders"]) if r["orders"] else out.append("  (none)")
        if r["conditional"]:
            out.append("  next season:")
            out.extend(f"    {line}" for line in r["conditional"].splitlines())
        out.append(f"Receipt: {r['receipt']}")
    return "\n".join(out)


def position(doc: Mapping[str, Any], heading: str | None = None) -> list[str]:
    """The units and centres of a position (the adjudicate schema), power by power."""
    out = [heading] if heading else []
    units, centres = doc.get("units", {}), doc.get("centers", {})
    powers = list(dict.fromkeys([*units, *centres]))
    for p in powers:
        us, cs = units.get(p, []), sorted(centres.get(p, []))
        out.append(f"  {cap(p) + ':':9} {len(cs):2} centre{'s' if len(cs) != 1 else ' '}  "
                   f"units: {', '.join(us) or 'none'}")
        if cs:
            out.append(f"  {'':9}    centres: {', '.join(cs)}")
    for p, items in doc.get("dislodged", {}).items():
        for d in items:
            where = ", ".join(d.get("retreats") or []) or "nowhere: it will be disbanded"
            out.append(f"  dislodged: {cap(p)} {d['unit']} (attacked from {d['attacker']}); may retreat to {where}")
    if doc.get("standoffs"):
        out.append(f"  standoffs (no retreat there): {', '.join(doc['standoffs'])}")
    return out


def options(doc: Mapping[str, Any], power: str, rules: Any) -> list[str]:
    """What a power may order in the phase of this position: its retreats, builds or removals."""
    variant = load_variant(doc.get("variant", "standard"))
    pos = Position.from_dict(variant, doc)
    phase = pos.phase
    if phase.is_movement:
        n = len(pos.units_of(power))
        return [f"  {n} unit{'s' if n != 1 else ''} to order: {', '.join(str(u) for u in pos.units_of(power))}"] if n else []
    try:
        opts = load_rules(rules, default=variant.default_rules)
    except Exception:  # noqa: BLE001 - an odd rules record only loses the options list
        opts = None
    table = possible_orders(pos, power, opts)
    out: list[str] = []
    if phase.is_retreat:
        for prov, orders in table.items():
            unit = next((str(o.unit) for o in orders if hasattr(o, "unit")), prov)
            where = [str(o.dest) for o in orders if isinstance(o, Retreat)]
            out.append(f"  {unit}: retreat to {', '.join(where)}, or disband" if where
                       else f"  {unit}: no retreat is open: it will be disbanded")
        return out
    due = balance(pos, power)
    orders = table.get("adjust", [])
    if due > 0:
        builds = [str(o.unit) for o in orders if isinstance(o, Build)]
        if builds:
            out.append(f"  {due} build{'s' if due > 1 else ''} due; open: {', '.join(builds)} "
                       f"(write e.g. 'Build {builds[0]}'), or Waive")
        else:
            out.append(f"  {due} build{'s' if due > 1 else ''} due, but no home centre is open: none can be built")
    elif due < 0:
        removals = [str(o.unit) for o in orders if isinstance(o, Remove)]
        out.append(f"  {-due} removal{'s' if due < -1 else ''} due, from: {', '.join(removals)} "
                   f"(write e.g. 'Remove {removals[0] if removals else 'A PAR'}')")
    return out


def results(game: str, game_title: str, row: Mapping[str, Any], tz: str, power: str | None,
            now_phase: str | None, deadline_text: str, ended: Mapping[str, Any] | None) -> str:
    """The results of one adjudicated phase, as mailed to every player (power: the reader's, for options)."""
    phase = row["phase"]
    head = f"{game_title} ({game}): results of {title(phase)}"
    if row.get("revision"):
        head += f", corrected (revision {row['revision']})"
    out = [head, f"Adjudicated {show_time(row['adjudicated_at'], tz)}.", "", "Orders and results:"]
    by_power: dict[str, list[Mapping[str, Any]]] = {}
    for r in results_with_removals(row):
        by_power.setdefault(r["power"], []).append(r)
    concerned = list(row.get("position", {}).get("units", {}))
    for p in dict.fromkeys([*concerned, *by_power]):
        items = by_power.get(p, [])
        source = (row.get("orders", {}).get(p) or {}).get("source")
        extra = f" (orders from the {source})" if source and source not in ("player", "conditional") else ""
        if not items:
            if p in row.get("orders", {}):
                out.append(f"{cap(p)}{extra}: no orders")
            elif phase.endswith("M"):
                out.append(f"{cap(p)}: no orders received: civil disorder, its units hold")
            continue
        out.append(f"{cap(p)}{extra}:")
        for r in items:
            shown = r["order"] or f"'{r['text']}'"
            line = f"  {shown:22} {r['result']:8} ({r['reason']})"
            if r.get("order") and not r.get("by_rule") and r["text"].strip().upper() != r["order"]:
                line += f"  [written '{r['text']}']"
            out.append(line)
    nxt = row["next"]
    out.append("")
    out.extend(position(nxt, f"The position for {title(nxt.get('phase'))}:"))
    if ended:
        winners = ", ".join(cap(w) for w in ended.get("winners", []))
        out += ["", f"The game is over: {ended.get('kind')} ({winners}): {ended.get('reason', '')}."]
        return "\n".join(out) + "\n"
    if power:
        try:
            mine = options(nxt, power, row.get("rules"))
        except Exception:  # noqa: BLE001 - the options are a help, never a reason to lose the results
            mine = []
        if mine:
            out += ["", f"Your options ({cap(power)}) in {title(nxt.get('phase'))}:", *mine]
    out.append("")
    if now_phase == nxt.get("phase"):
        out.append(f"Next: {title(nxt.get('phase'))}, orders due {deadline_text}.")
    else:
        out.append(f"Next: {title(nxt.get('phase'))} (since processed; its results follow in another mail).")
    return "\n".join(out) + "\n"


def status(st: Mapping[str, Any], power: str | None, ordered: bool | None) -> str:
    out = [f"{st['title']} ({st['id']}): {st['status']}; variant {st['variant']}, rules "
           f"{st['rules'] if isinstance(st['rules'], str) else st['rules'].get('preset', 'custom')}, "
           f"press {st['settings']['press']}"]
    if st["status"] == "forming":
        out.append("  The game has not started: players are signing up.")
        return "\n".join(out)
    if st["status"] in ("active", "paused"):
        out.append(f"  {st['phase_title']}: " + ("the game is paused" if st["status"] == "paused"
                                                 else f"orders due {st['deadline_text']}"))
    out.append(f"  {'POWER':9} {'PLAYER':18} SC UNITS")
    for p in st["powers"]:
        out.append(f"  {cap(p['power']):9} {(p['player'] or '(no player)')[:18]:18} {p['centres']:2} {p['units']:5}")
    if st.get("position"):
        out.extend(position(st["position"], "Units and centres:"))
    if power is not None and ordered is not None and st["status"] == "active":
        out.append(f"  Your orders ({cap(power)}): {'on record' if ordered else 'none yet'}")
    for prop in st.get("proposals", []):
        out.append(f"  Open proposal {prop['id']}: {prop['kind']} "
                   f"{', '.join(cap(x) for x in prop['powers'])} (proposed by {cap(prop['proposer'])})")
    if st.get("result"):
        r = st["result"]
        out.append(f"  The game is over: {r['kind']}, {', '.join(cap(w) for w in r['winners'])} ({r['reason']})")
    return "\n".join(out)


def history(game: str, game_title: str, phases: Sequence[Mapping[str, Any]], press: Sequence[Mapping[str, Any]],
            tz: str, only: str | None = None) -> str:
    out = [f"History of {game_title} ({game})"]
    shown = [p for p in phases if only is None or p["phase"] == only]
    if only is not None and not shown:
        out.append(f"  {title(only)} has not been published in {game}.")
    for ph in shown:
        out.append("")
        out.append(f"{title(ph['phase'])}" + (f" (corrected, revision {ph['revision']})" if ph["revision"] else "")
                   + f": adjudicated {show_time(ph['adjudicated_at'], tz)}")
        for r in results_with_removals(ph):
            out.append(f"  {cap(r['power']):9} {(r['order'] or repr(r['text'])):22} {r['result']:8} ({r['reason']})")
    if press and only is None:
        out += ["", "Press you may read:"]
        for p in press:
            to = "all" if p["to"] is None else ", ".join(cap(x) for x in p["to"])
            body = p["text"].replace("\n", "\n    ")
            out.append(f"  [{show_time(p['sent_at'], tz)}] {cap(p['sender']) if p['sender'] != 'GM' else 'GM'} "
                       f"to {to}: {body}")
    return "\n".join(out)


def press_letter(game: str, game_title: str, p: Mapping[str, Any], tz: str) -> str:
    sender = "the gamesmaster" if p["sender"] == "GM" else ("anonymous" if p["sender"] == "anonymous" else cap(p["sender"]))
    to = "everyone" if p["to"] is None else ", ".join(cap(x) for x in p["to"])
    head = (f"{game_title} ({game}): notice from the gamesmaster" if p["sender"] == "GM"
            else f"{game_title} ({game}): press from {sender} to {to}")
    return (f"{head}\n{show_time(p['sent_at'], tz)}" + (f", {title(p['phase'])}" if p.get("phase") else "")
            + f"\n\n{p['text']}\n")


__all__ = ["submission", "on_record", "position", "options", "results", "status", "history", "press_letter",
           "title", "cap"]
