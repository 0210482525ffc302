"""Accounts and seats: games seeking players, joining one, claiming a seat with its credential, the GM's
invitations, and each account's games with what each needs from its player now.

A seat an account holds is a fact of the game, so it is on the game's ledger: a
`seat-claimed` entry names the player's number and the account's public ref (never its
address), and how it came to hold it (joined an open game, by invitation, or with the
seat's credential). The record so says who held each seat when; a new credential for the
seat ends the account's hold (gm.fold). The per-power credentials keep working beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..store.accounts import AccountRecords
from . import limits
from .accounts import Accounts, account_record, email_address, index_seats
from .club import Club, entry_refusal
from .desk import Actor, Desk, identify
from .keys import CREDENTIAL, Secret
from .sessions import give_key
from .errors import GMError
from .games import Setup, add_seat, playable_powers
from .reading import Reading
from .state import PLAYER, GameState, Seat
from .tx import Transaction
from .views import Created, GameView
from .events import ABSENT, SeatClaimed, SeatsOpen

SEATS = ("lot", "choice")  # how the powers of an open game are given: drawn by lot, or chosen on joining


@dataclass(frozen=True)
class OpenGame:
    """A game seeking players: how many seats are free and how powers are given."""

    id: str
    title: str
    variant: str
    seats: str  # lot or choice
    players: int
    places: int
    free_powers: tuple[str, ...]  # with seats by choice: the powers nobody has chosen


@dataclass(frozen=True)
class MyGame:
    """One of an account's games: the seat, the season, and what it needs from the player now."""

    id: str
    title: str
    status: str
    seat: str
    powers: tuple[str, ...]
    phase_title: str | None
    deadline_text: str
    needs: tuple[str, ...]


@dataclass(frozen=True)
class Joined:
    """An account's new seat: its number, the credential (for mail and clubs, shown once) and whether the game began."""

    game: str
    player: int
    credential: str
    started: Created | None
    waiting: str | None = None  # every place is taken but the game could not start: why (for the GM to settle)


def _free(state: GameState) -> tuple[str, ...]:
    chosen = set(state.joining.choices.values())
    return tuple(p for p in playable_powers(state) if p not in chosen)


def needs(state_view: GameView, powers: tuple[str, ...]) -> tuple[str, ...]:
    """What a game needs from the player of these powers now, in a few words each."""
    if state_view.status == "forming":
        return ("waiting for players",)
    if state_view.status == "paused":
        return ("paused by the gamesmaster",)
    if state_view.status == "finished":
        return (state_view.result.headline if state_view.result else "over",)
    out = []
    kind = state_view.phase.kind if state_view.phase else "M"
    concerned = False
    for power in powers:
        ps = state_view.power(power)
        concerned = concerned or ps.to_order
        if ps.to_order and not ps.ordered:
            out.append({"M": f"orders due for {power.capitalize()}", "R": f"a retreat for {power.capitalize()}",
                        "A": f"builds or removals for {power.capitalize()}"}[kind])
        for pr in state_view.proposals:
            if power not in pr.votes:
                out.append(f"a vote on proposal {pr.id} ({pr.kind})")
    return tuple(dict.fromkeys(out)) or ("nothing: your orders are in",) if concerned else ("nothing to order now",)


class Joining:
    """Open games, joining, claiming seats, invitations, and an account's games."""

    def __init__(self, desk: Desk, accounts: Accounts, club: Club, setup: Setup, games: Reading) -> None:
        self._desk = desk
        self._accounts = accounts
        self._club = club
        self._setup = setup
        self._games = games

    def open_seats(self, game_id: str, open_: bool = True, seats: str = "lot") -> None:
        """The GM opens a forming game to players with accounts (or closes it); seats by lot or by choice."""
        if seats not in SEATS:
            raise GMError(f"seats {seats!r}: choose lot (drawn when the game starts) or choice (chosen on joining)")
        with self._desk.transaction(game_id) as tx:
            if open_ and tx.state.status != "forming":
                raise GMError(f"{game_id} has started: only a forming game seeks players")
            tx.record(SeatsOpen(open=bool(open_), seats=seats))

    def open_games(self, invited: Iterable[str] = ()) -> tuple[OpenGame, ...]:
        """Every game seeking players (and the forming games one was invited to), oldest first."""
        out = []
        invited = set(invited)
        with self._desk.reading() as rec:
            for game_id in rec.game_ids(status="forming"):  # not every game: /account lists these at each look
                st = self._desk.snapshot(rec, game_id)
                if st.status == "forming" and (st.joining.open or game_id in invited):
                    out.append(OpenGame(st.id, st.title, st.variant_name, st.joining.seats,
                                        len([s for s in st.seats if s.role == PLAYER]), len(playable_powers(st)),
                                        _free(st)))
        return tuple(out)

    def join_open(self, game_id: str, account_id: int, power: str | None = None, *, invited: bool = False,
                  token: str | None = None) -> Joined:
        """An account takes a seat in a forming game that is open (or that its owner was invited to).

        With seats by choice the power must be named and free; with seats by lot it is drawn
        with everyone's when the game starts. The game starts when its last place is taken."""
        account = self._accounts.account(account_id)
        record = self._club.reliability(account.ref)  # read before the game is held: the standings are another table
        with self._desk.transaction(game_id) as tx:
            st = tx.state
            if st.status != "forming":
                raise GMError(f"{game_id} has started: it takes no new players")
            if not invited and not st.joining.open:
                raise GMError(f"{game_id} is not open to new players")
            if any(ref == account.ref and (s := st.seat(int(n))) is not None and s.role != "former"
                   for n, ref in st.claims.items()):
                raise GMError(f"you have a seat in {game_id} already")
            refusal = entry_refusal(st.settings, record)
            if refusal:
                raise GMError(f"{game_id} {refusal}")
            places = playable_powers(st)
            if len([s for s in st.seats if s.role == PLAYER]) >= len(places):
                raise GMError(f"{game_id} is full: {len(places)} powers to play")
            chosen = self._chosen_power(st, power)
            name = account.name if st.seat_named(account.name) is None else f"{account.name} ({account.ref[:6]})"
            credential = add_seat(tx, name, PLAYER)
            number = len(tx.state.seats)
            self._claim(tx, number, account.ref, "invitation" if invited and not st.joining.open else "joined",
                        chosen, Secret(credential.split(".", 1)[1], CREDENTIAL), token)
            full = len([s for s in tx.state.seats if s.role == PLAYER]) == len(places)
        if not full:
            return Joined(game_id, number, credential, None)
        try:
            return Joined(game_id, number, credential, self.start_full(game_id))
        except GMError as exc:  # the seat is taken all the same; the GM starts the game
            return Joined(game_id, number, credential, None, str(exc))

    def _chosen_power(self, st: GameState, power: str | None) -> str | None:
        if st.joining.seats != "choice":
            return None
        free = _free(st)
        wanted = (power or "").strip().upper()
        if not wanted:
            raise GMError("choose the power you will play: " + ", ".join(p.capitalize() for p in free))
        if wanted not in free:
            raise GMError(f"{wanted.capitalize()} is not free: choose one of " + ", ".join(p.capitalize() for p in free))
        return wanted

    def start_full(self, game_id: str) -> Created:
        """Start a game whose places are all taken: powers by lot, or as the players chose them (Games.draw_lots)."""
        return self._setup.draw_lots(game_id)

    def game_state(self, game_id: str) -> GameState:
        """A game's state as its record leaves it."""
        with self._desk.reading() as rec:
            return self._desk.snapshot(rec, game_id)

    def claim_seat(self, game_id: str, credential: str, account_id: int, *, token: str | None = None) -> int:
        """An account claims the seat a credential belongs to (the slow check); returns the player's number.

        The browser the session token comes from gets a key for the seat on the record (gm.keys)."""
        account = self._accounts.account(account_id)
        with self._desk.transaction(game_id) as tx:
            seat, secret = identify(tx.rec, tx.state, credential, now=tx.now)
            if tx.state.claims.get(str(seat.number)) != account.ref:
                self._claim(tx, seat.number, account.ref, "credential", None, secret, token)
            else:
                give_key(tx, seat, secret, token or "", "claimed")
            return seat.number

    def _claim(self, tx: Transaction, number: int, ref: str, how: str, power: str | None, secret: Secret | None,
               token: str | None) -> None:
        """The claim on the record, proved by the seat's credential, and a key for the claiming browser."""
        seat = tx.state.seat(number)
        assert seat is not None
        tx.record(SeatClaimed(player=number, name=seat.name, account=ref, how=how, power=power or ABSENT,
                              by=Actor(seat, None, secret).signed(tx.state)))
        give_key(tx, seat, secret, token or "", "claimed")
        ar = AccountRecords(tx.rec.conn)
        index_seats(ar, tx.game_id, {str(number): ref})
        if ar.cursor(tx.game_id) is None:  # notifications start from here, not from the game's whole past
            ar.put_cursor(tx.game_id, None, tx.state.head_seq)

    def invite(self, game_id: str, email: str, name: str, base_url: str) -> None:
        """The GM invites someone by e-mail to a forming game: the mail carries a link that signs them in
        (making their account if need be) and lets them join even if the game is not open to all."""
        email = email_address(email)
        st = self.game_state(game_id)
        if st.status != "forming":
            raise GMError(f"{game_id} has started: replace a player instead of inviting one")
        name = limits.name(name, "the player's name") or email.split("@")[0]
        now = self._desk.now()
        with self._desk.store.connect() as conn:
            ar = AccountRecords(conn)
            self._accounts.mail_link(ar, account_record(ar, email, name, now), base_url, now, game=game_id,
                                     title=st.title)

    def my_games(self, account_id: int) -> tuple[MyGame, ...]:
        """An account's games, each with what it needs from its player now."""
        out = []
        for game_id, seat in self._accounts.account_seats(account_id).items():
            view = self._games.game(game_id)
            powers = seat.acts_for()
            out.append(MyGame(game_id, view.title, view.status, seat.name, powers, view.phase_title,
                              view.deadline_text, needs(view, powers)))
        return tuple(out)

    def seat_of(self, game_id: str, account_ref: str) -> Seat | None:
        """The seat an account holds in a game, or None."""
        st = self.game_state(game_id)
        for number, ref in st.claims.items():
            seat = st.seat(int(number))
            if ref == account_ref and seat is not None and seat.role != "former":
                return seat
        return None

