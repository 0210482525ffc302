"""Plain-text views of the gamesmaster's answers: for the console (and for e-mail later)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..rules.phase import Phase
from .settings import show_time
from .views import Correction, Processed, Submission, VerifyReport


def phase_title(phase: str | None) -> str:
    """A phase id in words ('S1901M' -> 'Spring 1901 movement'); '-' for none."""
    if not phase:
        return "-"
    try:
        return Phase.parse(phase).title
    except ValueError:
        return phase


CIVIL_DISORDER_REMOVAL = "removed by the civil-disorder rule: too few removals were ordered"


def results_with_removals(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A published phase's results and, after them, the units the civil-disorder rule removed.

    In an adjustment phase a power that orders too few removals loses units by the rule
    set's rule; no order of its own says so, but the recorded position after the phase
    does: a unit gone that no successful removal named was removed by the rule.
    """
    results = [dict(r) for r in row["results"]]
    if not str(row["phase"]).endswith("A"):
        return results
    ordered = {r["order"] for r in results if r["result"] == "succeeds" and r.get("order")}
    after = (row.get("next") or {}).get("units") or {}
    for power, units in ((row.get("position") or {}).get("units") or {}).items():
        kept = set(after.get(power, ()))
        for unit in units:
            if unit not in kept and f"{unit} D" not in ordered:
                results.append({"power": power, "text": "(civil disorder)", "order": f"{unit} D",
                                "result": "succeeds", "reason": CIVIL_DISORDER_REMOVAL, "by_rule": True})
    return results


def submission(sub: Submission) -> str:
    how = "" if sub.entered_by not in ("GM",) else " (entered by the gamesmaster"
    if how:
        how += f", {sub.channel})" if sub.channel != "console" else ")"
    if sub.author == "standby":
        how = f" (from the stand-by, {sub.entered_by})"
    lines = [f"Orders of {sub.power.capitalize()} for {sub.phase_title}{how}:"]
    if not sub.answers:
        lines.append("  (no orders)")
    for a in sub.answers:
        text = f"  {a.text}: {a.message}"
        if a.notes:
            text += "; " + "; ".join(a.notes)
        lines.append(text)
    for w in sub.warnings:
        lines.append(f"  note: {w}")
    if sub.conditional:
        lines.append("Conditional orders for the next season:")
        lines.extend(f"  {c}" for c in sub.conditional)
    lines.append(f"Due {sub.deadline_text}. Only the last set sent before the deadline counts.")
    lines.append(f"Receipt: {sub.receipt}")
    for p in sub.processed:
        lines.append(f"Every power concerned has ordered: {phase_title(p)} processed at once.")
    return "\n".join(lines)


def processed(items: Sequence[Processed]) -> str:
    if not items:
        return "Nothing was due."
    out = []
    for p in items:
        if p.action == "grace":
            out.append(f"{p.game}: {phase_title(p.phase)}: grace period; orders now due {p.deadline.isoformat() if p.deadline else '-'}")
            continue
        out.append(f"{p.game}: {phase_title(p.phase)} adjudicated.")
        out.extend(f"  {r['power']}: {r['order'] or r['text']} {r['result']} ({r['reason']})" for r in p.results)
        if p.civil_disorder:
            out.append(f"  civil disorder: {', '.join(x.capitalize() for x in p.civil_disorder)}")
        if p.ended:
            out.append(f"  The game is over: {p.ended['kind']}, {', '.join(w.capitalize() for w in p.ended['winners'])} "
                       f"({p.ended['reason']})")
        else:
            out.append(f"  Next: {phase_title(p.next_phase)}")
    return "\n".join(out)


def games(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return "No games yet (create one with: gamesmaster new GAME --players ...)."
    out = [f"{'GAME':20} {'STATUS':9} {'PHASE':8} DEADLINE"]
    for r in rows:
        out.append(f"{r['id']:20} {r['status']:9} {r['phase'] or '-':8} "
                   f"{r['deadline_text'] if r['status'] in ('active', 'paused') else '-'}")
    return "\n".join(out)


def status(st: Mapping[str, Any]) -> str:
    out = [f"{st['title']} ({st['id']}): {st['status']}",
           f"  variant {st['variant']}, rules {st['rules']}, press {st['settings']['press']}, "
           f"replacement {st['settings']['replacement']}"]
    if st["status"] == "forming":
        out.append("  players: " + (", ".join(p["name"] for p in st["players"] if p["role"] == "player") or "none yet"))
        return "\n".join(out)
    if st["status"] == "paused":
        out.append(f"  {st['phase_title']}: the game is paused (gamesmaster resume {st['id']} to restart the clock)")
    elif st["status"] == "active":
        out.append(f"  {st['phase_title']}: orders due {st['deadline_text']}")
    out.append(f"  {'POWER':9} {'PLAYER':18} SC UNITS ORDERS")
    for p in st["powers"]:
        if not p["to_order"]:
            orders = "-"
        elif p["ordered"]:
            orders = "received" + (" (ready)" if p["ready"] else "")
        elif p["standby_ordered"]:
            orders = "from the stand-by"
        else:
            orders = "none yet"
        player = p["player"] or "(no player)"
        extra = []
        if p["standby"]:
            extra.append(f"stand-by {p['standby']} called")
        if p["missed"]:
            extra.append(f"missed {p['missed']}")
        out.append(f"  {p['power'].capitalize():9} {player[:18]:18} {p['centres']:2} {p['units']:5} {orders}"
                   + (f"  [{'; '.join(extra)}]" if extra else ""))
    standbys = [p for p in st["players"] if p["role"] == "standby"]
    if standbys:
        out.append("  stand-bys: " + ", ".join(p["name"] + (f" (for {p['standby_for'].capitalize()})" if p["standby_for"] else "")
                                              for p in standbys))
    for prop in st["proposals"]:
        out.append(f"  open proposal {prop['id']}: {prop['kind']} {', '.join(x.capitalize() for x in prop['powers'])}")
    if st["flags"].get("deadlock"):
        out.append("  deadlock: the gamesmaster must decide whether the game goes on (gamesmaster draw --declare)")
    if st["result"]:
        out.append(final(st))
    return "\n".join(out)


def final(st: Mapping[str, Any], phases: Sequence[Mapping[str, Any]] = ()) -> str:
    """The final report: how the game ended, centres and units of every power, the centre chart."""
    r = st["result"]
    winners = ", ".join(w.capitalize() for w in r["winners"])
    head = {"victory": f"Victory: {winners}", "short-game": f"Short game won by {winners}",
            "draw": f"Draw: {winners}", "concession": f"Conceded to {winners}"}.get(r["kind"], r["kind"])
    out = [f"Final report: {head} ({r['reason']}), after {phase_title(r.get('phase'))}."]
    players = {p["power"]: p["name"] for p in st["players"] if p["role"] == "player"}
    for power, s in r.get("summary", {}).items():
        out.append(f"  {power.capitalize():9} {players.get(power, '(no player)')[:18]:18} "
                   f"{s['centres']:2} centres, {s['units']:2} units")
    chart: dict[int, dict[str, int]] = {}
    for ph in phases:
        nxt = ph["next"]
        if str(nxt.get("phase", "")).startswith(("W", "S")) and ph["phase"].startswith("F"):
            year = int(ph["phase"][1:-1])
            chart[year] = {p: len(v) for p, v in nxt.get("centers", {}).items()}
    if chart:
        powers = list(r.get("summary", {}))
        out.append("  Supply centres at the end of each year:")
        out.append("  " + "YEAR  " + " ".join(f"{p[:3]:>3}" for p in powers))
        for year in sorted(chart):
            out.append(f"  {year}  " + " ".join(f"{chart[year].get(p, 0):3}" for p in powers))
    return "\n".join(out)


def history(h: Mapping[str, Any], ledger: bool = False) -> str:
    tz = h["tz"]
    out = [f"History of {h['title']} ({h['id']})"]
    press = list(h["press"])
    for ph in h["phases"]:
        head = f"{phase_title(ph['phase'])}" + (f" (revision {ph['revision']})" if ph["revision"] else "")
        if not ph["current"]:
            head += " [superseded by a correction]"
        out.append("")
        out.append(f"{head}: adjudicated {show_time(ph['adjudicated_at'], tz)}, ledger entry {ph['ledger_seq']}")
        for power, info in ph["orders"].items():
            if info["source"] not in ("player",):
                out.append(f"  {power.capitalize()}: orders from {info['source']}")
        for r in results_with_removals(ph):
            out.append(f"  {r['power']}: {r['text']!r} -> {r['order'] or '?'} {r['result']} ({r['reason']})")
        missing = [p for p in _powers_with_units(ph["position"]) if p not in ph["orders"]]
        if missing and ph["phase"].endswith("M"):
            out.append(f"  civil disorder: {', '.join(p.capitalize() for p in missing)}")
    if press:
        out.append("")
        out.append("Press:")
        for p in press:
            to = "all" if p["recipients"] is None else ", ".join(p["recipients"])
            anon = " (anonymous)" if p["anonymous"] else ""
            body = p["text"].replace("\n", "\n      ")
            out.append(f"  [{show_time(p['sent_at'], tz)}] {p['sender']}{anon} to {to}: {body}")
    if ledger:
        out.append("")
        out.append("Ledger:")
        for e in h["ledger"]:
            out.append(f"  {e['seq']:5} {e['at']} {e['kind']:18} {e['hash'][:16]} {e['payload'][:100]}")
    if h["result"]:
        out.append("")
        r = h["result"]
        out.append(f"Result: {r['kind']}: {', '.join(w.capitalize() for w in r['winners'])} ({r['reason']})")
    return "\n".join(out)


def _powers_with_units(position: Mapping[str, Any]) -> list[str]:
    return [p for p, units in position.get("units", {}).items() if units]


def correction(c: Correction) -> str:
    out = [f"{c.game}: {phase_title(c.phase)} corrected ({c.reason})."]
    out.extend(f"  {d}" for d in c.differences)
    if c.next_phase:
        out.append(f"  Now: {phase_title(c.next_phase)}")
    return "\n".join(out)


def verify(r: VerifyReport) -> str:
    if r.ok:
        return (f"{r.game}: the record holds. {r.entries} ledger entries chained, {r.receipts_checked} receipts "
                f"checked, {r.phases_replayed} phases replayed through the engine with the same results.")
    out = [f"{r.game}: the record does NOT hold ({len(r.problems)} problem{'s' if len(r.problems) > 1 else ''}):"]
    out.extend(f"  {p}" for p in r.problems)
    return "\n".join(out)
