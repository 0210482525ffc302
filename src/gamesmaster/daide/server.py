"""The DAIDE door: a TCP server where bots play gamesmaster games in the DAIDE language.

One port serves one game (DAIDE has no way to choose a game). A connection goes
through the protocol's stages (`Connection`): the initial message (within
`Limits.im_timeout` seconds), the representation message naming the map's powers and
provinces, then diplomacy messages both ways until a final or error message. Every
message a bot sends is answered: the request's answer, `HUH` with `ERR` where a message
stops making sense, `PRN` for brackets that do not match, `REJ` for a message that
makes sense but cannot be done (with an `ADM` saying why), and an error message (then
the connection closes) for what breaks the protocol itself.

The `GameDoor` is the game's side: who sits where (`seats.Seated`), and what the
gamesmaster says. Every change goes through the `Gamesmaster`'s calls like any door's
-- orders by `submit_orders(..., channel="daide")`, press by `post_press`, draws by
`propose`/`vote` -- run in worker threads so that the event loop never waits on the
database. After each change, and every `poll` seconds for changes made elsewhere (the
deadline worker, the web site, e-mail), the door reads what the ledger added
(`Gamesmaster.changes`) and tells the bots: order results (`ORD`), centres (`SCO`), the
new position (`NOW`), press (`FRM`), the end (`SLO`/`DRW`, `SMR`).

Hostile input is bounded: a message body at most `Limits.max_body` bytes (the
protocol's own limit is 65535), brackets at most 32 deep, `Limits.rate` messages a second
(with a burst of `Limits.burst`; a client far over it is disconnected), each stage of a
connection timed (the initial message, a body after its header, saying who it is),
`Limits.clients` guests a game and `Limits.pending_per_host` unidentified connections an
address (idle ones give way to new ones; bots in their seats always get in), three
refused `IAM`s a connection and `Limits.iam_guesses` wrong passcodes from a seat's own
address (no other address can take a seat by IAM), and no more than `Limits.max_buffer`
bytes waiting for a client that does not read.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Iterable, ParamSpec, Sequence, TypeVar

from ..gm import (Answer, BotPolicy, Gamesmaster, GameView, GMError, Phase, PhaseResult, Position, PressItem, StoreError, fates,
                  read_order)
from . import board, press, wire
from .seats import CREDENTIAL, Seated, credential_in
from .syntax import Group, Reader, Unbalanced, Unreadable, bracket, marked, render, string
from .tokens import T, Vocabulary, clamp, integer, text

log = logging.getLogger("gamesmaster.daide")
P = ParamSpec("P")
R = TypeVar("R")
SERVER_NAME = "gamesmaster"
LINGER_SECONDS = 1.0  # how long a flooding connection sent away stays open for its last words to arrive


@dataclass(frozen=True)
class Limits:
    """How much a client may ask of the door."""

    max_body: int = 49152  # bytes in one message (free-text press of 20,000 characters fits)
    rate: float = 50.0  # messages a second, sustained
    burst: int = 200  # messages at once
    clients: int = 64  # connections to one game
    im_timeout: float = 30.0  # seconds to send the initial message
    join_timeout: float = 30.0  # seconds after that to say who it is (NME, OBS, IAM)
    body_timeout: float = 10.0  # seconds for a message's body to follow its header
    pending_per_host: int = 32  # connections from one address that have not said who they are (bots behind one NAT)
    max_buffer: int = 1 << 20  # bytes queued for a client that does not read
    iam_guesses: int = 10  # wrong IAM passcodes a seat's address may give in the door's life
    tme_requests: int = 8  # TME alarms a client may set


class Bucket:
    """A token bucket: `take()` is False when the client is over its rate."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.level = float(burst)
        self.at = time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        """Take one message's worth from the bucket; False when the client is over its rate."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False


class Closed(Exception):
    """The connection is being closed (after an error message, OFF or a final message)."""


class Connection:
    """One client's connection: the protocol's stages, limits, and who the client is."""

    def __init__(self, door: "GameDoor", reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.door = door
        self.reader, self.writer = reader, writer
        self.limits = door.limits
        self.bucket = Bucket(self.limits.rate, self.limits.burst)
        self.name = ""
        self.version = ""
        self.credential: str | None = None  # given in NME, for a seat the door has not made yet
        self.seat: Seated | None = None
        self.observer = False
        self.reserve = False  # waiting to stand in for a power in civil disorder
        self.wants: str | None = None  # what YES (MAP) will do: "seat", "observe", "reserve"
        self.live = False  # has accepted the map: receives the game's news
        self.alarms: dict[int, asyncio.TimerHandle | None] = {}
        self.over = False  # the game has all the guests it takes: this one gets in only to a seat
        self.opened = time.monotonic()
        self.iam_failures = 0
        self.peer = str(writer.get_extra_info("peername"))
        self.host = address_of(writer)
        self.lingering = False  # sent away with its own messages unread: closed LINGER_SECONDS after it ends

    # -- sending -------------------------------------------------------------------------------

    def send(self, tokens: Sequence[int]) -> None:
        """Send a diplomacy message (dropping a client that lets too much pile up unread)."""
        if self.writer.is_closing():
            return
        self.writer.write(wire.diplomacy(tokens))
        if self.writer.transport.get_write_buffer_size() > self.limits.max_buffer:
            log.warning("daide %s: %s does not read its messages; disconnected", self.door.game_id, self.peer)
            self.writer.transport.abort()

    def tell(self, words: str) -> None:
        """An ADM message from the gamesmaster, in words (why a request was refused)."""
        self.send([T.ADM, *string(SERVER_NAME), *string(words[:900])])

    def fail(self, fault: wire.Fault) -> Closed:
        """Send an error message; the caller raises the Closed returned."""
        if not self.writer.is_closing():
            self.writer.write(wire.error(fault))
        log.info("daide %s: %s: protocol error %s (%s)", self.door.game_id, self.peer, int(fault),
                 wire.FAULT_WORDS[fault])
        return Closed()

    def off(self) -> None:
        """Tell the client to go (OFF), then close."""
        self.send([T.OFF])
        if not self.writer.is_closing():
            self.writer.close()

    # -- reading ----------------------------------------------------------------------------------

    async def header(self) -> wire.Header:
        """The next message's header."""
        return wire.Header.read(await self.reader.readexactly(4))

    async def run(self) -> None:
        """Serve the client until it leaves or breaks the protocol."""
        try:
            fault = await asyncio.wait_for(self.initial(), self.limits.im_timeout)
        except asyncio.TimeoutError:  # nothing, or a header and silence: the protocol's own error
            raise self.fail(wire.Fault.IM_TIMER_POPPED) from None
        if fault is not None:
            raise self.fail(fault)
        self.writer.write(wire.representation(self.door.vocab.representation()))
        # A connection that never says who it is holds a place a bot may need: it is closed.
        stall = asyncio.get_running_loop().call_later(self.limits.join_timeout, self.stalled)
        try:
            while True:
                await self.message()
                await self.writer.drain()
        finally:
            stall.cancel()

    async def initial(self) -> wire.Fault | None:
        """Read the initial message; what is wrong with it, or None."""
        head = await self.header()
        fault = wire.check_initial_header(head)
        if fault is not None:  # its body is not read: a byte-swapped length would have the door wait for 1 KiB
            return fault
        return wire.check_initial(await self.reader.readexactly(head.length))

    async def message(self) -> None:
        """Read one message after the initial one and act on it (a body must follow its header promptly)."""
        head = await self.header()
        try:
            body = await asyncio.wait_for(self.reader.readexactly(head.length), self.limits.body_timeout)
        except asyncio.TimeoutError:
            log.info("daide %s: %s sent a header and no body in time; closed", self.door.game_id, self.peer)
            raise Closed() from None
        if head.kind == wire.Kind.DIPLOMACY:
            await self.diplomacy(body)
        elif head.kind == wire.Kind.FINAL:
            self.writer.write(wire.final())
            raise Closed()
        elif head.kind == wire.Kind.ERROR:
            raise Closed()
        elif head.kind == wire.Kind.INITIAL:
            raise self.fail(wire.Fault.IM_TWICE)
        elif head.kind == wire.Kind.REPRESENTATION:
            raise self.fail(wire.Fault.RM_FROM_CLIENT)
        else:
            raise self.fail(wire.Fault.UNKNOWN_MESSAGE)

    @property
    def identified(self) -> bool:
        """Whether the client has said who it is (NME, OBS) or taken its seat back (IAM)."""
        return self.wants is not None or self.seat is not None

    def stalled(self) -> None:
        """The join timer: a client still unidentified is told why and closed."""
        if not self.identified:
            log.info("daide %s: %s said nothing of who it is in time; closed", self.door.game_id, self.peer)
            self.tell(f"closed: no NME, OBS or IAM within {self.limits.join_timeout:g} seconds")
            self.off()

    def refuse_guest(self) -> None:
        """A client that would take no seat, when the game has all the other connections it takes: OFF."""
        if self.over:
            self.tell(f"{self.door.game_id} has all the {self.limits.clients} connections it takes: try again later")
            self.off()
            raise Closed()

    async def diplomacy(self, body: bytes) -> None:
        """Check a diplomacy message's tokens, size and rate, then have the door answer it."""
        if len(body) % 2:
            raise self.fail(wire.Fault.TOO_SHORT)
        tokens = wire.tokens_of(body)
        vocab = self.door.vocab
        if not all(vocab.known(t) for t in tokens):
            raise self.fail(wire.Fault.INVALID_TOKEN)
        if len(body) > self.limits.max_body:
            self.tell(f"message refused: {len(body)} bytes, more than the {self.limits.max_body} a message may have")
            self.send([T.HUH, *bracket(T.ERR)])
            return
        if not self.bucket.take():
            if self.bucket.refused > self.limits.burst:
                self.tell(f"disconnected: more than {self.limits.rate:g} messages a second")
                self.send([T.OFF])
                # The flood lies unread: closing now would have the kernel answer it with a reset that
                # throws away the ADM and OFF just sent. End our side; the socket closes a little later.
                self.lingering = True
                if self.writer.can_write_eof():
                    self.writer.write_eof()
                raise Closed()
            self.send([T.REJ, *bracket(tokens)])
            return
        await self.door.dispatch(self, tokens)


Handler = Callable[[Connection, list[int], Group], Awaitable[None]]


@dataclass
class Published:
    """What the door has told its bots so far."""

    seq: int = 0  # the last ledger entry read
    announced: int = 0  # the publication (GameView.head) whose position the bots were last sent
    done: set[int] = field(default_factory=set)  # ledger entries of the results and press already told
    phases: dict[str, PhaseResult] = field(default_factory=dict)  # current revision of each published phase
    out: set[str] = field(default_factory=set)  # powers announced eliminated
    ended: bool = False


class GameDoor:
    """One game's DAIDE table: its bots' seats and connections, and the news they are told."""

    def __init__(self, server: "DaideServer", game_id: str, port: int) -> None:
        self.server = server
        self.gm = server.gm
        self.game_id = game_id
        self.port = port
        self.limits = server.limits
        self.view: GameView = server.gm.games.game(game_id)
        self.vocab = Vocabulary(self.view.variant)
        self.seats: list[Seated] = []  # a seat a power (a credential of several powers: several)
        self.policy: BotPolicy = server.gm.bots.bot_policy(game_id)
        self.clients: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.told = Published(seq=self._head(), announced=self.view.head.seq)
        self.told.phases = {str(r.phase): r for r in server.gm.games.results(game_id)}
        self.told.out = {p for p in self.view.variant.powers if self.view.position is not None
                         and p not in alive_in(self.view.position)}
        self.told.ended = self.view.result is not None
        self.iam_guesses: dict[str, int] = {}  # wrong IAM passcodes from each address a seat's bot played from
        self.listener: asyncio.AbstractServer | None = None
        self.handlers: dict[int, Handler] = {
            T.NME: self.on_nme, T.OBS: self.on_obs, T.IAM: self.on_iam, T.MAP: self.on_map, T.MDF: self.on_mdf,
            T.HLO: self.on_hlo, T.NOW: self.on_now, T.SCO: self.on_sco, T.HST: self.on_hst, T.TME: self.on_tme,
            T.SUB: self.on_sub, T.MIS: self.on_mis, T.GOF: self.on_gof, T.DRW: self.on_drw, T.SND: self.on_snd,
            T.ADM: self.on_adm, T.NOT: self.on_not, T.YES: self.on_yes, T.REJ: self.on_rej,
            T.SVE: self.refuse, T.LOD: self.refuse, T.HUH: self.ignore, T.PRN: self.ignore,
        }

    def _head(self) -> int:
        return next((h.head_seq for h in self.gm.games.heads() if h.id == self.game_id), 0)

    async def call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a Gamesmaster call in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self.server.executor, lambda: fn(*args, **kwargs))

    # -- connections -----------------------------------------------------------------------------

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection to the end."""
        conn = Connection(self, reader, writer)
        self._make_room(conn)
        keepalive(writer)
        self.clients.add(conn)
        try:
            await conn.run()
        except (Closed, asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            pass  # the door is shutting down: the connection ends here, quietly
        except Exception:  # noqa: BLE001 - one connection's failure must not take the door down
            log.exception("daide %s: connection %s failed", self.game_id, conn.peer)
        finally:
            await self.gone(conn)

    def _make_room(self, conn: Connection) -> None:
        """Room for a new connection: idle ones give way to it, so that none can keep a bot out.

        Connections that have not said who they are yet are bounded per address
        (`Limits.pending_per_host`) and, with observers and bots standing by, to `Limits.clients`
        a game: the oldest of them is closed to let a new one in. Bots in their seats do not count;
        a newcomer when every place is taken by identified guests gets in only to a seat."""
        pending = [c for c in self.clients if not c.identified]
        mine = [c for c in pending if c.host == conn.host]
        if len(mine) >= self.limits.pending_per_host:
            drop: Connection | None = min(mine, key=lambda c: c.opened)
        elif len([c for c in self.clients if c.seat is None]) >= self.limits.clients:
            drop = min(pending, key=lambda c: c.opened) if pending else None
            conn.over = drop is None
        else:
            drop = None
        if drop is not None:
            log.info("daide %s: %s closed to make room (it had not said who it is)", self.game_id, drop.peer)
            self.clients.discard(drop)
            drop.writer.transport.abort()

    async def gone(self, conn: Connection) -> None:
        """A connection closed: its power is in civil disorder until the bot comes back with IAM."""
        self.clients.discard(conn)
        for alarm in conn.alarms.values():
            if alarm is not None:
                alarm.cancel()
        if conn.lingering:
            asyncio.get_running_loop().call_later(LINGER_SECONDS, conn.writer.close)
        elif not conn.writer.is_closing():
            conn.writer.close()
        seat = conn.seat
        if seat is not None and seat.client is conn:
            seat.client = None
            if seat.power is not None and not self.told.ended:
                self.broadcast([T.CCD, *bracket(self.vocab.powers[seat.power])], skip=conn)

    def broadcast(self, tokens: Sequence[int], skip: Connection | None = None) -> None:
        """Send a message to every client following the game."""
        for c in list(self.clients):
            if c.live and c is not skip:
                c.send(tokens)

    async def dispatch(self, conn: Connection, tokens: list[int]) -> None:
        """Answer one diplomacy message."""
        try:
            group = Group.parse(tokens)
        except Unbalanced:
            conn.send([T.PRN, *bracket(tokens)])
            return
        first = group.items[0] if group.items else None
        handler = self.handlers.get(first) if isinstance(first, int) else None
        try:
            if handler is None:
                raise Unreadable(0, "not a message a client sends")
            await handler(conn, tokens, group)
        except Unreadable as exc:
            conn.send([T.HUH, *bracket(marked(tokens, exc.at))])
        except GMError as exc:
            conn.send([T.REJ, *bracket(tokens)])
            conn.tell(str(exc))
        except StoreError as exc:  # the database is out of reach: refused, and said so
            conn.send([T.REJ, *bracket(tokens)])
            conn.tell(f"the gamesmaster cannot reach its records now: try again ({exc})")
        except Closed:
            raise
        except Exception:  # noqa: BLE001 - a request that fails is refused, the door goes on
            said = CREDENTIAL.sub("<credential>", render(self.vocab, tokens))[:200]  # never a secret in the log
            log.exception("daide %s: %s failed on %s", self.game_id, conn.peer, said)
            conn.send([T.REJ, *bracket(tokens)])

    # -- joining ----------------------------------------------------------------------------------------

    async def on_nme(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """NME ('name') ('version'): a bot that wants to play (a credential in either string names its seat)."""
        r = group.reader()
        r.token(T.NME)
        name, version = r.sub().string(), r.sub().string()
        r.end()
        if conn.wants is not None or conn.seat is not None:
            raise GMError("this connection has already said who it is")
        credential, bot = credential_in(name, version)
        conn.name, conn.version = bot, credential_in(version)[1]
        await self.refresh()  # seats may have been opened (or taken) since the last look
        view = self.view
        if credential is not None:
            seat = await self.call(self.gm.orders.identify, self.game_id, credential)
            if view.status != "forming" and self._free_power(seat.acts_for()) is None:
                raise GMError(f"every power {seat.name} may order for is already played by a connected bot")
            conn.credential, conn.wants = credential, "seat"
        elif self._open_seat():
            conn.wants = "seat"
        elif self.policy.civil_disorder and view.status in ("active", "paused"):
            conn.refuse_guest()
            conn.wants = "reserve"
        else:
            raise GMError(f"no seat for a bot in {self.game_id}: give the bot a player's credential in its name, "
                          "or ask the gamesmaster to open seats to bots")
        conn.send([T.YES, *bracket(tokens)])
        conn.send([T.MAP, *string(view.variant.name)])

    def _open_seat(self) -> bool:
        """Whether a bot could take a seat open to bots now (a forming game's, or a power nobody plays)."""
        view = self.view
        if not self.policy.open:
            return False
        if view.status == "forming":  # a seat a lot: a power, or a set-up's grouping
            seats = len(view.variant.players) or len([p for p in view.variant.powers if p not in view.variant.neutral])
            return len([s for s in view.seats if s.role == "player"]) < seats
        alive = set(view.position.powers_alive()) if view.position is not None else set()
        return any(p in self.policy.open and view.power(p).player is None and p in alive for p in view.variant.powers)

    async def on_obs(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """OBS: a client that wants to watch."""
        r = group.reader()
        r.token(T.OBS)
        if r.more():  # OBS ('name') ('version') from newer clients
            conn.name = r.sub().string()[:60]
            r.sub().string()
        r.end()
        if conn.wants is not None or conn.seat is not None:
            raise GMError("this connection has already said who it is")
        conn.refuse_guest()
        conn.wants = "observe"
        conn.send([T.YES, *bracket(tokens)])
        conn.send([T.MAP, *string(self.view.variant.name)])

    async def on_yes(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """YES (MAP ('name')): the map accepted; the client takes its place."""
        r = group.reader()
        r.token(T.YES)
        sub = r.sub()
        if sub.peek() != T.MAP or conn.live or conn.wants is None:
            return  # YES to anything else needs no answer
        conn.live = True
        if conn.wants == "observe":
            conn.observer = True
            if self.view.position is not None:
                conn.send(board.supply_centres(self.vocab, self.view.position))
                conn.send(board.now(self.vocab, self.view.position))
        elif conn.wants == "reserve":
            conn.reserve = True
            conn.tell("no power is free now: you stand by to play a power whose player misses a move")
            async with self.lock:  # a power may be in civil disorder already
                await self._stand_in(self._in_disorder())
        else:
            try:
                await self.take_seat(conn)
            except GMError as exc:
                conn.tell(f"no seat after all: {exc}")
                conn.off()
                raise Closed() from None

    async def on_rej(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """REJ (MAP ...): the client does not play on this map; it is sent away."""
        r = group.reader()
        r.token(T.REJ)
        if r.sub().peek() == T.MAP:
            conn.off()
            raise Closed()

    def _find(self, number: int, power: str | None) -> Seated | None:
        return next((s for s in self.seats if s.number == number and s.power == power), None)

    async def take_seat(self, conn: Connection) -> None:
        """Seat a bot that accepted the map: with the credential it gave, or in a seat open to bots."""
        async with self.lock:
            if conn.credential is not None:
                found = await self.call(self.gm.orders.identify, self.game_id, conn.credential)
                power = None if self.view.status == "forming" else self._free_power(found.acts_for())
                if power is None and self.view.status != "forming":
                    raise GMError(f"every power {found.name} may order for is already played by a connected bot")
                seated = self._find(found.number, power)
                if seated is None:
                    seated = Seated(found.number, found.name, conn.credential, power, found.role)
                    self.seats.append(seated)
                seated.credential = conn.credential
            else:
                # A name is no key: a bot whose connection dropped comes back with IAM or its credential.
                made = await self.call(self.gm.bots.seat_bot, self.game_id, conn.name)
                seated = Seated(made.number, made.name, made.credential, made.power, made.role, issued=True)
                self.seats.append(seated)
                if made.full:
                    await self.call(self.gm.setup.draw_lots, self.game_id)
            old = seated.client
            if isinstance(old, Connection) and old is not conn:
                old.off()
            seated.client, seated.version, seated.home, seated.bot = conn, conn.version, conn.host, conn.name
            conn.seat = seated
            if self.view.status != "forming" and seated.power is not None:
                self.greet(conn)
        await self.refresh()

    def _free_power(self, powers: Sequence[str]) -> str | None:
        """The first of these powers no connected bot plays."""
        busy = {s.power for s in self.seats if s.client is not None}
        return next((p for p in powers if p not in busy), None)

    def greet(self, conn: Connection) -> None:
        """HLO, SCO and NOW to a bot that has a power in a running game."""
        seat = conn.seat
        assert seat is not None and seat.power is not None
        conn.send(self.hello(seat))
        if seat.issued:  # the seat's real key: IAM's 13-bit passcode is only good from the bot's own address
            conn.tell(f"The credential of your seat: {seat.credential} -- to take the seat back from another address, "
                      "or after the door restarts, put it in NME's name")
        if self.view.position is not None:
            conn.send(board.supply_centres(self.vocab, self.view.position))
            conn.send(board.now(self.vocab, self.view.position))

    def hello(self, seat: Seated) -> list[int]:
        """HLO (power) (passcode) ((LVL n) (MTL s) (RTL s) (BTL s) ...)."""
        assert seat.power is not None
        settings = self.view.settings
        schedule = settings.schedule
        level = self._level()
        movement = (schedule.min_hours if schedule.days else schedule.hours) * 3600
        variants = [*bracket(T.LVL, integer(level)), *bracket(T.MTL, integer(clamp(movement))),
                    *bracket(T.RTL, integer(clamp(schedule.retreat_hours * 3600))),
                    *bracket(T.BTL, integer(clamp(schedule.adjustment_hours * 3600)))]
        if level:
            variants.extend(bracket(T.PDA))
        return [T.HLO, *bracket(self.vocab.powers[seat.power]), *bracket(integer(seat.passcode)), *bracket(variants)]

    def _level(self) -> int:
        """The press level bots are told in HLO: the game's DAIDE setting, 0 without press, else 8000."""
        settings = self.view.settings
        if settings.press == "none":
            return 0
        return press.LEVEL if settings.daide_level is None else settings.daide_level

    async def on_iam(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """IAM (power) (passcode): a bot back on a new connection after its old one dropped.

        A passcode is a DAIDE integer (13 bits), too little to be a seat's only key, so IAM
        takes a seat only while nobody plays it, only from the address its bot played from,
        and only while that address has given fewer than `Limits.iam_guesses` wrong passcodes.
        Every refusal is the same answer, whatever its reason (a wrong passcode, the seat held,
        another address, the budget spent): the answers tell a guesser nothing. Nobody else's
        guesses count against the bot's address; its credential in NME always takes it back."""
        r = group.reader()
        r.token(T.IAM)
        p = r.sub()
        power = self.vocab.power_ids.get(p.token())
        if power is None:
            raise Unreadable(p.group.at[0], "a power was expected")
        p.end()
        code = r.sub().integer()
        r.end()
        seats = [s for s in self.seats if s.power == power]
        # A bot that closed its old connection just now may get here before the door has seen it
        # close: that is waited for, briefly -- whatever the passcode, so the wait tells nothing.
        for _ in range(50):
            if not any(isinstance(s.client, Connection) and s.client in self.clients for s in seats):
                break
            await asyncio.sleep(0.01)
        seat = next((s for s in seats if s.passcode == code), None)
        held = seat is not None and isinstance(seat.client, Connection) and seat.client in self.clients
        spent = self.iam_guesses.get(conn.host, 0) >= self.limits.iam_guesses
        if seat is None or held or spent or seat.home != conn.host:
            self._iam_refused(conn, tokens, power, seat)
            return
        seat.client, conn.seat, conn.live, conn.wants = conn, seat, True, "seat"
        conn.send([T.YES, *bracket(tokens)])
        self.broadcast([T.NOT, *bracket(T.CCD, *bracket(self.vocab.powers[power]))], skip=conn)

    def _iam_refused(self, conn: Connection, tokens: list[int], power: str, seat: Seated | None) -> None:
        """One answer for every refused IAM; a wrong passcode from a seat's own address counts against it."""
        if seat is None and conn.host in {s.home for s in self.seats}:
            # Only an address some seat's bot played from can ever win by IAM: its wrong guesses are
            # counted (so the table is as small as the seats); others' cannot take a seat at all.
            self.iam_guesses[conn.host] = self.iam_guesses.get(conn.host, 0) + 1
        conn.iam_failures += 1
        log.warning("daide %s: %s: IAM for %s refused (%s)", self.game_id, conn.peer, power,
                    "wrong passcode" if seat is None else "seat held, another address or guesses spent")
        conn.send([T.REJ, *bracket(tokens)])
        if conn.iam_failures >= 3:
            conn.off()
            raise Closed()
        conn.tell(IAM_REFUSED)

    # -- the game as it stands ----------------------------------------------------------------------------

    async def on_map(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """MAP: the map's name."""
        group.reader().token(T.MAP)
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        conn.send([T.MAP, *string(self.view.variant.name)])

    async def on_mdf(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """MDF: the map's definition."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        conn.send(board.map_definition(self.vocab))

    async def on_hlo(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """HLO: the bot's power, passcode and the game's variant."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        seat = conn.seat
        if seat is None or seat.power is None or self.view.status == "forming":
            raise GMError("no power yet: the game has not started, or this connection plays none")
        conn.send(self.hello(seat))

    async def on_now(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """NOW: the position."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        conn.send(board.now(self.vocab, self._position()))

    async def on_sco(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """SCO: who owns each supply centre."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        conn.send(board.supply_centres(self.vocab, self._position()))

    def _position(self) -> Position:
        if self.view.position is None:
            raise GMError(f"{self.game_id} has not started")
        return self.view.position

    async def on_hst(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """HST (turn): a published turn's results, and the centres and position after it."""
        r = group.reader()
        r.token(T.HST)
        phase = board.read_turn(r)
        r.end()
        result = self.told.phases.get(str(phase))
        if result is None:
            raise GMError(f"{phase.title} has not been published")
        for fate in fates(result):
            conn.send(board.order_result(self.vocab, result.phase, fate))
        conn.send(board.supply_centres(self.vocab, result.next))
        conn.send(board.now(self.vocab, result.next))

    async def on_tme(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """TME: the seconds to the deadline; TME (seconds): an alarm then."""
        r = group.reader()
        r.token(T.TME)
        if not r.more():
            left = self._seconds_left()
            if left is None:
                raise GMError("no deadline is running")
            conn.send([T.TME, *bracket(integer(left))])
            return
        seconds = r.sub().integer()
        r.end()
        if seconds < 0 or len(conn.alarms) >= self.limits.tme_requests:
            raise GMError(f"a TME alarm is a number of seconds, at most {self.limits.tme_requests} at a time")
        conn.alarms[seconds] = None
        self._set_alarm(conn, seconds)
        conn.send([T.YES, *bracket(tokens)])

    def _seconds_left(self) -> int | None:
        deadline = self.view.deadline
        if deadline is None or self.view.status != "active":
            return None
        return clamp(max(0, int((deadline - self.gm.desk.now()).total_seconds())))

    def _set_alarm(self, conn: Connection, seconds: int) -> None:
        """(Re)arm a TME alarm: TME (seconds) when that many seconds are left before the deadline."""
        old = conn.alarms.get(seconds)
        if old is not None:
            old.cancel()
        deadline = self.view.deadline
        if deadline is None or self.view.status != "active":
            return
        wait = (deadline - self.gm.desk.now()).total_seconds() - seconds
        if wait < 0:
            return
        loop = asyncio.get_running_loop()
        conn.alarms[seconds] = loop.call_later(wait, conn.send, [T.TME, *bracket(integer(clamp(seconds)))])

    # -- orders ------------------------------------------------------------------------------------

    def _seat(self, conn: Connection) -> Seated:
        seat = conn.seat
        if seat is None or seat.power is None or self.view.status == "forming":
            raise GMError("this connection plays no power (yet)")
        return seat

    async def on_sub(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """SUB [(turn)] (order) ...: orders into the bot's book, the book on the record, THX each, then MIS."""
        # Under the news lock: these orders may complete the turn, and the bot must read its THX
        # and MIS before the results they bring (a bot that stops at SMR would never see them).
        async with self.lock:
            await self._file(conn, group)
        await self.refresh()

    async def _file(self, conn: Connection, group: Group) -> None:
        """The body of SUB: the orders filed and answered, without telling the news."""
        seat = self._seat(conn)
        position = self._position()
        assert seat.power is not None
        r = group.reader()
        r.token(T.SUB)
        phase = board.leading_turn(r) or position.phase
        written = []
        while r.more():
            written.append(board.read_order(r, self.vocab, position, seat.power))
        if not written:
            raise r.fail("SUB needs at least one order")
        if phase != position.phase:  # orders for another turn: the gamesmaster refuses them, on the record
            await self.call(self.gm.orders.submit_orders, self.game_id, seat.power, [w.text for w in written],
                            credential=seat.credential, channel="daide", phase=str(phase))
        book = await self._book(seat, position)
        notes = {i: w.note for i, w in enumerate(written) if w.note is not None}
        candidate = self._merged(book, [w for w in written if w.note is None])
        if position.phase.is_adjustment:
            await self._count_adjustments(seat, written, candidate, notes)
        fresh = [k for k, w in candidate.items() if book.get(k) is not w]
        if fresh:
            # The whole book goes on the record as the bot's set, and the gamesmaster answers each
            # order. DAIDE keeps only the orders it accepts: a refused one leaves the unit's earlier
            # order (or none), and that corrected set goes on the record after it.
            answers = await self._submit(seat, position, candidate)
            refused = False
            for key, answer in zip(list(candidate), answers):
                w = candidate[key]
                if answer.status == "accepted" or key not in fresh:
                    continue
                refused = True
                for i, sent in enumerate(written):
                    if sent is w:
                        notes[i] = board.note_for(position, seat.power, w)
                if key in book:
                    candidate[key] = book[key]
                else:
                    del candidate[key]
            if refused:
                await self._correct(seat, position, candidate)
            seat.book = candidate
        for i, w in enumerate(written):
            conn.send([T.THX, *bracket(w.tokens[1:-1]), *bracket(notes.get(i, T.MBV))])
        # What is missing now: if other bots' orders completed the turn while these were filed, the
        # NOW of the next turn has gone out already, and a MIS about the old turn would mislead.
        current = self._position()
        missing = self.missing(seat, current)
        conn.send(missing)
        if seat.receipt:  # as every door gives it: whoever gave the bot a credential can check the record
            conn.tell(f"Receipt: {seat.receipt}")
            seat.receipt = None
        await self._ready_if_complete(seat, current, missing)

    async def _correct(self, seat: Seated, position: Position, book: dict[str, board.Written]) -> None:
        """The set without its refused orders on the record -- unless the set with them completed the phase.

        A retreat or adjustment phase is processed as soon as every power concerned has
        ordered, and a set with a refused order counts: then there is nothing to correct
        (the refused order was not used), and the bot is answered as usual."""
        assert seat.power is not None  # only a seat that plays a power gets here (GameDoor._seat)
        try:
            if book:
                await self._submit(seat, position, book)
            else:
                await self.call(self.gm.orders.withdraw_orders, self.game_id, seat.power, credential=seat.credential,
                                channel="daide")
        except GMError:
            now = await self.call(self.gm.games.game, self.game_id)
            if now.position is not None and now.position.phase == position.phase:
                raise

    @staticmethod
    def _merged(book: dict[str, board.Written], new: list[board.Written]) -> dict[str, board.Written]:
        """The book with new orders in: a unit's new order replaces its old one; each waive is one more."""
        candidate = dict(book)
        waives = sum(1 for k in candidate if k.startswith("waive"))
        for w in new:
            key = w.key
            if key == "waive":
                waives += 1
                key = f"waive{waives}"
            candidate[key] = w
        return candidate

    async def _submit(self, seat: Seated, position: Position, book: dict[str, board.Written]) -> tuple[Answer, ...]:
        """Submit a book as the power's set of orders; the gamesmaster's answer to each order."""
        assert seat.power is not None  # only a seat that plays a power gets here (GameDoor._seat)
        done = await self.call(self.gm.orders.submit_orders, self.game_id, seat.power, [w.text for w in book.values()],
                               credential=seat.credential, channel="daide", phase=str(position.phase))
        seat.receipt = str(done.receipt)
        return done.answers

    async def _record(self, seat: Seated, position: Position, book: dict[str, board.Written]) -> None:
        """Put the bot's book on the record as its set of orders (withdrawn when empty), if it changed."""
        assert seat.power is not None  # only a seat that plays a power gets here (GameDoor._seat)
        old = seat.book_for(str(position.phase))
        if [w.text for w in book.values()] != [w.text for w in old.values()]:
            if book:
                await self._submit(seat, position, book)
            elif old:
                await self.call(self.gm.orders.withdraw_orders, self.game_id, seat.power, credential=seat.credential,
                                channel="daide")
        seat.book = book

    async def _book(self, seat: Seated, position: Position) -> dict[str, board.Written]:
        """The bot's book for this phase, starting from its orders on record (given before a restart, or by hand)."""
        phase = str(position.phase)
        book = seat.book_for(phase)
        if seat.loaded != phase:
            seat.loaded = phase
            assert seat.power is not None
            if not self.view.power(seat.power).submissions:
                return book  # nothing on record this phase: no need to ask
            records = await self.call(self.gm.orders.orders_on_record, self.game_id, seat.power, credential=seat.credential)
            for record in records:
                if record.author != ("standby" if seat.role == "standby" else "player"):
                    continue
                for line in record.orders:
                    order = read_order(line, position, seat.power, self.view.rules)
                    if order is not None:
                        w = board.written(self.vocab, order)
                        book.setdefault(w.key if w.key != "waive" else f"waive{len(book)}", w)
        return book

    async def _count_adjustments(self, seat: Seated, written: list[board.Written], candidate: dict[str, board.Written],
                                 notes: dict[int, int]) -> None:
        """Builds (and waives) past those due are refused with NMB, removals past those due with NMR."""
        assert seat.power is not None
        if seat.due is None:
            legal = await self.call(self.gm.orders.legal_orders, self.game_id, seat.power, credential=seat.credential)
            seat.due = legal.due
        due = seat.due
        counted = 0
        for key, w in list(candidate.items()):
            building = w.verb in (T.BLD, T.WVE)
            if not building and w.verb != T.REM:
                continue
            if ((building and due > 0) or (not building and due < 0)) and counted < abs(due):
                counted += 1
                continue
            for i, sent in enumerate(written):
                if sent is w:
                    notes[i] = T.NMB if building else T.NMR
            del candidate[key]

    def missing(self, seat: Seated, position: Position) -> list[int]:
        """MIS: the bot's units still without an order (retreats with where they may go; builds as a number)."""
        power = seat.power
        book = seat.book_for(str(position.phase))
        phase = position.phase
        out = [T.MIS]
        if phase.is_movement:
            for u in position.units_of(power or ""):
                if u.province not in book:
                    out.extend(board.unit(self.vocab, u))
        elif phase.is_retreat:
            for d in position.dislodged:
                if d.unit.power == power and d.unit.province not in book:
                    options: list[int] = []
                    for loc in d.retreats or ():
                        options.extend(board.location(self.vocab, loc))
                    out.extend(bracket(board.unit(self.vocab, d.unit)[1:-1], T.MRT, bracket(options)))
        elif seat.due:
            done = len(book)
            left = max(0, abs(seat.due) - done)
            if left:
                out.extend(bracket(integer(-left if seat.due > 0 else left)))
        return out

    async def _ready_if_complete(self, seat: Seated, position: Position, missing: list[int]) -> None:
        """DAIDE's go flag: a bot whose movement orders are complete is ready, unless it said NOT (GOF)."""
        assert seat.power is not None  # only a seat that plays a power gets here (GameDoor._seat)
        if position.phase.is_movement and seat.go and len(missing) == 1 and self.view.settings.early_movement:
            try:
                await self.call(self.gm.orders.set_ready, self.game_id, seat.power, True, credential=seat.credential)
            except GMError:
                pass  # a stand-by cannot mark the absent player ready: the deadline decides

    async def on_mis(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """MIS: what the bot has still to order."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        seat = self._seat(conn)
        position = self._position()
        await self._book(seat, position)
        if position.phase.is_adjustment and seat.due is None and seat.power in self._to_act():
            legal = await self.call(self.gm.orders.legal_orders, self.game_id, seat.power, credential=seat.credential)
            seat.due = legal.due
        conn.send(self.missing(seat, position))

    def _to_act(self) -> set[str]:
        return {p.power for p in self.view.powers if p.to_order}

    async def on_gof(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """GOF: ready for the turn to be processed early."""
        if len(group.items) > 1:
            raise Unreadable(group.at[1])
        await self._go(conn, True)
        conn.send([T.YES, *bracket(tokens)])
        await self.refresh()

    async def _go(self, conn: Connection, go: bool) -> None:
        seat = self._seat(conn)
        assert seat.power is not None  # GameDoor._seat gives only a seat that plays a power
        position = self._position()
        seat.book_for(str(position.phase))
        seat.go = go
        if position.phase.is_movement and self.view.settings.early_movement:
            try:
                await self.call(self.gm.orders.set_ready, self.game_id, seat.power, go, credential=seat.credential)
            except GMError:
                pass

    async def on_not(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """NOT (GOF), NOT (TME [(seconds)]), NOT (SUB [(order)]), NOT (DRW)."""
        r = group.reader()
        r.token(T.NOT)
        sub = r.sub()
        r.end()
        what = sub.token(T.GOF, T.SUB, T.TME, T.DRW)
        if what == T.GOF:
            sub.end()
            await self._go(conn, False)
        elif what == T.TME:
            if sub.more():
                seconds = sub.sub().integer()
                alarm = conn.alarms.pop(seconds, None)
                if alarm is not None:
                    alarm.cancel()
            else:
                for alarm in conn.alarms.values():
                    if alarm is not None:
                        alarm.cancel()
                conn.alarms.clear()
            sub.end()
        elif what == T.SUB:
            await self._cancel(conn, sub)
        else:
            sub.end()
            await self._withdraw_draw(conn)
        conn.send([T.YES, *bracket(tokens)])
        await self.refresh()

    async def _cancel(self, conn: Connection, sub: Reader) -> None:
        """NOT (SUB (order)) takes one order back, NOT (SUB) all of them."""
        seat = self._seat(conn)
        position = self._position()
        book = dict(await self._book(seat, position))
        if sub.more():
            w = board.read_order(sub, self.vocab, position, seat.power or "")
            sub.end()
            key = next((k for k, v in book.items() if v.text == w.text), None)
            if key is None:
                raise GMError(f"{w.text} is not among the orders on record")
            del book[key]
        else:
            book.clear()
        await self._record(seat, position, book)

    # -- draws, press, admin -----------------------------------------------------------------------------

    async def on_drw(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """DRW [(powers)]: propose a draw, or agree to the one proposed."""
        seat = self._seat(conn)
        r = group.reader()
        r.token(T.DRW)
        powers = board.read_powers(r.sub(), self.vocab) if r.more() else None
        r.end()
        share = set(powers) if powers else set(self._position().powers_alive())
        proposal = next((p for p in self.view.proposals if p.kind == "draw" and set(p.powers) == share), None)
        if proposal is None:
            await self.call(self.gm.press.propose, self.game_id, kind="draw", powers=powers, power=seat.power,
                            credential=seat.credential)
        elif proposal.votes.get(seat.power or "") is not True:
            await self.call(self.gm.press.vote, self.game_id, proposal.id, True, power=seat.power, credential=seat.credential)
        conn.send([T.YES, *bracket(tokens)])
        await self.refresh()

    async def _withdraw_draw(self, conn: Connection) -> None:
        """NOT (DRW): a no to the open draw proposal (which then fails, under unanimity)."""
        seat = self._seat(conn)
        for proposal in self.view.proposals:
            if proposal.kind == "draw" and proposal.votes.get(seat.power or "") is not False:
                await self.call(self.gm.press.vote, self.game_id, proposal.id, False, power=seat.power,
                                credential=seat.credential)

    async def on_snd(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """SND [(turn)] (powers) (message): press, on the record through post_press."""
        seat = self._seat(conn)
        r = group.reader()
        r.token(T.SND)
        if self._level() == 0:
            raise Unreadable(group.at[0], "this game is played without press (LVL 0)")
        phase = board.leading_turn(r)
        if phase is not None and self.view.position is not None and phase != self.view.position.phase:
            raise GMError(f"press for {phase.title}, but the game is in {self.view.position.phase.title}")
        to = r.sub()
        recipients = board.read_powers(to, self.vocab)
        if not recipients:
            raise to.fail("SND needs at least one recipient")
        message = r.group_()
        r.end()
        press.check(message)
        words = press.stored(self.vocab, message)
        others = [p for p in self._position().powers_alive() if p != seat.power]
        public = set(recipients) >= set(others)
        await self.call(self.gm.press.post_press, self.game_id, words, power=seat.power,
                        to=None if public else sorted(set(recipients) - {seat.power}), credential=seat.credential)
        conn.send([T.YES, *bracket(tokens)])
        await self.refresh()

    async def on_adm(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """ADM ('name') ('text'): passed to the game's other connections."""
        r = group.reader()
        r.token(T.ADM)
        r.sub().string()
        r.sub().string()
        r.end()
        self.broadcast(tokens, skip=conn)

    async def refuse(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """SVE, LOD: refused, the gamesmaster keeps the game."""
        raise GMError("this server keeps the game itself: nothing to save or load")

    async def ignore(self, conn: Connection, tokens: list[int], group: Group) -> None:
        """A client's HUH or PRN about the server's own message: logged, not answered (answers would loop)."""
        log.info("daide %s: %s did not understand: %s", self.game_id, conn.peer, render(self.vocab, tokens)[:200])

    # -- news from the gamesmaster ------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Read what the ledger added since last time and tell the bots."""
        async with self.lock:
            changes = await self.call(self._changes)
            if changes is None:
                return
            view, phases, press_items, self.policy = changes
            before = self.view
            self.view = view
            # Each read may see a little more than its entries (reads are not one snapshot everywhere):
            # what was told already is not told twice.
            phases = [r for r in phases if r.seq not in self.told.done]
            press_items = [p for p in press_items if p.seq not in self.told.done]
            self.told.done.update([r.seq for r in phases] + [p.seq for p in press_items])
            for result in phases:
                self.told.phases[str(result.phase)] = result
                for fate in fates(result):
                    self.broadcast(board.order_result(self.vocab, result.phase, fate))
                current = result is phases[-1]
                if not current or view.result is None:
                    # Every turn is told, a retreat or adjustment turn settled at once as well: its ORDs
                    # then follow its own SCO and NOW.
                    self._announce(result.next, current)
            if before.status == "forming" and view.status != "forming":
                self._started()
                self.told.announced = view.head.seq
            elif view.head.seq != self.told.announced and view.position is not None and view.result is None:
                # A new phase (or a corrected one) is told once, when the door first sees it.
                self.told.announced = view.head.seq
                if not phases:
                    self._announce(view.position, True)
            self._eliminated()
            for item in press_items:
                self._deliver(item)
            self._seat_changes()
            await self._replacements()
            if view.result is not None and not self.told.ended:
                self.told.ended = True
                await self._ended()
            await self._stand_in(p for r in phases for p in r.civil_disorder)
            if phases or before.deadline != view.deadline:
                for c in self.clients:
                    for seconds in list(c.alarms):
                        self._set_alarm(c, seconds)

    def _announce(self, position: Position, current: bool) -> None:
        """SCO and NOW for a turn; for the turn now running in a timed game, TME too, as DAIDE sends it after each turn."""
        self.broadcast(board.supply_centres(self.vocab, position))
        self.broadcast(board.now(self.vocab, position))
        left = self._seconds_left() if current else None
        if left is not None:
            self.broadcast([T.TME, *bracket(integer(left))])

    def _changes(self) -> tuple[GameView, list[PhaseResult], list[PressItem], BotPolicy] | None:
        """In a worker thread: the game and what was published after the last entry read (None: nothing new)."""
        head = self._head()
        if head == self.told.seq:
            return None
        for _ in range(5):
            changes = self.gm.games.changes(self.game_id, self.told.seq)
            phases = [changes.phases[s] for s in sorted(changes.phases)]
            # A read that is not one snapshot (PostgreSQL's read committed) may find a phase's
            # results but the game still in that phase: read again until the game has moved on.
            if not phases or str(changes.game.phase) == str(phases[-1].next.phase) or changes.game.result:
                break
        self.told.seq = max([head, *(seq for seq, _ in changes.entries)])
        press_items = [changes.press[s] for s in sorted(changes.press)]
        return changes.game, phases, press_items, self.gm.bots.bot_policy(self.game_id)

    def _started(self) -> None:
        """The lot is drawn: each bot that joined the forming game learns its power."""
        for seated in self.seats:
            seat = next((s for s in self.view.seats if s.number == seated.number), None)
            if seat is not None and seat.acts_for():
                seated.power = seat.acts_for()[0]
                if isinstance(seated.client, Connection):
                    self.greet(seated.client)
        for c in self.clients:
            if c.observer and self.view.position is not None:
                c.send(board.supply_centres(self.vocab, self.view.position))
                c.send(board.now(self.vocab, self.view.position))

    def _eliminated(self) -> None:
        position = self.view.position
        if position is None:
            return
        alive = set(alive_in(position))
        for power in self.view.variant.powers:
            if power not in alive and power not in self.told.out and power not in position.neutral:
                self.told.out.add(power)
                self.broadcast([T.OUT, *bracket(self.vocab.powers[power])])

    def _deliver(self, item: PressItem) -> None:
        """Press to the bots that may read it: FRM for press from a power, ADM for the gamesmaster's notices."""
        if item.sender == "GM":
            for c in self.clients:
                if c.live and (item.to is None or (c.seat is not None and c.seat.power in item.to)):
                    c.tell(item.text)
            return
        if item.sender not in self.vocab.powers:  # anonymous: DAIDE has no way to hide a sender
            return
        readers = set(item.to) if item.to is not None else set(self.view.variant.powers) - {item.sender}
        message = press.tokens_of_press(self.vocab, item.text) or text(item.text[:press_max()])
        frm = [T.FRM, *bracket(self.vocab.powers[item.sender]),
               *bracket(sorted(self.vocab.powers[p] for p in readers)), *bracket(message)]
        for seated in self.seats:
            if seated.power in readers and seated.power != item.sender and isinstance(seated.client, Connection):
                seated.client.send(frm)

    def _seat_changes(self) -> None:
        """Bots whose seat was taken from them (a replacement, the player back) are told to go."""
        current = {s.number: s for s in self.view.seats}
        for seated in list(self.seats):
            seat = current.get(seated.number)
            if seated.power is None or self.view.status == "forming":
                continue
            if seat is None or seated.power not in seat.acts_for():
                self._unseat(seated)
            else:
                seated.role = seat.role  # a stand-by whose orders were used now plays the power

    def _unseat(self, seated: Seated) -> None:
        """A bot loses its seat: it is told why and to go."""
        self.seats.remove(seated)
        if isinstance(seated.client, Connection):
            seated.client.tell(f"{seated.name} no longer plays {(seated.power or '').capitalize()}")
            seated.client.off()

    async def _replacements(self) -> None:
        """A bot standing in for a power whose player the GM has since replaced lets it go to the replacement."""
        for seated in list(self.seats):
            if seated.role != "standby" or seated.power is None or seated.instead_of is None:
                continue
            status = self.view.power(seated.power)
            if status.standby != seated.name or status.player in (seated.instead_of, seated.name):
                continue
            try:
                await self.call(self.gm.bots.release_bot, self.game_id, seated.power, "a replacement took the seat")
            except GMError:
                continue
            self._unseat(seated)

    async def _ended(self) -> None:
        """SLO or DRW, then the summary (SMR)."""
        result = self.view.result
        assert result is not None
        if result.kind == "draw":
            survivors = self.view.position.powers_alive() if self.view.position else []
            share = [] if set(result.winners) == set(survivors) else bracket(
                sorted(self.vocab.powers[p] for p in result.winners))
            self.broadcast([T.DRW, *share])
        else:
            self.broadcast([T.SLO, *bracket(self.vocab.powers[result.winners[0]])])
        self.broadcast(self.summary())

    def summary(self) -> list[int]:
        """SMR (turn) (power ('name') ('version') centres [year eliminated]) ...: a bot's power by the name it gave."""
        position = self.view.position
        assert position is not None
        out = [T.SMR, *board.turn(self._last_turn())]
        holders = {p: next((s.name for s in self.view.seats if p in s.acts_for()), "") for p in self.view.variant.powers}
        bots = {s.power: s for s in self.seats if s.power}
        for power in sorted(self.view.variant.powers, key=lambda p: self.vocab.powers[p]):
            centres = len(position.centres_of(power))
            bot = bots.get(power)
            name = bot.bot if bot is not None and bot.bot else holders[power] or "nobody"
            entry = [self.vocab.powers[power], *string(name), *string(bot.version if bot is not None else "")]
            entry.append(integer(centres))
            if power in self.told.out:
                entry.append(integer(self._eliminated_in(power)))
            out.extend(bracket(entry))
        return out

    def _last_turn(self) -> Phase:
        """The turn the game ended in: the last one played when it ended by the rules (a solo), not the next."""
        position = self.view.position
        assert position is not None and self.view.result is not None
        played = [r for r in self.told.phases.values() if r.next.phase == position.phase]
        if self.view.result.kind in ("draw", "concession") or not played:
            return position.phase  # agreed during this turn
        return max(played, key=lambda r: r.number).phase

    def _eliminated_in(self, power: str) -> int:
        for result in sorted(self.told.phases.values(), key=lambda r: r.number):
            if power not in result.next.powers_alive():
                return result.phase.year
        return self.view.position.phase.year if self.view.position else 0

    async def _stand_in(self, powers: Iterable[str]) -> None:
        """Powers fallen into civil disorder go to bots standing by, where the game's NMR policy says so."""
        reserve = [c for c in self.clients if c.reserve and c.seat is None and c.live]
        if not reserve or not self.policy.civil_disorder or self.view.status not in ("active", "paused"):
            return
        for power in powers:
            if not reserve:
                return
            status = self.view.power(power)
            if status.player is None or status.standby is not None:
                continue
            conn = reserve.pop(0)
            try:
                made = await self.call(self.gm.bots.call_bot, self.game_id, power, conn.name)
            except GMError:
                reserve.insert(0, conn)
                continue
            seated = Seated(made.number, made.name, made.credential, made.power, made.role, client=conn,
                            instead_of=status.player, home=conn.host, issued=True, bot=conn.name)
            self.seats.append(seated)
            conn.seat, conn.reserve = seated, False
            self.view = await self.call(self.gm.games.game, self.game_id)
            self.greet(conn)

    def _in_disorder(self) -> list[str]:
        """The powers in civil disorder at the last movement deadline (for a bot that comes to stand by later)."""
        moves = [r for r in self.told.phases.values() if r.phase.is_movement]
        return list(max(moves, key=lambda r: r.number).civil_disorder) if moves else []

    async def poll(self, interval: float) -> None:
        """Every `interval` seconds, read what others (the deadline worker, people) changed."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.refresh()
            except Exception:  # noqa: BLE001 - the next poll tries again
                log.exception("daide %s: reading the game failed", self.game_id)


IAM_REFUSED = ("IAM refused: it takes back a seat whose bot's connection dropped, from the address the bot played "
               "from, with the passcode HLO gave it; a bot can always come back with its seat's credential in NME")


def alive_in(position: Position) -> list[str]:
    """The powers still in the game: a unit, a centre, or a dislodged unit that may yet retreat (no OUT for it)."""
    retreating = {d.unit.power for d in position.dislodged}
    return [p for p in position.variant.powers if p in retreating or p in position.powers_alive()]


def address_of(writer: asyncio.StreamWriter) -> str:
    """The client's address without its port (the source that IAM's guesses are counted against)."""
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


def press_max() -> int:
    """The most characters of free text one FRM carries (two bytes a character, within a message's 65535)."""
    return 30000


def keepalive(writer: asyncio.StreamWriter) -> None:
    """TCP keepalive on a connection, so that a bot that vanished without a word is noticed in minutes."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for option, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 15), ("TCP_KEEPCNT", 4)):
        if hasattr(socket, option):  # Linux; elsewhere the system's defaults
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


class DaideServer:
    """The DAIDE door for several games, one port each, on one event loop."""

    def __init__(self, gm: Gamesmaster, games: Sequence[tuple[str, int]], host: str = "127.0.0.1", *,
                 limits: Limits | None = None, poll: float = 1.0, workers: int = 4) -> None:
        self.gm = gm
        self.host = host
        self.limits = limits or Limits()
        self.poll_interval = poll
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="daide-gm")
        self.wanted = list(games)
        self.doors: dict[str, GameDoor] = {}
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> list[tuple[str, int]]:
        """Open a listener for each game; returns (game, port) as bound (port 0 picks a free one)."""
        bound = []
        for game_id, port in self.wanted:
            door = GameDoor(self, game_id, port)
            door.listener = await asyncio.start_server(door.accept, self.host, port, limit=1 << 17)
            door.port = door.listener.sockets[0].getsockname()[1]
            self.doors[game_id] = door
            self.tasks.append(asyncio.create_task(door.poll(self.poll_interval)))
            bound.append((game_id, door.port))
        return bound

    async def stop(self) -> None:
        """Close the listeners, tell every client OFF, stop polling."""
        for task in self.tasks:
            task.cancel()
        for door in self.doors.values():
            if door.listener is not None:
                door.listener.close()
            for c in list(door.clients):
                c.off()
        for door in self.doors.values():
            if door.listener is not None:
                await door.listener.wait_closed()
        self.executor.shutdown(wait=False, cancel_futures=True)


class Running:
    """A DAIDE server running in a thread of its own (for `gamesmaster serve` and the tests)."""

    def __init__(self, server: DaideServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.ports: dict[str, int] = {}
        self.error: BaseException | None = None
        self._ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="gamesmaster-daide", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.ports = dict(self.loop.run_until_complete(self.server.start()))
        except BaseException as exc:  # noqa: BLE001 - handed to the thread that started us
            self.error = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.server.stop())
        pending = asyncio.all_tasks(self.loop)
        for task in pending:  # the connections' tasks: they end with their connections
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    def start(self) -> "Running":
        """Start, and wait until every listener is open (re-raising why one could not be)."""
        self.thread.start()
        self._ready.wait()
        if self.error is not None:
            raise self.error
        return self

    def stop(self) -> None:
        """Stop the server and its thread."""
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def start(gm: Gamesmaster, games: Sequence[tuple[str, int]], host: str = "127.0.0.1", *,
          limits: Limits | None = None, poll: float = 1.0) -> Running:
    """Start the DAIDE door in a background thread; `.ports` says where each game listens, `.stop()` ends it."""
    return Running(DaideServer(gm, games, host, limits=limits, poll=poll)).start()


__all__ = ["DaideServer", "GameDoor", "Limits", "Running", "start"]
