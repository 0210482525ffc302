"""Plain-text renderings of the gamesmaster's views: for the console, and the parts e-mail shares."""

from __future__ import annotations

from typing import Sequence

from ..rules.phase import Phase
from .reading import History
from .settings import show_time
from .mailroom import MailTrouble
from .views import Correction, Ending, GameView, PhaseResult, Processed, Submission, VerifyReport


def phase_title(phase: object) -> str:
    """A phase in words ('S1901M' -> 'Spring 1901 movement'); '-' for none."""
    if not phase:
        return "-"
    try:
        return Phase.parse(str(phase)).title
    except ValueError:  # a PhaseError, or a year too long for int() to read
        return str(phase)


def undelivered(trouble: MailTrouble, shown: int = 10) -> str:
    """Mail the relay has not taken, for the GM at the console ('' when there is none)."""
    mails = trouble.undelivered
    if not mails:
        return ""
    out = [f"Undelivered mail: {len(trouble.waiting)} waiting to be tried again, {len(trouble.failed)} refused for good"
           + (" (mail is not going out: the relay has taken none since they were queued)" if trouble.failing else "")
           + ". gamesmaster mail outbox shows them; --retry sends them again."]
    for m in mails[:shown]:
        out.append(f"  mail {m.id} ({m.kind}) to {', '.join(m.recipients)[:60]}: {m.subject[:60]!r}, "
                   f"{m.attempts} tr{'y' if m.attempts == 1 else 'ies'}, {m.status}: {(m.last_error or '')[:100]}")
    if len(mails) > shown:
        out.append(f"  ... and {len(mails) - shown} more")
    return "\n".join(out)


SOURCES = {"gm": "the GM", "standby": "the stand-by", "correction": "the GM's correction",
           "conditional": "conditional orders", "player": "the player"}


def source_words(source: str) -> str:
    """Where a power's orders came from, in words: 'gm' -> 'the GM'."""
    return SOURCES.get(source, source)


def standby_note(sub: Submission) -> str:
    """' (from the stand-by, <who>)' when a stand-by's orders stand for the power, else ''."""
    return f" (from the stand-by, {sub.entered_by})" if sub.author == "standby" else ""


def warnings_and_conditional(sub: Submission) -> list[str]:
    """A submission's warnings and its conditional orders, in the lines the console and the mail both write."""
    lines = [f"  note: {w}" for w in sub.warnings]
    if sub.conditional:
        lines.append("Conditional orders for later phases (chosen when each phase opens):")
        lines.extend(f"  {c}" for c in sub.conditional)
    return lines


def submission(sub: Submission) -> str:
    """A power's orders as received: each answered, the warnings, the receipt."""
    how = "" if sub.entered_by != "GM" else " (entered by the gamesmaster"
    if how:
        how += f", {sub.channel})" if sub.channel != "console" else ")"
    how = standby_note(sub) or how
    lines = [f"Orders of {sub.power.capitalize()} for {sub.phase_title}{how}:"]
    if not sub.answers:
        lines.append("  (no orders)")
    for a in sub.answers:
        text = f"  {a.text}: {a.message}"
        if a.notes:
            text += "; " + "; ".join(a.notes)
        lines.append(text)
    lines.extend(warnings_and_conditional(sub))
    lines.append(f"Due {sub.deadline_text}. Only the last set sent before the deadline counts.")
    lines.append(f"Receipt: {sub.receipt}")
    lines.append("  (keep it: once the results are out, anyone can check it against the public record)")
    for p in sub.processed:
        lines.append(f"Every power concerned has ordered: {phase_title(p)} processed at once.")
    return "\n".join(lines)


def processed(items: Sequence[Processed]) -> str:
    """What processing did, phase by phase."""
    if not items:
        return "Nothing was due."
    out = []
    for p in items:
        if p.action == "grace":
            out.append(f"{p.game}: {phase_title(p.phase)}: grace period; orders now due "
                       f"{p.deadline.isoformat() if p.deadline else '-'}")
            continue
        if p.action == "waiting":
            out.append(f"{p.game}: {p.awaiting.text}" if p.awaiting else
                       f"{p.game}: {phase_title(p.phase)} waits for the GM to choose removals.")
            continue
        out.append(f"{p.game}: {phase_title(p.phase)} adjudicated.")
        out.extend(f"  {r.power}: {r.order or r.text} {r.result} ({r.reason})" for r in p.results)
        if p.civil_disorder:
            out.append(f"  civil disorder: {', '.join(x.capitalize() for x in p.civil_disorder)}")
        if p.ended:
            out.append(f"  The game is over: {p.ended.kind}, {', '.join(w.capitalize() for w in p.ended.winners)} "
                       f"({p.ended.reason})")
        else:
            out.append(f"  Next: {phase_title(p.next_phase)}")
    return "\n".join(out)


def games(views: Sequence[GameView]) -> str:
    """The games list."""
    if not views:
        return "No games yet (create one with: gamesmaster new GAME --players ...)."
    out = [f"{'GAME':20} {'STATUS':9} {'PHASE':8} DEADLINE"]
    for g in views:
        out.append(f"{g.id:20} {g.status:9} {str(g.phase or '-'):8} "
                   f"{g.deadline_text if g.status in ('active', 'paused') else '-'}")
    return "\n".join(out)


def status(g: GameView) -> str:
    """A game at a glance: who has ordered (never what), centres, units, stand-bys, proposals."""
    out = [f"{g.title} ({g.id}): {g.status}",
           f"  variant {g.variant.name}, rules {g.rules_spec}, press {g.settings.press}, "
           f"replacement {g.settings.replacement}, {g.settings.votes} votes"]
    if g.status == "forming":
        out.append("  players: " + (", ".join(s.name for s in g.seats if s.role == "player") or "none yet"))
        return "\n".join(out)
    if g.status == "paused":
        out.append(f"  {g.phase_title}: the game is paused (gamesmaster resume {g.id} to restart the clock)")
    elif g.status == "active" and g.awaiting:
        out.append(f"  waiting for the gamesmaster: {g.awaiting.text}")
    elif g.status == "active":
        out.append(f"  {g.phase_title}: orders due {g.deadline_text}")
    out.append(f"  {'POWER':9} {'PLAYER':18} SC UNITS ORDERS")
    for p in g.powers:
        if not p.to_order:
            orders = "-"
        elif p.ordered:
            orders = "received" + (" (ready)" if p.ready else "")
        elif p.standby_ordered:
            orders = "from the stand-by"
        else:
            orders = "none yet"
        player = p.player or ("(neutral)" if g.position is not None and p.power in g.position.neutral else "(no player)")
        extra = []
        if p.standby:
            extra.append(f"stand-by {p.standby} called")
        if p.missed:
            extra.append(f"missed {p.missed}")
        out.append(f"  {p.power.capitalize():9} {player[:18]:18} {p.centres:2} {p.units:5} {orders}"
                   + (f"  [{'; '.join(extra)}]" if extra else ""))
    standbys = [s for s in g.seats if s.role == "standby"]
    if standbys:
        out.append("  stand-bys: " + ", ".join(s.name + (f" (for {'/'.join(p.capitalize() for p in s.acts_for())})"
                                                        if s.standby_for else "") for s in standbys))
    for prop in g.proposals:
        out.append(f"  open proposal {prop.id}: {prop.kind} {', '.join(x.capitalize() for x in prop.powers)}")
    if g.deadlock_pending:
        out.append("  deadlock: the gamesmaster must decide whether the game goes on (gamesmaster draw --declare)")
    if g.scores and not g.result:
        out.append(f"  scores if the game ended now ({g.settings.scoring}): "
                   + ", ".join(f"{p.capitalize()} {v:.2f}" for p, v in g.scores.items()))
    out.append(f"  record: published up to ledger entry {g.head.seq} ({g.head.hash[:16]}...)")
    if g.result:
        out.append(final(g))
    return "\n".join(out)


def final(g: GameView, phases: Sequence[PhaseResult] = ()) -> str:
    """The final report: how the game ended, centres and units of every power, the centre chart."""
    r = g.result
    assert r is not None
    winners = ", ".join(w.capitalize() for w in r.winners)
    head = {"victory": f"Victory: {winners}", "short-game": f"Short game won by {winners}",
            "draw": f"Draw: {winners}", "concession": f"Conceded to {winners}"}.get(r.kind, r.kind)
    out = [f"Final report: {head} ({r.reason}), {_when_ended(r, phases)}."]
    players = {p: s.name for s in g.seats if s.role == "player" for p in s.powers}
    for power, standing in r.summary.items():
        scored = f", score {r.scores[power]:.2f}" if power in r.scores else ""
        out.append(f"  {power.capitalize():9} {players.get(power, '(no player)')[:18]:18} "
                   f"{standing.centres:2} centres, {standing.units:2} units{scored}")
    chart: dict[int, dict[str, int]] = {}
    for ph in phases:
        nxt = ph.next
        if nxt.phase.season in ("W", "S") and ph.phase.season == "F":
            chart[ph.phase.year] = {p: n for p in nxt.variant.powers if (n := len(nxt.centres_of(p)))}
    if chart:
        powers = list(r.summary)
        out.append("  Supply centres at the end of each year:")
        out.append("  " + "YEAR  " + " ".join(f"{p[:3]:>3}" for p in powers))
        for year in sorted(chart):
            out.append(f"  {year}  " + " ".join(f"{chart[year].get(p, 0):3}" for p in powers))
    return "\n".join(out)


def _when_ended(r: Ending, phases: Sequence[PhaseResult]) -> str:
    """When the game ended, by the last phase actually played (not the phase open when a draw was agreed)."""
    if r.played == "":
        return f"in {phase_title(r.phase)}, before any phase was played"
    if r.played is None and phases:  # a record from before the last phase played was kept
        current = [ph for ph in phases if ph.current]
        return f"after {(current or list(phases))[-1].title}"
    return f"after {phase_title(r.played or r.phase)}"


def history(h: History, ledger: bool = False) -> str:
    """The whole record in text: every phase (corrections too), the press, the ledger if asked."""
    tz = h.game.settings.schedule.tz
    out = [f"History of {h.game.title} ({h.game.id})"]
    for ph in h.phases:
        head = ph.title + (f" (revision {ph.revision})" if ph.revision else "")
        if not ph.current:
            head += " [superseded by a correction]"
        out.append("")
        out.append(f"{head}: adjudicated {show_time(ph.adjudicated_at, tz)}, ledger entry {ph.seq}")
        for power, used in ph.orders.items():
            if used.source != "player":
                out.append(f"  {power.capitalize()}: orders from {source_words(used.source)}")
        for r in ph.results:
            out.append(f"  {r.power}: {r.text!r} -> {r.order or '?'} {r.result} ({r.reason})")
        if ph.civil_disorder and ph.phase.is_movement:
            out.append(f"  civil disorder: {', '.join(p.capitalize() for p in ph.civil_disorder)}")
    if h.press:
        out.append("")
        out.append("Press:")
        for p in h.press:
            to = "all" if p.to is None else ", ".join(p.to)
            anon = " (anonymous)" if p.anonymous else ""
            body = p.text.replace("\n", "\n      ")
            out.append(f"  [{show_time(p.sent_at, tz)}] {p.sender}{anon} to {to}: {body}")
    if ledger:
        out.append("")
        out.append("Ledger:")
        for e in h.ledger:
            out.append(f"  {e.seq:5} {e.at} {e.kind:18} {e.hash[:16]} {(e.payload_text or '')[:100]}")
    ended = h.game.result
    if ended:
        out.append("")
        out.append(f"Result: {ended.kind}: {', '.join(w.capitalize() for w in ended.winners)} ({ended.reason})")
    return "\n".join(out)


def correction(c: Correction) -> str:
    """What a correction changed."""
    out = [f"{c.game}: {phase_title(c.phase)} corrected ({c.reason})."]
    out.extend(f"  {d}" for d in c.differences)
    if c.next_phase:
        out.append(f"  Now: {phase_title(c.next_phase)}")
    return "\n".join(out)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def verify(r: VerifyReport) -> str:
    """What verify found."""
    head = f" Ledger head: {r.head}." if r.head else ""
    if r.ok:
        return (f"{r.game}: the record holds. {r.entries} ledger entries chained, {_count(r.receipts_checked, 'receipt')} "
                f"checked, {_count(r.phases_replayed, 'phase')} replayed through the engine with the same results.{head}"
                + (f" (This version of the engine words the reasons of {r.reworded} of them differently.)"
                   if r.reworded else "")
                + "".join(f"\n  {n}" for n in r.notes))
    out = [f"{r.game}: the record does NOT hold ({len(r.problems)} problem{'s' if len(r.problems) > 1 else ''}):"]
    out.extend(f"  {p}" for p in r.problems)
    return "\n".join(out)
