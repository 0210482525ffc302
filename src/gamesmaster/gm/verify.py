"""`verify`: replay a game from its ledger alone, audit every ruling, and compare every cache.

Every problem names the ledger entry it breaks. What is checked:
- the chain: numbering without gaps, each entry linked to the one before, each hash
  recomputed from the entry's fields (a sealed entry: from its payload's digest); times
  in the ledger's one format and never going back; only letters, the votes of a game
  whose votes are secret, and the entries of a phase not yet published sealed (in a
  public record);
- every entry against the game as the entries before it left it (`gm.fold`): who acted
  (the credential used is one the record issued, for a power that seat may order for),
  each submission's number and commitment, no orders accepted after the deadline, each
  refusal's cause (late only after the deadline, another phase only if another was named,
  a revision only after its phase was published early),
  each deadline closed when it fell (after the grace period due) or early only as the
  game allows, the lot drawn from its seed, each deadline set by the game's schedule;
- every deadline: the orders used are the last accepted submission of each power
  (DATC 4.D.1), and exactly the powers with none on record are in civil disorder;
- every published result: the phase is adjudicated again through the engine from the
  position the ledger reached, with those orders, and must give the published results,
  next position and winner; conditional orders are read again at the deadline of the
  phase they were filed with and chosen again when the phase they are for opens; corrections start from
  the phase they correct;
- receipts handed in (GAME/PHASE/POWER/NUMBER:COMMITMENT) and ledger heads that were
  published (SEQ:HASH): each must be found in this chain;
- the tables beside the ledger (the game's cached state, the credentials' fingerprints,
  the published phases, the press) are rebuilt from the ledger and compared row by row.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..ledger import Entry, Receipt, canonical, check_chain, commitment, fingerprint, parse_stamp, stamp
from ..rules import OptionError, Phase, Position, PositionError, adjudicate
from ..store.repo import GameRow, PhaseRow, PressRow
from ..store.standings import Line
from ..variants import VariantError, load_rules
from ..rules.conditional import Section
from .adjudicating import early_due, read_plans
from . import keys
from .fold import CacheRow, FoldError, Superseded, apply
from .events import (PHASE_PRIVATE, PUBLISHED, Adjudicated, AwaitingRemovals, BotsAllowed, CivilDisorder, CoinTossed,
                     ConditionalChosen, Correction, CredentialReplaced, DeadlineClosed, Deadlock, DrawDeclared,
                     DrawProposed, DrawResult, DrawVote, Event, EventError, EventKind, Extended, GameCreated, GameEnded,
                     GameStarted, Grace, KeyAdded, LeagueAdded, LiveChanged, LotsDrawn, OrdersRefused, OrdersSubmitted,
                     OrdersWithdrawn, Paused, PhaseAdjudicated, PhaseOpened, PlanFiled, PlanRead, PlayerJoined,
                     PlayerReplaced, PlayerResigned, PowerJoined, PowersAssigned, Press, Ready, RefusalCause, Resumed,
                     SeatClaimed, SeatsOpen, SetDisputed, StandbyCalled, StandbyReleased, handlers, kinds, parse_event)
from .cointoss import join_due, toss, toss_due, winner_seat
from .plans import PLAN_KINDS, committed_conditional
from .games import draw, lots, playable_powers
from .errors import GMError
from .scoring import board_of, game_scores, result_of
from .standing import orders_in_force
from .state import GM, PLAYER, STANDBY, GameState, OrderSet
from .standings import lines_of
from .views import LedgerHead, ReceiptCheck, VerifyReport

_UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, VariantError, OptionError, PositionError)


@dataclass
class Tables:
    """A game's rows in the tables beside its ledger, as the store holds them."""

    game: GameRow | None
    credentials: Mapping[int, str]
    phases: Sequence[PhaseRow]
    press: Sequence[PressRow]
    standings: Sequence[Line] | None = None  # None: not compared (a public archive has none)


@dataclass
class Replay:
    """The game played again from its ledger: the state reached, the cache rows it implies, what was found."""

    game_id: str
    state: GameState | None = None
    rows: list[CacheRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    replayed: int = 0
    reworded: int = 0  # phases whose results this engine gives alike but explains in other words
    closed: Mapping[str, Any] | None = None  # the payload of the last deadline closed
    payloads: dict[int, Any] = field(default_factory=dict)  # adjudication payloads by entry
    submissions: dict[int, Any] = field(default_factory=dict)  # submission payloads by entry
    chosen: dict[tuple[str, str], Any] = field(default_factory=dict)  # (phase, power) -> conditional-chosen payload
    opened_at: dict[int, str] = field(default_factory=dict)  # when each phase opened, by entry
    sealed: list[tuple[Entry, str | None]] = field(default_factory=list)  # sealed entries of a phase, and the phase
    plan_texts: dict[str, str] = field(default_factory=dict)  # conditional plans shown, by their entry's digest
    last_plan: str | None = None  # the digest of the plan-filed entry just before (a submission's plan)
    sealed_plans: int = 0  # plan entries a public copy keeps sealed: what follows from them is checked once shown
    deferred: list[str] = field(default_factory=list)  # what could not be checked for a sealed plan

    def bad(self, e: Entry, message: str) -> None:
        """Report a problem with an entry."""
        self.problems.append(f"ledger entry {e.seq} ({e.kind}): {message}")


# What a public record may seal: letters, and the entries of a phase whose results are not out yet
# (events.PHASE_PRIVATE: the classes that say so).


def replay(game_id: str, entries: Iterable[Entry]) -> Replay:
    """Fold a ledger from its first entry, auditing each entry against the state before it."""
    r = Replay(game_id)
    last_at = None
    for e in entries:
        before = r.state
        if not _written_as_stamp(e.at):
            r.bad(e, f"its time {e.at[:40]!r} is not written as the ledger writes times (e.g. 2024-05-07T21:00:00.000000Z)")
        elif last_at is not None and e.at < last_at:  # one fixed format: as text, the order of the times
            # The time of an entry is the server's word: one dated before the entry it follows was
            # written with the clock set back (a late set made to look on time) or edited.
            r.bad(e, f"is dated before the entry before it ({e.at}, after {last_at})")
        last_at = max(last_at or e.at, e.at)
        ev: Event | None = None
        if e.sealed:
            _check_sealed(r, before, e)
        else:
            try:
                ev = parse_event(e)
            except EventError as exc:
                r.bad(e, f"cannot be read back: {exc}")
                continue  # nothing can be checked or applied of an entry that holds no event
        if isinstance(ev, (GameStarted, PhaseOpened)):
            r.opened_at[e.seq] = e.at
        elif isinstance(ev, GameEnded) and r.sealed_plans:
            r.bad(e, f"the game is over, but {r.sealed_plans} entries of conditional orders are still sealed: "
                     "a public record shows every plan once the game has ended")
        elif isinstance(ev, Adjudicated):
            phase = ev.phase
            for kept, _ in [x for x in r.sealed if x[1] == phase]:
                r.bad(kept, f"sealed, but its phase ({phase}) was published at entry {e.seq}: a public record shows "
                         "every entry of a published phase")
            r.sealed = [x for x in r.sealed if x[1] != phase]
        if before is not None and ev is not None:
            try:
                _audit(r, before, e, ev)
            except _UNREADABLE as exc:
                r.bad(e, f"cannot be read back: {exc}")
        if isinstance(ev, OrdersSubmitted):
            r.submissions[e.seq] = e.payload
        if isinstance(ev, PlanFiled):
            r.plan_texts[e.payload_digest] = ev.conditional
        r.last_plan = e.payload_digest if e.kind == EventKind.PLAN_FILED else None
        try:
            r.state, rows = apply(before, e, game_id, ev)
            r.rows.extend(rows)
        except FoldError as exc:
            r.bad(e, str(exc))
        except _UNREADABLE as exc:
            r.bad(e, f"cannot be read back: {exc}")
    return r


def _written_as_stamp(at: str) -> bool:
    """The time is in the ledger's one format: another writing of the same moment hashes otherwise, and
    compares otherwise as text."""
    try:
        return stamp(parse_stamp(at)) == at
    except ValueError:
        return False


def _check_sealed(r: Replay, s: GameState | None, e: Entry) -> None:
    """A sealed entry is a letter, a vote in a game of secret votes, or an entry of the phase open, kept back
    until its results are out."""
    if e.kind == EventKind.PRESS or (e.kind == EventKind.DRAW_VOTE and s is not None and s.settings.votes == "secret"):
        return
    if e.kind in PLAN_KINDS and s is not None and s.status != "finished":
        r.sealed_plans += 1  # conditional orders for a phase not yet published
        return
    if e.kind not in PHASE_PRIVATE or s is None:
        r.bad(e, "sealed, but a public record seals only letters and the entries of a phase not yet published")
        return
    r.sealed.append((e, s.phase))


def verify_entries(game_id: str, entries: list[Entry], *, tables: Tables | None = None,
                   receipts: Sequence[str] = (), heads: Sequence[str] = ()) -> VerifyReport:
    """Verify a ledger (from the store with its tables, or from a public archive with tables None)."""
    problems: list[str] = [str(p) for p in check_chain(entries)]
    r = replay(game_id, entries)
    problems.extend(r.problems)
    notes: list[str] = list(dict.fromkeys(r.deferred))
    index = ReceiptIndex(entries) if receipts else None
    for text in receipts:
        assert index is not None  # made above, as there are receipts
        # A public archive stops at the last publication: a set of the phase still open is not in it yet.
        # The store's whole ledger holds every set, so there a missing one was taken out.
        check = check_receipt(game_id, text, index, private=tables is not None)
        if check.status == "not-yet-public":
            notes.append(f"receipt {check.receipt[:90]}: not checked: {check.message}")
        elif not check.ok:
            problems.append(f"receipt {text[:90]}: {check.message}")
    by_seq = {e.seq: e for e in entries}
    for text in heads:
        problems.extend(_check_head(text, by_seq))
    if tables is not None:
        problems.extend(compare_tables(r, entries, tables))
    checked = len(receipts) - len(notes)
    for d in r.state.disputes if r.state is not None else ():
        notes.append(f"ledger entry {d.seq} (set-disputed): {d.power.capitalize()}'s player disputes set #{d.number} "
                     f"of {d.phase}" + (f': "{d.text}"' if d.text else ""))
    last = entries[-1] if entries else None
    return VerifyReport(game_id, len(entries), r.replayed, checked, tuple(problems),
                        LedgerHead(last.seq, last.hash) if last else None, r.reworded, tuple(notes))


# -- the audit of each entry ------------------------------------------------------------------------------


def _audit(r: Replay, s: GameState, e: Entry, ev: Event) -> None:
    """Check an entry against the game as the entries before it left it: who acted, then what it rules."""
    p = e.payload
    if isinstance(ev, (OrdersSubmitted, OrdersWithdrawn, Ready, DrawVote, PlayerResigned, SetDisputed)):
        _check_actor(r, s, e, p)
    elif isinstance(ev, KeyAdded) or (isinstance(ev, SeatClaimed) and (s.keyed or p.get("by") is not None)):
        _check_actor(r, s, e, {**p, "power": None})
        _check_key(r, s, e, p)
    if isinstance(ev, Press) and p.get("by") is not None:
        _check_actor(r, s, e, {**p, "power": None if p["sender"] == GM else p["sender"]})
    _AUDITS[type(ev)](r, s, e, ev, p)


Audit = Callable[[Replay, GameState, Entry, Any, Mapping[str, Any]], None]


def _lots_drawn(r: Replay, s: GameState, e: Entry, ev: LotsDrawn, p: Mapping[str, Any]) -> None:
    if draw(p["seed"], p["all_powers"], p["players"]) != p["powers"]:
        r.bad(e, f"the seed {p['seed']} does not draw the recorded powers")
    if list(p["all_powers"]) != lots(s):
        r.bad(e, "the lot was drawn among other powers than the set-up's")
    if list(p["players"]) != [x.name for x in s.seats if x.role == PLAYER]:
        r.bad(e, "the lot was drawn for other players than those signed up")


def _powers_assigned(r: Replay, s: GameState, e: Entry, ev: PowersAssigned, p: Mapping[str, Any]) -> None:
    if s.seeking.get("seats") != "choice":
        return  # given by the GM: the GM's to give
    chosen = {x.name: (s.seeking.get("choices") or {}).get(str(x.number)) for x in s.seats if x.role == PLAYER}
    if any(power and p["powers"].get(name) != power for name, power in chosen.items()):
        r.bad(e, "the powers were not given as the players chose them")


def _game_started(r: Replay, s: GameState, e: Entry, ev: GameStarted, p: Mapping[str, Any]) -> None:
    want = s.start_position or Position.initial(s.variant).to_dict()
    if canonical(Position.from_dict(s.variant, want).to_dict()) != canonical(p["position"]):
        r.bad(e, "the game does not start from the set-up's position")
    _check_deadline(r, s, e, p)


def _deadline_closed(r: Replay, s: GameState, e: Entry, ev: DeadlineClosed, p: Mapping[str, Any]) -> None:
    r.closed = p
    used, civil_disorder = orders_in_force(s)
    _check_used(r, e, p.get("used") or {}, used, civil_disorder, p.get("civil_disorder") or [])
    _check_trigger(r, s, e, p, civil_disorder)


def _power_joined(r: Replay, s: GameState, e: Entry, ev: PowerJoined, p: Mapping[str, Any]) -> None:
    if not join_due(s):
        r.bad(e, f"{ev.power} joins a side before the coin was tossed or before its phase")
    elif ev.player != winner_seat(s, s.coin_toss["winner"]):
        r.bad(e, f"{ev.power} joins player {ev.player}, who does not command the side that won the toss")


def _grace(r: Replay, s: GameState, e: Entry, ev: Grace, p: Mapping[str, Any]) -> None:
    grace = s.settings.grace_hours
    if not grace or s.grace_used or s.deadline_at is None or \
            ev.deadline != (s.deadline_at + timedelta(hours=grace)).isoformat():
        r.bad(e, f"a grace period to {ev.deadline} is not the one the game's settings give "
                 f"({grace:g} hours after {s.deadline}, once a movement phase)")


def _civil_disorder(r: Replay, s: GameState, e: Entry, ev: CivilDisorder, p: Mapping[str, Any]) -> None:
    closed = r.closed or {}
    if ev.power not in (closed.get("civil_disorder") or []):
        r.bad(e, f"{ev.power} is ruled in civil disorder, but it had orders on record at the deadline")


def _on_payload(check: Callable[[Replay, GameState, Entry, Mapping[str, Any]], None]) -> Audit:
    """An audit that reads the payload as written (a tampered entry's words are what it checks)."""
    return lambda r, s, e, ev, p: check(r, s, e, p)


def _unchecked(r: Replay, s: GameState, e: Entry, ev: Event, p: Mapping[str, Any]) -> None:
    """Nothing to rule on beyond who acted and what the fold accepts (a GM's word, a letter, a vote)."""


def _check_scores(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """The final scores recorded are those the scoring system gives the board and the result."""
    position = s.position
    want: dict[str, float] = {}
    if position is not None and s.settings.scoring != "none":
        try:
            want = game_scores(s.settings.scoring, board_of(position, s.spring_centres),
                               result_of(str(p.get("kind")), list(p.get("winners") or [])))
        except GMError as exc:
            r.bad(e, f"the result cannot be scored: {exc}")
            return
    got = p.get("scores") or {}
    if got != want:
        wrong = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
        r.bad(e, f"the final scores recorded are not those {s.settings.scoring} gives the board and result "
                 f"({', '.join(f'{k}: {got.get(k)} recorded, {want.get(k)} computed' for k in wrong[:7])})")


def _check_refusal(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """A refusal's cause holds on the ledger: late after the deadline, another phase named, written before
    the phase opened, or a revision of the phase last published early (entries from before causes were
    recorded say only why in words)."""
    cause = p.get("cause")
    at = parse_stamp(e.at)
    if cause == RefusalCause.LATE and not (s.status == "active" and s.deadline_at is not None and at > s.deadline_at):
        r.bad(e, f"orders of {p.get('power')} refused as late, but the deadline ({s.deadline}) had not passed")
    elif cause == RefusalCause.OTHER_PHASE and p.get("named") == s.phase:
        r.bad(e, f"orders of {p.get('power')} refused as for another phase, but they named the phase open ({s.phase})")
    elif cause == RefusalCause.PUBLISHED_EARLY:
        closed = r.closed or {}
        if closed.get("trigger") != "early" or closed.get("phase") != p.get("published") or \
                s.last_published is None or s.phase_opened <= s.last_published:
            r.bad(e, f"orders of {p.get('power')} refused as revisions of {p.get('published')} after its early "
                     "publication, but that is not the phase last published, or it was not published early")
    elif cause == RefusalCause.WRITTEN_EARLIER:
        opened = r.opened_at.get(s.phase_opened)
        last = s.last_published
        if last is None or p.get("answering") == last or s.phase_opened <= last or opened is None or \
                datetime.fromisoformat(p["written_at"]) >= parse_stamp(opened):
            r.bad(e, f"orders of {p.get('power')} refused as written for the phase before, but they were written "
                     f"after {s.phase} opened, or answer its results")


def _check_trigger(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any], civil_disorder: Sequence[str]) -> None:
    """A deadline is closed when it falls (after any grace period due), early only as the game allows, or by the GM."""
    trigger = p.get("trigger")
    if trigger == "deadline":
        if s.deadline_at is None:
            r.bad(e, f"the deadline of {p['phase']} was closed, but no deadline was running")
        elif parse_stamp(e.at) < s.deadline_at:
            r.bad(e, f"the deadline of {p['phase']} was closed before it fell ({s.deadline})")
        position = s.position
        if s.settings.grace_hours > 0 and position is not None and position.phase.is_movement and \
                not s.grace_used and any(s.holder(x) for x in civil_disorder):
            r.bad(e, f"the deadline of {p['phase']} was closed with orders missing, without the grace period of "
                     f"{s.settings.grace_hours:g} hours the game's settings give")
    elif trigger == "early" and not early_due(s):
        r.bad(e, f"{p['phase']} was closed early, but not every power had ordered (and, for a movement, was ready)")


def _check_toss(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """The coin was due (the set-up has one, not tossed before, its phase come) and falls as its seed says."""
    setup = s.variant.coin_toss
    if not toss_due(s) or setup is None:
        r.bad(e, "a coin toss the set-up does not call for at this point of the game")
        return
    sides = [[name, list(powers)] for name, powers in s.variant.players]
    if [list(x) for x in p["sides"]] != sides or p["power"] != setup[0] or p["joins"] != setup[2]:
        r.bad(e, "the coin was tossed between other sides, or for another power or phase, than the set-up's")
        return
    name, winner = sides[toss(int(p["seed"]), len(sides))]
    if p["name"] != name or list(p["winner"]) != winner:
        r.bad(e, f"the seed {p['seed']} does not toss the recorded winner")


def _check_claim(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """An account claims a seat the record signed up; a power chosen on joining is free, and the game lets players choose."""
    seat = s.seat(int(p["player"]))
    if seat is None or seat.role == "former":
        r.bad(e, f"an account claims player {p['player']}, who holds no seat")
        return
    if p.get("how") == "joined" and (s.status != "forming" or not s.seeking.get("open")):
        r.bad(e, f"{seat.name} joined with an account, but the game was not open to players")
    power = p.get("power")
    if power is not None:
        taken = {v for k, v in (s.seeking.get("choices") or {}).items() if k != str(seat.number)}
        if s.seeking.get("seats") != "choice" or power not in playable_powers(s) or power in taken:
            r.bad(e, f"{seat.name} chose {power}, which was not free to choose")


def _check_key(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """A session key (and a claim) is given only by the seat's own credential, and the key is the claimant's seat's."""
    by = p.get("by")
    proof = by.get("proof") if isinstance(by, Mapping) else None
    used = s.keys.get(str(proof.get("key"))) if isinstance(proof, Mapping) else None
    if used is not None and used.kind != keys.CREDENTIAL:
        r.bad(e, "a key or a claim is proved with a session's key, not with the seat's credential")
    key = p.get("key")
    if e.kind == EventKind.KEY_ADDED and (not isinstance(key, Mapping) or not isinstance(by, Mapping) or
                                  key.get("player") != by.get("player") or str(key.get("id")) in s.keys):
        r.bad(e, "a key given to another seat than the one whose credential proves it, or given twice")


def _check_actor(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """The credential recorded for an action is one the record issued, to a seat that may act for the power."""
    by = p.get("by")
    if by is None and p.get("channel") == "conditional":
        return
    if by == GM:
        if p.get("entered_by", GM) != GM:
            r.bad(e, "entered by the gamesmaster, but recorded in a player's name")
        return
    if not isinstance(by, Mapping):
        r.bad(e, "the record does not say whose credential was used")
        return
    seat = s.seat(int(by.get("player", 0)))
    if seat is None:
        r.bad(e, f"made with the credential of player {by.get('player')}, whom the record never signed up")
        return
    if by.get("key") != seat.key:
        r.bad(e, f"made with a credential the record never issued to {seat.name} (player {seat.number}): "
                 "the stored credential was replaced outside the record")
        return
    if s.keyed or by.get("proof") is not None:
        wrong = keys.problem(s, seat.number, by.get("proof"))
        if wrong:
            r.bad(e, f"made in the name of {seat.name} (player {seat.number}), but {wrong}")
            return
    power = p.get("power")
    if power is not None and power not in seat.acts_for():
        r.bad(e, f"{seat.name} may not act for {power} at this point of the game")
    author = p.get("author")
    if author is not None and author != (STANDBY if seat.role == STANDBY else PLAYER):
        r.bad(e, f"recorded as the {author}'s orders, but {seat.name} is a {seat.role}")


def _check_submission(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    power = p["power"]
    number = int(p["number"])
    if number != s.counts.get(power, 0) + 1:
        r.bad(e, f"{power}'s submission is numbered {number}, but it is its number {s.counts.get(power, 0) + 1} "
                 f"of {p['phase']}: submissions are missing or were added")
    if p.get("plan") is not None and p["plan"] != r.last_plan:
        r.bad(e, f"the conditional orders of {power} it names are not the plan filed with it (the entry before)")
    want = commitment(p["phase"], power, number, p["orders"], committed_conditional(p), p["salt"])
    if want != p["commitment"]:
        r.bad(e, f"the orders of {power} for {p['phase']} do not match their commitment "
                 f"{str(p['commitment'])[:12]}...: the orders were changed after they were committed")
    deadline = s.deadline_at
    if s.status == "active" and deadline is not None and parse_stamp(e.at) > deadline and p.get("channel") != "conditional":
        r.bad(e, f"orders of {power} accepted after the deadline ({s.deadline})")
    note = p.get("note") or {}
    if p.get("channel") == "conditional":
        chosen = r.chosen.get((p["phase"], power)) or {}
        if (chosen.get("filed_phase"), chosen.get("orders"), chosen.get("condition")) != (
                note.get("filed_phase"), list(p["orders"]), note.get("condition")):
            r.bad(e, f"the conditional orders installed for {power} are not the clause chosen in {note.get('filed_phase')}")


def _check_chosen(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """The clause chosen for a phase is the one the conditions filed for it select, on the facts of the record."""
    pending = next((x for x in s.pending if x.power == p["power"] and x.phase == p["phase"]
                    and x.filed_phase == p["filed_phase"]), None)
    if pending is None and r.sealed_plans:
        r.chosen[(p["phase"], p["power"])] = p
        r.deferred.append("conditional orders chosen from plans still sealed on this public record are checked "
                          "once every phase the plans name is published")
        return
    if pending is None or s.position is None:
        r.bad(e, f"no conditional orders of {p['power']} filed in {p['filed_phase']} were pending for {p['phase']}")
        return
    clause = Section.from_dict(pending.section).choose(pending.facts(s.position.centres))
    want = (clause.label, list(clause.orders)) if clause else (None, None)
    if want != (p.get("condition"), p.get("orders")):
        r.bad(e, f"the conditional orders chosen for {p['power']} are not those the conditions select")
    r.chosen[(p["phase"], p["power"])] = p


def _check_used(r: Replay, e: Entry, recorded: Mapping[str, Any], used: Mapping[str, Any], civil_disorder: list[str],
                recorded_cd: Sequence[str]) -> None:
    """The orders a deadline used are the orders in force; the powers in civil disorder are those without."""
    for power in sorted(set(recorded) | set(used)):
        want, got = used.get(power), recorded.get(power)
        if want is None:
            r.bad(e, f"orders were used for {power}, which had none on record")
        elif got is None:
            r.bad(e, f"{power}'s orders on record (entry {want.orders.seq}) were not used")
        elif (int(got.get("seq", -1)), got.get("commitment"), got.get("source")) != (
                want.orders.seq, want.orders.commitment, want.source):
            r.bad(e, f"the orders used for {power} are entry {got.get('seq')} (set #{got.get('number')}), but the last "
                     f"accepted submission of {power} is entry {want.orders.seq} (set #{want.orders.number})")
    if sorted(recorded_cd) != sorted(civil_disorder):
        extra = sorted(set(recorded_cd) - set(civil_disorder))
        lacking = sorted(set(civil_disorder) - set(recorded_cd))
        if extra:
            r.bad(e, f"{', '.join(extra)} ruled in civil disorder, but had orders on record")
        if lacking:
            r.bad(e, f"{', '.join(lacking)} had no orders on record, but were not ruled in civil disorder")


def _check_adjudication(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    phase = p["phase"]
    closed = r.closed
    if closed is None or closed.get("phase") != phase:
        r.bad(e, f"no deadline was closed for {phase} before its results were computed")
    else:
        if canonical(closed.get("used") or {}) != canonical(p.get("used") or {}):
            r.bad(e, "the orders used are not those committed when the deadline closed")
        if sorted(closed.get("civil_disorder") or []) != sorted(p.get("civil_disorder") or []):
            r.bad(e, "the powers in civil disorder are not those named when the deadline closed")
    used, _ = orders_in_force(s)
    for power, texts in p["orders"].items():
        u = used.get(power)
        if u is not None and list(u.orders.orders) != list(texts):
            r.bad(e, f"the orders adjudicated for {power} are not the orders of entry {u.orders.seq}")
    if set(p["orders"]) != set(used):
        r.bad(e, "the powers whose orders were adjudicated are not the powers with orders in force")
    if canonical(p["position"]) != canonical(s.position_doc):
        r.bad(e, f"{phase} does not start where the previous phase ended")
    if canonical(p["rules"]) != canonical(s.rules_spec):
        r.bad(e, f"{phase} was adjudicated by other rules than the game's")
    _readjudicate(r, s, e, p, {pw: u.orders for pw, u in used.items()})


def _published_now(r: Replay) -> list[PhaseRow]:
    """The current revision of every phase published so far, in play order (what the cache rows say)."""
    current: dict[int, PhaseRow] = {}
    for row in r.rows:
        if isinstance(row, Superseded):
            current.pop(row.number, None)
        elif isinstance(row, PhaseRow):
            current[row.number] = row
    return [current[n] for n in sorted(current)]


def _check_correction(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    original = r.payloads.get(int(p["original"]["seq"])) if isinstance(p.get("original"), Mapping) else None
    published = _published_now(r)
    at = next((i for i, row in enumerate(published) if original is not None and
               row.ledger_seq == int(p["original"]["seq"]) and row.number == int(p["number"])), None)
    if original is None or at is None:
        r.bad(e, f"corrects {p['phase']}, which is not a phase as it stands published")
        return
    later = published[at + 1:]
    if any(Phase.parse(row.phase).is_movement for row in later):
        r.bad(e, f"corrects {p['phase']} after a later movement result was published")
    if [row.number for row in later] != [int(n) for n in p.get("following") or ()]:
        r.bad(e, f"the phases published after {p['phase']} are not those the correction names as following")
    if p.get("then") == "stand" and (canonical(p["next"]) != canonical(original["next"]) or
                                     canonical(p["rules"]) != canonical(original["rules"])):
        r.bad(e, f"what was published after {p['phase']} is kept, but the correction changes where it started from")
    if original["phase"] != p["phase"] or canonical(original["position"]) != canonical(p["position"]):
        r.bad(e, f"the corrected {p['phase']} does not start from the position the original started from")
    for power, u in (p.get("used") or {}).items():
        if u.get("source") != "correction" and canonical(u) != canonical((original.get("used") or {}).get(power)):
            r.bad(e, f"{power}'s orders were changed without being marked as corrected")
    sets = {}
    for power, u in (p.get("used") or {}).items():
        sub = r.submissions.get(int(u["seq"])) if u.get("seq") else None
        text = (sub.get("conditional") or r.plan_texts.get(sub.get("plan") or "")) if sub is not None else None
        if text:
            sets[power] = OrderSet(int(u["seq"]), 0, power, PLAYER, (), text, "", "", "", "")
    _readjudicate(r, s.evolve(rules_spec=p["rules"]), e, p, sets)


def _readjudicate(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any], sets: Mapping[str, OrderSet]) -> None:
    """Adjudicate the phase again and compare with what was published."""
    phase = p["phase"]
    position = Position.from_dict(s.variant, p["position"])
    options = load_rules(p["rules"], default=s.variant.default_rules)
    adj = adjudicate(position, p["orders"], options, s.sides())
    results = [o.as_dict() for o in adj.outcomes]
    if canonical(_decisions(results)) != canonical(_decisions(p["results"])):
        r.bad(e, f"the published results of {phase} are not what the engine gives: {_first_difference(p['results'], results)}")
    elif canonical(results) != canonical(p["results"]):
        r.reworded += 1
    if canonical(adj.next.to_dict()) != canonical(p["next"]):
        r.bad(e, f"the published position after {phase} is not what the engine gives")
    if adj.winner != p.get("winner"):
        r.bad(e, f"the published winner ({p.get('winner')}) is not the engine's ({adj.winner})")
    if [str(d.unit) for d in adj.dislodged] != list(p.get("dislodged") or []):
        r.bad(e, f"the units dislodged in {phase} are not those the engine gives")
    plans = read_plans(s.evolve(rules_spec=p["rules"]), sets, position)
    if canonical(plans) != canonical({**(p.get("plans") or {}), **s.plans_read}):
        r.bad(e, "the conditional orders recorded are not those filed with the orders used")
    r.replayed += 1
    r.payloads[e.seq] = p


def _check_deadline(r: Replay, s: GameState, e: Entry, p: Mapping[str, Any]) -> None:
    """A phase's deadline is the one the game's schedule gives from the moment it opened."""
    if s.live is not None or p.get("deadline") is None:
        return
    position = Position.from_dict(s.variant, p["position"]) if "position" in p else s.position
    if position is None:
        return
    want = s.settings.deadline(position.phase.kind, parse_stamp(e.at))
    if p["deadline"] != want.isoformat():
        r.bad(e, f"the deadline set ({p['deadline']}) is not the game's schedule's ({want.isoformat()})")


def _decisions(results: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    """The results without their explanations: the engine's wording of a reason may improve from one
    version to the next, but what each order did may not change."""
    return [{k: v for k, v in o.items() if k not in ("reason", "notes")} for o in results]


def _first_difference(want: Sequence[Mapping[str, Any]], got: Sequence[Mapping[str, Any]]) -> str:
    for a, b in zip(want, got):
        if a != b:
            return (f"{a.get('power')} {a.get('text')!r}: published {a.get('order')} {a.get('result')} "
                    f"({a.get('reason')}), engine {b.get('order')} {b.get('result')} ({b.get('reason')})")
    return f"{len(want)} results published, the engine gives {len(got)}"


_AUDITS: dict[type[Event], Audit] = {
    OrdersRefused: _on_payload(_check_refusal),
    LotsDrawn: _lots_drawn,
    SeatClaimed: _on_payload(_check_claim),
    PowersAssigned: _powers_assigned,
    GameStarted: _game_started,
    OrdersSubmitted: _on_payload(_check_submission),
    ConditionalChosen: _on_payload(_check_chosen),
    DeadlineClosed: _deadline_closed,
    PhaseAdjudicated: _on_payload(_check_adjudication),
    Correction: _on_payload(_check_correction),
    PhaseOpened: _on_payload(_check_deadline),
    CoinTossed: _on_payload(_check_toss),
    GameEnded: _on_payload(_check_scores),
    PowerJoined: _power_joined,
    Grace: _grace,
    CivilDisorder: _civil_disorder,
    **{cls: _unchecked for cls in (
        GameCreated, PlayerJoined, CredentialReplaced, OrdersWithdrawn, PlanFiled, PlanRead, Ready, Extended, Paused,
        Resumed, AwaitingRemovals, Deadlock, SeatsOpen, BotsAllowed, DrawDeclared, StandbyCalled, StandbyReleased,
        PlayerReplaced, PlayerResigned, Press, DrawProposed, DrawVote, DrawResult, LiveChanged, KeyAdded, SetDisputed,
        LeagueAdded)},
}
handlers("audit", _AUDITS)


# -- receipts and published heads -------------------------------------------------------------------------------


_SETS = kinds(OrdersSubmitted, OrdersWithdrawn)  # a power's sets and withdrawals
_RECEIPT_KINDS = _SETS | PUBLISHED


class ReceiptIndex:
    """A ledger's entries that bear on receipts, read once: each power's sets, withdrawals and rulings by phase."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.by_power: dict[tuple[str, str], list[tuple[Entry, Mapping[str, Any]]]] = {}
        self.rulings: dict[str, list[tuple[Entry, Mapping[str, Any]]]] = {}
        for e in entries:
            if e.sealed or e.kind not in _RECEIPT_KINDS:
                continue
            p = e.payload
            if e.kind in _SETS:
                self.by_power.setdefault((p["phase"], p["power"]), []).append((e, p))
            else:
                self.rulings.setdefault(p["phase"], []).append((e, p))


def check_receipt(game_id: str, text: str, entries: "Sequence[Entry] | ReceiptIndex", *,
                  private: bool) -> ReceiptCheck:
    """What the chain says of a receipt. private: the caller may see entries not yet public (the GM, the power)."""
    try:
        receipt = Receipt.parse(text)
    except ValueError as exc:
        return ReceiptCheck(str(text)[:120], False, "unreadable", str(exc))
    shown = str(receipt)
    if receipt.game != game_id:
        return ReceiptCheck(shown, False, "mismatch", f"this receipt is for game {receipt.game}, not {game_id}")
    index = entries if isinstance(entries, ReceiptIndex) else ReceiptIndex(entries)
    found = None
    later = None
    for e, p in index.by_power.get((receipt.phase, receipt.power), ()):
        if e.kind == EventKind.ORDERS_SUBMITTED and int(p["number"]) == receipt.number:
            found = e
        elif found is not None and later is None and (e.kind == EventKind.ORDERS_WITHDRAWN or
                                                      int(p["number"]) > receipt.number):
            later = e
    decided = None  # the first adjudication of the phase after the set (a retreat phase may have rounds)
    corrected = None  # the last correction of the phase that changed this power's orders
    for e, p in index.rulings.get(receipt.phase, ()):
        if e.kind == EventKind.PHASE_ADJUDICATED:
            if decided is None and (found is None or e.seq > found.seq):
                decided = e
        elif ((p.get("used") or {}).get(receipt.power) or {}).get("source") == "correction":
            corrected = e
    if later is not None and decided is not None and later.seq > decided.seq:
        later = None  # after the results: another phase's business
    title = f"{receipt.power.capitalize()}'s set #{receipt.number} for {receipt.phase}"
    if found is None:
        if decided is None and not private:
            return ReceiptCheck(shown, False, "not-yet-public",
                                f"{receipt.phase} has not been published yet: the receipt can be checked by anyone once "
                                "its results are out; until then compare its commitment with the one the game page shows")
        return ReceiptCheck(shown, False, "missing", f"{title} is not on the record: the record was changed, or the "
                            "receipt is not from this game")
    p = found.payload
    recomputed = commitment(p["phase"], p["power"], int(p["number"]), p["orders"], committed_conditional(p), p["salt"])
    if p["commitment"] != receipt.commitment or recomputed != receipt.commitment:
        if decided is None:  # the phase is open: no entry numbers (see below)
            return ReceiptCheck(shown, False, "mismatch", f"{title} is on the record with other orders than the "
                                "receipt commits to: the record was changed")
        return ReceiptCheck(shown, False, "mismatch", f"{title} is on the record (entry {found.seq}) with other orders "
                            "than the receipt commits to: the record was changed", found.seq, found.hash)
    if decided is None:
        # The phase is open: an entry's number or hash would tell the power how many hidden entries
        # (the others' letters and changes of mind) came between its sets. Its own numbers say enough.
        where = f"{title} is on the record as sent"
        if later is not None:
            how = "withdrawn" if later.kind == EventKind.ORDERS_WITHDRAWN else f"replaced by its set #{later.payload['number']}"
            return ReceiptCheck(shown, True, "withdrawn" if later.kind == EventKind.ORDERS_WITHDRAWN else "replaced",
                                f"{where}; it was {how}")
        return ReceiptCheck(shown, True, "pending", f"{where}; it is the set on record now")
    where = f"{title} is on the record as sent (entry {found.seq}, hash {found.hash[:16]}...)"
    fixed = (f"; the gamesmaster then corrected {receipt.power.capitalize()}'s orders (entry {corrected.seq}: "
             f"{corrected.payload.get('reason')})" if corrected is not None else "")
    if decided is not None:
        used = ((decided.payload.get("used") or {}).get(receipt.power) or {})
        if int(used.get("seq") or -1) == found.seq:
            return ReceiptCheck(shown, True, "used", f"{where}; these are the orders its results were computed from "
                                f"(entry {decided.seq}){fixed}", found.seq, found.hash)
    if later is not None:
        how = "withdrawn" if later.kind == EventKind.ORDERS_WITHDRAWN else f"replaced by set #{later.payload['number']}"
        return ReceiptCheck(shown, True, "withdrawn" if later.kind == EventKind.ORDERS_WITHDRAWN else "replaced",
                            f"{where}; it was {how} (entry {later.seq})", found.seq, found.hash)
    return ReceiptCheck(shown, False, "mismatch", f"{where}, and nothing replaced it, yet the results of "
                        f"{receipt.phase} (entry {decided.seq}) were not computed from it", found.seq, found.hash)


def _check_head(text: str, by_seq: Mapping[int, Entry]) -> list[str]:
    seq_text, _, digest = str(text).strip().partition(":")
    if not seq_text.isdigit() or len(digest) != 64:
        return [f"published head {str(text)[:80]!r}: write it as SEQ:HASH (e.g. 42:9f3a...)"]
    e = by_seq.get(int(seq_text))
    if e is None:
        return [f"ledger entry {seq_text}: missing, but a published head names it"]
    if e.hash != digest.lower():
        return [f"ledger entry {e.seq} ({e.kind}): its hash is not the one published ({digest[:12]}...): the record "
                "was rewritten after it was published"]
    return []


# -- the tables beside the ledger -------------------------------------------------------------------------------------


def compare_tables(r: Replay, entries: list[Entry], tables: Tables) -> list[str]:
    """Every difference between the caches and what the ledger implies, naming the entry and the row."""
    out: list[str] = []
    last = entries[-1] if entries else None
    state = r.state
    row = tables.game
    if row is None:
        out.append(f"ledger entry {last.seq if last else 0}: the games table has no row for {r.game_id}")
        return out
    if last is not None and (row.head_seq, row.head_hash) != (last.seq, last.hash):
        out.append(f"ledger entry {last.seq}: the ledger ends here, but the games table says it ends at entry "
                   f"{row.head_seq} ({row.head_hash[:12]}...): entries were removed or added")
    if state is not None:
        want = canonical(state.to_dict())
        if row.state != want:
            out.append(f"ledger entry {state.head_seq}: the game's cached state differs from the ledger's "
                       f"({_state_difference(row.state, state)})")
        for name, value in (("status", state.status), ("phase", state.phase), ("title", state.title),
                            ("variant", state.variant_name), ("deadline", state.deadline_at)):
            if getattr(row, name) != value:
                out.append(f"ledger entry {state.head_seq}: the games table's {name} is {getattr(row, name)!r}, "
                           f"the ledger says {value!r}")
        if row.created_at != parse_stamp(state.created):
            out.append(f"ledger entry 1 (game-created): the games table's created_at is {row.created_at.isoformat()}, "
                       f"the ledger says {state.created}")
        joined = {int(e.payload["player"]): e.seq for e in entries if e.kind == EventKind.PLAYER_JOINED and not e.sealed}
        for seat in state.seats:
            stored = tables.credentials.get(seat.number)
            if stored is None:
                out.append(f"ledger entry {joined.get(seat.number, 0)} (player-joined): the credential of "
                           f"{seat.name} (player {seat.number}) is missing from the credentials table")
            elif fingerprint(stored) != seat.key:
                out.append(f"ledger entry {joined.get(seat.number, 0)} (player-joined): the stored credential of "
                           f"{seat.name} (player {seat.number}) is not the one the record issued: it was replaced")
        for number in sorted(set(tables.credentials) - {s.number for s in state.seats}):
            out.append(f"ledger entry {last.seq if last else 0}: the credentials table holds player {number}, "
                       "whom the record never signed up")
    out.extend(_compare_phases(r, tables.phases))
    out.extend(_compare_press(r, tables.press))
    if tables.standings is not None and r.state is not None:
        out.extend(_compare_standings(r, entries, tables.standings))
    return out


def _compare_standings(r: Replay, entries: list[Entry], stored: Sequence[Line]) -> list[str]:
    """The standings table's lines of the game against those its ledger gives (docs/standings.md)."""
    try:
        expected = {x.player: x for x in lines_of(entries, r.game_id)}
    except _UNREADABLE:
        return []  # a ledger that does not fold: the replay has said why
    have = {x.player: x for x in stored}
    head = r.state.head_seq if r.state is not None else 0
    out = []
    for number in sorted(set(expected) | set(have)):
        if expected.get(number) != have.get(number):
            name = (expected.get(number) or have[number]).name
            out.append(f"ledger entry {head}: the standings table's line for {name} (player {number}) differs from "
                       "the ledger's (gamesmaster rebuild writes it again)")
    return out


def _state_difference(stored: str, state: GameState) -> str:
    import json
    try:
        doc = json.loads(stored)
    except ValueError:
        return "it is not JSON"
    want = state.to_dict()
    fields_ = [f.name for f in fields(GameState) if canonical(doc.get(f.name)) != canonical(want.get(f.name))]
    return "it differs in " + ", ".join(fields_) if fields_ else "it is written differently"


def _compare_phases(r: Replay, stored: Sequence[PhaseRow]) -> list[str]:
    want: dict[tuple[int, int], PhaseRow] = {}
    for row in r.rows:
        if isinstance(row, Superseded):
            for key, old in list(want.items()):
                if key[0] == row.number and old.current:
                    want[key] = PhaseRow(**{**old.__dict__, "current": False})
        elif isinstance(row, PhaseRow):
            want[(row.number, row.revision)] = row
    have = {(row.number, row.revision): row for row in stored}
    return _compare_table(
        want, have, lambda row, got: bool(_differing(got, row)),
        missing=lambda key, row: f"ledger entry {row.ledger_seq}: the published {row.phase} (revision {key[1]}) is "
                                 "missing from the phases table",
        differs=lambda key, row, got: f"ledger entry {row.ledger_seq}: the phases table's row for {row.phase} (revision "
                                      f"{key[1]}) differs from what this entry published "
                                      f"({', '.join(_differing(got, row))})",
        extra=lambda key, row: f"ledger entry {row.ledger_seq}: the phases table holds {row.phase} (revision {key[1]}), "
                               "which the ledger never published")


def _compare_press(r: Replay, stored: Sequence[PressRow]) -> list[str]:
    want = {row.number: row for row in r.rows if isinstance(row, PressRow)}
    have = {row.number: row for row in stored}
    return _compare_table(
        want, have,
        lambda row, got: got != row and canonical(_jsonable(got.__dict__)) != canonical(_jsonable(row.__dict__)),
        missing=lambda number, row: f"ledger entry {row.ledger_seq} (press): press item {number} is missing from the "
                                    "press table",
        differs=lambda number, row, got: f"ledger entry {row.ledger_seq} (press): the press table's item {number} "
                                         f"differs from this entry ({', '.join(_differing(got, row))})",
        extra=lambda number, row: f"ledger entry {row.ledger_seq}: the press table holds item {number}, which the "
                                  "ledger never recorded")


def _compare_table(want: Mapping[Any, Any], have: Mapping[Any, Any], differ: Callable[[Any, Any], bool], *,
                   missing: Callable[[Any, Any], str], differs: Callable[[Any, Any, Any], str],
                   extra: Callable[[Any, Any], str]) -> list[str]:
    # One walk for every table the ledger rebuilds: what it wants and is missing, what differs, what it never wrote.
    out = []
    for key, row in want.items():
        got = have.get(key)
        if got is None:
            out.append(missing(key, row))
        elif differ(row, got):
            out.append(differs(key, row, got))
    out.extend(extra(key, have[key]) for key in sorted(set(have) - set(want)))
    return out


def _jsonable(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _differing(got: Any, want: Any) -> list[str]:
    """The names of the fields in which a stored row differs from the one the ledger gives."""
    return [f.name for f in fields(want) if canonical(_jsonable(getattr(got, f.name))) !=
            canonical(_jsonable(getattr(want, f.name)))]
