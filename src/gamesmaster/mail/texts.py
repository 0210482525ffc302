"""The gamesmaster's letters: answers to orders, results, the position, status, history, press.

Plain text, 80 columns or so, as the e-mail judges wrote them.
"""

from __future__ import annotations

from typing import Sequence

from ..gm import (Build, Dislodgement, Ending, GameView, LedgerHead, LegalOrders, OrderResult, OrdersOnRecord,
                  PhaseRecord, PhaseResult, Position, PressItem, ReceiptCheck, Remove, Retreat, Submission,
                  legal_orders_in, phase_title as title, show_time, source_words, standby_note,
                  warnings_and_conditional)


def cap(power: str) -> str:
    """A power's id as a name: 'ENGLAND' -> 'England' (and the gamesmaster stays 'GM')."""
    return "GM" if power.upper() == "GM" else power.capitalize()


def submission(sub: Submission) -> str:
    """A power's orders as read: each order, notes and warnings, the deadline and the receipt."""
    lines = [f"Orders of {cap(sub.power)} for {sub.phase_title} in {sub.game}{standby_note(sub)}:"]
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
    lines.extend(warnings_and_conditional(sub))
    lines.append(f"Due {sub.deadline_text}. Only the last set sent before the deadline counts: "
                 "a new set replaces this one.")
    lines.append(f"Receipt: {sub.receipt}")
    lines.append("  (keep it: once the results are out, send RECEIPT and the receipt to check that these are the "
                 "orders on the record)")
    for p in sub.processed:
        lines.append(f"Every power concerned has ordered: {title(p)} was processed at once (results follow).")
    return "\n".join(lines)


def on_record(rows: Sequence[OrdersOnRecord], power: str, phase_title: str) -> str:
    """A power's orders on record, with their receipts."""
    if not rows:
        return f"No orders on record for {cap(power)} for {phase_title}."
    out = []
    for r in rows:
        who = "" if r.author == "player" else f" (from the stand-by, {r.entered_by})"
        out.append(f"Orders of {cap(r.power)} for {phase_title} on record{who}, sent by {r.channel}:")
        out.extend(f"  {o}" for o in r.orders) if r.orders else out.append("  (none)")
        if r.conditional:  # from its first heading ('next season:', 'retreats:' ...)
            out.extend(f"  {line}" for line in r.conditional.splitlines())
        out.append(f"Receipt: {r.receipt}")
    return "\n".join(out)


def position(pos: Position, heading: str | None = None) -> list[str]:
    """The units and centres of a position, power by power."""
    out = [heading] if heading else []
    powers = pos.variant.powers
    listed = [p for p in powers if pos.units_of(p)] + [p for p in powers if pos.centres_of(p) and not pos.units_of(p)]
    for p in listed:
        us, cs = [str(u) for u in pos.units_of(p)], sorted(pos.centres_of(p))
        out.append(f"  {cap(p) + ':':9} {len(cs):2} centre{'s' if len(cs) != 1 else ' '}  "
                   f"units: {', '.join(us) or 'none'}")
        if cs:
            out.append(f"  {'':9}    centres: {', '.join(cs)}")
    by_power: dict[str, list[Dislodgement]] = {}
    for d in sorted(pos.dislodged, key=lambda d: d.unit.province):
        by_power.setdefault(d.unit.power, []).append(d)
    for p, items in by_power.items():
        for d in items:
            where = ", ".join(str(loc) for loc in d.retreats or ()) or "nowhere: it will be disbanded"
            out.append(f"  dislodged: {cap(p)} {d.unit} (attacked from {d.attacker}); may retreat to {where}")
    if pos.standoffs:
        out.append(f"  standoffs (no retreat there): {', '.join(sorted(pos.standoffs))}")
    return out


def options(pos: Position, power: str, legal: LegalOrders) -> list[str]:
    """What a power may order in the phase of this position: its retreats, builds or removals."""
    phase = pos.phase
    if phase.is_movement:
        n = len(pos.units_of(power))
        return [f"  {n} unit{'s' if n != 1 else ''} to order: {', '.join(str(u) for u in pos.units_of(power))}"] if n else []
    table = legal.by_unit
    out: list[str] = []
    if phase.is_retreat:
        for prov, orders in table.items():
            unit = next((str(o.unit) for o in orders if hasattr(o, "unit")), prov)
            where = [str(o.dest) for o in orders if isinstance(o, Retreat)]
            out.append(f"  {unit}: retreat to {', '.join(where)}, or disband" if where
                       else f"  {unit}: no retreat is open: it will be disbanded")
        return out
    due = legal.due
    orders = table.get("adjust", ())
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


def results(game: str, game_title: str, row: PhaseResult, tz: str, powers: Sequence[str],
            now_phase: str | None, deadline_text: str, ended: Ending | None, head: LedgerHead) -> str:
    """The results of one adjudicated phase, as mailed to every player (powers: the reader's, for options)."""
    phase = str(row.phase)
    head_line = f"{game_title} ({game}): results of {row.title}"
    if row.revision:
        head_line += f", corrected (revision {row.revision})"
    out = [head_line, f"Adjudicated {show_time(row.adjudicated_at, tz)}.", "", "Orders and results:"]
    by_power: dict[str, list[OrderResult]] = {}
    for r in row.results:
        by_power.setdefault(r.power, []).append(r)
    concerned = [p for p in row.variant.powers if row.position.units_of(p)]
    for p in dict.fromkeys([*concerned, *by_power]):
        items = by_power.get(p, [])
        used = row.orders.get(p)
        source = used.source if used else None
        extra = f" (orders from {source_words(source)})" if source and source not in ("player", "conditional") else ""
        if not items:
            if used is not None:
                out.append(f"{cap(p)}{extra}: no orders")
            elif phase.endswith("M") and p in row.position.neutral:  # nobody plays it (rulebook XIV.2)
                out.append(f"{cap(p)}: neutral, its units hold")
            elif phase.endswith("M"):
                out.append(f"{cap(p)}: no orders received: civil disorder, its units hold")
            continue
        out.append(f"{cap(p)}{extra}:")
        for r in items:
            shown = r.order or f"'{r.text}'"
            line = f"  {shown:22} {r.result:8} ({r.reason})"
            if r.order and not r.by_rule and r.text.strip().upper() != r.order:
                line += f"  [written '{r.text}']"
            out.append(line)
    nxt = row.next.phase
    out.append("")
    out.extend(position(row.next, f"The position for {nxt.title}:"))
    if ended:
        winners = ", ".join(cap(w) for w in ended.winners)
        out += ["", f"The game is over: {ended.kind} ({winners}): {ended.reason}."]
    else:
        for power in powers:  # a player of several powers is answered for each of them
            try:
                mine = options(row.next, power, legal_orders_in(row.next, power, row.rules))
            except Exception:  # noqa: BLE001 - the options are a help, never a reason to lose the results
                mine = []
            if mine:
                out += ["", f"Your options ({cap(power)}) in {nxt.title}:", *mine]
    if not ended:
        out.append("")
        if now_phase == str(nxt):
            out.append(f"Next: {nxt.title}, orders due {deadline_text}.")
        else:
            out.append(f"Next: {nxt.title} (since processed; its results follow in another mail).")
    out += ["", f"The record: these results are ledger entry {row.seq} ({row.entry_hash[:16]}...); the public record",
            f"is published up to entry {head.seq}, hash {head.hash}.",
            f"Send RECORD {game} {phase} for every order of this phase as it was sent, and RECEIPT with your receipt",
            "to check that your orders are the ones on the record."]
    return "\n".join(out) + "\n"


def status(st: GameView, power: str | None, ordered: bool | None) -> str:
    """A game at a glance, for a STATUS command."""
    rules = st.rules_spec.title
    out = [f"{st.title} ({st.id}): {st.status}; variant {st.variant.name}, rules {rules}, press {st.settings.press}"]
    if st.status == "forming":
        out.append("  The game has not started: players are signing up.")
        return "\n".join(out)
    if st.status in ("active", "paused"):
        out.append(f"  {st.phase_title}: " + ("the game is paused" if st.status == "paused"
                                              else f"orders due {st.deadline_text}"))
    out.append(f"  {'POWER':9} {'PLAYER':18} SC UNITS")
    for p in st.powers:
        out.append(f"  {cap(p.power):9} {(p.player or '(no player)')[:18]:18} {p.centres:2} {p.units:5}")
    if st.position is not None:
        out.extend(position(st.position, "Units and centres:"))
    if power is not None and ordered is not None and st.status == "active":
        out.append(f"  Your orders ({cap(power)}): {'on record' if ordered else 'none yet'}")
    for prop in st.proposals:
        out.append(f"  Open proposal {prop.id}: {prop.kind} "
                   f"{', '.join(cap(x) for x in prop.powers)} (proposed by {cap(prop.proposer)})")
    committed = [p for p in st.powers if p.commitment]
    if committed and st.status == "active":
        out.append("  Commitments on record (the hash of each power's orders, never the orders):")
        out.extend(f"    {cap(p.power):9} {p.commitment}" for p in committed)  # no count: it would tell the others' changes of mind
    out.append(f"  The public record runs to ledger entry {st.head.seq}, hash {st.head.hash}.")
    if st.result:
        r = st.result
        out.append(f"  The game is over: {r.kind}, {', '.join(cap(w) for w in r.winners)} ({r.reason})")
    return "\n".join(out)


def history(game: str, game_title: str, phases: Sequence[PhaseResult], press: Sequence[PressItem],
            tz: str, only: str | None = None) -> str:
    """The published results (and the press the reader may read), for a HISTORY command."""
    out = [f"History of {game_title} ({game})"]
    shown = [p for p in phases if only is None or str(p.phase) == only]
    if only is not None and not shown:
        out.append(f"  {title(only)} has not been published in {game}.")
    for ph in shown:
        out.append("")
        out.append(ph.title + (f" (corrected, revision {ph.revision})" if ph.revision else "")
                   + f": adjudicated {show_time(ph.adjudicated_at, tz)}")
        for r in ph.results:
            out.append(f"  {cap(r.power):9} {(r.order or repr(r.text)):22} {r.result:8} ({r.reason})")
    if press and only is None:
        out += ["", "Press you may read:"]
        for p in press:
            to = "all" if p.to is None else ", ".join(cap(x) for x in p.to)
            body = p.text.replace("\n", "\n    ")
            out.append(f"  [{show_time(p.sent_at, tz)}] {cap(p.sender) if p.sender != 'GM' else 'GM'} "
                       f"to {to}: {body}")
    return "\n".join(out)


def press_letter(game: str, game_title: str, p: PressItem, tz: str) -> str:
    """A press item as a mail."""
    sender = "the gamesmaster" if p.sender == "GM" else ("anonymous" if p.sender == "anonymous" else cap(p.sender))
    to = "everyone" if p.to is None else ", ".join(cap(x) for x in p.to)
    head = (f"{game_title} ({game}): notice from the gamesmaster" if p.sender == "GM"
            else f"{game_title} ({game}): press from {sender} to {to}")
    return (f"{head}\n{show_time(p.sent_at, tz)}" + (f", {title(p.phase)}" if p.phase else "")
            + f"\n\n{p.text}\n")


def phase_record(record: PhaseRecord, tz: str) -> str:
    """A published phase's whole record, for a RECORD command."""
    out = [f"The record of {record.phase.title} in {record.game}: every entry of the phase, in ledger order.",
           "Each set of orders is shown as it was sent, with its time, salt and commitment; anyone can",
           "recompute a commitment as the SHA-256 of the canonical JSON of {phase, power, number, orders,",
           "conditional, salt}. Letters between powers are sealed: only their digest is shown.", ""]
    for e in record.entries:
        out.append(f"#{e.seq} {show_time(e.at, tz)} {e.kind}: {e.summary}")
        p = e.payload
        if p is not None and e.kind == "orders-submitted":
            out.extend(f"    {o}" for o in e.orders or ()) if e.orders else out.append("    (no orders)")
            if p.get("conditional"):
                out.append("    next season:")
                out.extend(f"      {line}" for line in str(p["conditional"]).splitlines())
            out.append(f"    salt {p['salt']}  commitment {p['commitment']}")
        out.append(f"    entry hash {e.hash}")
    out += ["", f"The public record runs to ledger entry {record.head.seq}, hash {record.head.hash}.",
            "The whole public record is attached: check it on your own machine with",
            "  gamesmaster verify --archive THE-FILE --receipt YOUR-RECEIPT"]
    return "\n".join(out)


def receipt_check(check: ReceiptCheck) -> str:
    """What the record says of a receipt, for a RECEIPT command."""
    verdict = ("HOLDS" if check.ok else "NOT CHECKED YET" if check.status == "not-yet-public"
               else "NOT A RECEIPT" if check.status == "unreadable" else "DOES NOT HOLD")
    return f"Receipt {check.receipt}: {verdict}.\n  {check.message}."


__all__ = ["submission", "on_record", "position", "options", "results", "status", "history", "press_letter",
           "phase_record", "receipt_check", "title", "cap"]
