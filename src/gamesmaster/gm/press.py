"""Press and votes: releases, letters and GM notices; draws and concessions put to the survivors."""

from __future__ import annotations

from typing import Callable, Sequence

from ..store.repo import PressRow
from . import limits
from .adjudicating import Result, finish
from .desk import Actor, Desk, acting, authenticate, power_of
from .errors import Forbidden, GMError, NotFound
from .live import press_closed
from .questions import is_to_gm, record_question
from .state import GM, GameState, Proposal
from .memo import Memo
from .tx import Transaction
from .views import PressItem
from .events import DrawDeclared, DrawProposed, DrawResult, DrawVote, ProposalKind, VoteOutcome



def can_read(row: PressRow, reader: str) -> bool:
    """Whether a reader (a power, or GM) may read a press item."""
    return reader == GM or row.recipients is None or row.sender == reader or reader in (row.recipients or [])


def press_item(row: PressRow, reader: str, number: int | None = None) -> PressItem:
    """A press item as a reader sees it: an anonymous sender hidden from all but the GM and the sender.

    number: its place among the items this reader may read. Only the GM is shown the game's own
    numbering, whose gaps would count the letters between other powers."""
    sender = row.sender
    if row.anonymous and reader not in (GM, sender):
        sender = "anonymous"
    return PressItem(row.number if number is None else number, row.phase, row.sent_at, sender, tuple(row.recipients) if row.recipients else None,
                     row.anonymous, row.text, row.ledger_seq)


def _numbered(tx: Transaction, actor: Actor) -> int:
    """The number the item just sent has in what its sender may read (the game's own numbering for the GM)."""
    if actor.seat is None:
        return tx.state.press_count
    readers = actor.seat.acts_for()
    return 1 + sum(1 for p in tx.rec.press(tx.state.id) if any(can_read(p, r) for r in readers))


def voters(state: GameState) -> list[str]:
    """The powers with a vote: surviving powers that have a player."""
    position = state.position
    return [p for p in position.powers_alive() if state.holder(p)] if position else []


def readable_press(rows: Sequence[PressRow], readers: tuple[str, ...]) -> tuple[PressItem, ...]:
    """The press (a game's rows) any of these readers (powers, or GM alone) may read, numbered in their own count."""
    out: list[PressItem] = []
    for p in rows:
        who = next((r for r in readers if can_read(p, r)), None)
        if who is not None:
            out.append(press_item(p, p.sender if p.sender in readers else who,
                                  None if readers == (GM,) else len(out) + 1))
    return tuple(out)


def public_press_of(rows: Sequence[PressRow]) -> tuple[PressItem, ...]:
    """The press (a game's rows) everyone may read: public releases and GM notices, anonymous senders hidden."""
    return tuple(press_item(p, "", n) for n, p in enumerate((p for p in rows if p.recipients is None), 1))


def kept_public_press(memo: Memo, state: GameState, rows: Callable[[], Sequence[PressRow]]) -> tuple[PressItem, ...]:
    """The press everyone may read (rows: the game's press, read only when needed), worked out once for each
    number of press items: an item is only ever added, and counted as it is."""
    return memo.lasting(state, "public press", state.press_count, lambda: public_press_of(rows()))


class Press:
    """Press releases, letters and GM notices; draw and concession votes."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    def post_press(self, game_id: str, text: str, *, power: str | None = None, to: Sequence[str] | None = None,
                   anonymous: bool = False, credential: str | None = None, by_gm: bool = False) -> int:
        """Press: a public announcement (to=None) or a letter to some powers, or a GM notice (by_gm, no power).
        A power's letter to GM alone is a question to the gamesmaster (gm.questions)."""
        text = limits.clean(text, "the press release", limits.PRESS_CHARS)
        if not text.strip():
            raise GMError("the press release is empty")
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            actor = acting(tx.rec, state, power, credential, by_gm, now=tx.now)
            sender = actor.power or GM
            if sender != GM and is_to_gm(to):  # a letter to the gamesmaster is a question, whatever the press setting
                record_question(tx, actor, text.strip(), "press")
                return _numbered(tx, actor)
            recipients = sorted({power_of(state, p) for p in to}) if to else None
            if sender != GM:
                setting = state.settings.press
                if setting == "none":
                    raise GMError(f"{game_id} is played without press: only the gamesmaster's notices")
                closed = press_closed(state.live.state) if state.live is not None else None
                if closed:
                    raise GMError(f"{game_id} is played live and the press is closed: {closed}")
                if recipients and setting == "public":
                    raise GMError(f"{game_id} allows only public press: no private letters")
                if anonymous and setting != "anonymous":
                    raise GMError(f"{game_id} does not allow anonymous press (press setting: {setting})")
                if recipients and sender in recipients and len(recipients) == 1:
                    raise GMError("a letter to oneself is not press")
            elif anonymous:
                raise GMError("the gamesmaster's notices are never anonymous")
            tx.press(sender, text.strip(), recipients, anonymous, actor.signed(tx.state))
            return _numbered(tx, actor)

    def press(self, game_id: str, viewer: str | None = None, *, credential: str | None = None) -> tuple[PressItem, ...]:
        """The press a viewer may read: the GM (no viewer, no credential) reads everything; a viewer
        named without a credential is taken at its word (for the GM's own tools). With a credential
        and no viewer, what any of the powers the credential's player commands may read."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            readers: tuple[str, ...] = (GM,)
            if credential is not None and viewer is None:
                seat = authenticate(rec, state, credential, now=self._desk.now())
                readers = seat.acts_for()
                if not readers:
                    raise Forbidden(f"{seat.name} plays no power in {state.id}")
            elif credential is not None:
                readers = (acting(rec, state, viewer, credential, False, now=self._desk.now()).power or GM,)
            elif viewer is not None:
                readers = (power_of(state, viewer),)
            return readable_press(rec.press(game_id), readers)

    def public_press(self, game_id: str) -> tuple[PressItem, ...]:
        """The press everyone may read: public releases and GM notices, anonymous senders hidden."""
        with self._desk.reading() as rec:
            state = self._desk.snapshot(rec, game_id)
            return kept_public_press(self._desk.memo, state, lambda: rec.press(game_id))

    def propose(self, game_id: str, *, kind: str = "draw", powers: Sequence[str] | None = None,
                concede_to: str | None = None, power: str | None = None, credential: str | None = None,
                by_gm: bool = False) -> int:
        """Propose a draw (among the survivors, or the powers named) or a concession to one power."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status not in ("active", "paused"):
                raise GMError(f"{game_id} is {state.status}: no proposals")
            actor = acting(tx.rec, state, power, credential, by_gm, now=tx.now)
            proposer = actor.power or GM
            survivors = state.position.powers_alive()  # type: ignore[union-attr]
            if kind == "draw":
                share = sorted({power_of(state, p) for p in powers}) if powers else survivors
                dead = [p for p in share if p not in survivors]
                if dead:
                    raise GMError(f"{', '.join(p.capitalize() for p in dead)} no longer in the game: a draw is shared by survivors")
                share = [p for p in survivors if p in share]
            elif kind == "concession":
                if not concede_to:
                    raise GMError("a concession names the power conceded to")
                winner = power_of(state, concede_to)
                if winner not in survivors:
                    raise GMError(f"{winner.capitalize()} is not in the game")
                share = [winner]
            else:
                raise GMError(f"unknown proposal {kind!r}: draw or concession")
            same = next((p for p in state.proposals if p.status == "open" and p.kind == kind
                         and set(p.powers) == set(share)), None)
            if same is not None:  # proposed twice at once (two bots' DRW): the second proposer agrees to the first
                if actor.power in voters(state) and same.votes.get(actor.power) is not True:
                    tx.record(DrawVote(proposal=same.id, power=actor.power, yes=True, by=actor.by))
                    _tally(tx, same.id)
                return same.id
            number = len(state.proposals) + 1
            tx.record(DrawProposed(proposal=number, kind=ProposalKind(kind), proposer=proposer, powers=tuple(share), phase=state.phase))
            what = (f"a draw between {', '.join(p.capitalize() for p in share)}" if kind == "draw"
                    else f"conceding the game to {share[0].capitalize()}")
            tx.notice(f"Proposal {number}: {what}. Every surviving player votes yes or no before the "
                      f"{state.position.phase.title} deadline ({state.settings.draw_vote}).")  # type: ignore[union-attr]
            _tally(tx, number)
            return number

    def vote(self, game_id: str, proposal: int, yes: bool, *, power: str | None = None,
             credential: str | None = None, by_gm: bool = False) -> str:
        """A survivor votes on a proposal; returns its status (open, passed, rejected)."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            actor = acting(tx.rec, state, power, credential, by_gm, now=tx.now)
            if actor.power is None:
                raise GMError("the gamesmaster does not vote: name the power whose vote is entered")
            found = _proposal(state, proposal)
            if found.status != "open":
                raise GMError(f"proposal {proposal} is {found.status}: votes are closed")
            if actor.power not in voters(state):
                raise GMError(f"{actor.power.capitalize()} has no vote (only surviving powers with a player vote)")
            tx.record(DrawVote(proposal=found.id, power=actor.power, yes=bool(yes),
                               by=actor.signed(tx.state)))
            return _tally(tx, found.id)

    def declare_draw(self, game_id: str, *, powers: Sequence[str] | None = None, reason: str = "") -> None:
        """The GM declares a draw (the deadlock rule 'ask-gm', or with every survivor's agreement given in person)."""
        with self._desk.transaction(game_id) as tx:
            state = tx.state
            if state.status not in ("active", "paused"):
                raise GMError(f"{game_id} is {state.status}")
            survivors = state.position.powers_alive()  # type: ignore[union-attr]
            named = {power_of(state, x) for x in powers} if powers else set(survivors)
            share = [p for p in survivors if p in named]
            tx.record(DrawDeclared(powers=tuple(share), reason=limits.reason(reason)))
            finish(tx, {"kind": "draw", "winners": share, "phase": state.phase or "",
                        "reason": reason or "declared by the gamesmaster"})

    def proposals(self, game_id: str) -> tuple[Proposal, ...]:
        """Every draw and concession proposal of a game."""
        with self._desk.reading() as rec:
            return self._desk.snapshot(rec, game_id).proposals


def _proposal(state: GameState, number: int) -> Proposal:
    found = next((p for p in state.proposals if p.id == int(number)), None)
    if found is None:
        raise NotFound(f"no proposal {number} in {state.id}")
    return found


def _tally(tx: Transaction, number: int) -> str:
    state = tx.state
    proposal = _proposal(state, number)
    eligible = voters(state)
    votes = {p: v for p, v in proposal.votes.items() if p in eligible}
    yes = sum(1 for v in votes.values() if v)
    no = sum(1 for v in votes.values() if not v)
    if state.settings.draw_vote == "unanimous":
        status = "rejected" if no else ("passed" if yes == len(eligible) and eligible else "open")
    else:
        status = "passed" if yes * 2 > len(eligible) else ("rejected" if no * 2 >= len(eligible) else "open")
    if status == "open":
        return status
    tx.record(DrawResult(proposal=number, status=VoteOutcome(status), yes=yes, no=no, voters=tuple(eligible)))
    if status == "rejected":
        tx.notice(f"Proposal {number} is rejected; the game goes on.")
        return status
    result: Result
    if proposal.kind == "draw":
        result = {"kind": "draw", "winners": list(proposal.powers), "phase": state.phase or "",
                  "reason": f"proposal {number} agreed by {'all' if no == 0 else yes} of the survivors"}
    else:
        result = {"kind": "concession", "winners": list(proposal.powers), "phase": state.phase or "",
                  "reason": f"the other survivors conceded (proposal {number})"}
    finish(tx, result)
    return status
