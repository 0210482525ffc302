"""A DAIDE client for the tests, written from the protocol documents and sharing no code with the server.

`Link` is one TCP connection speaking the communications protocol (initial message,
representation message, diplomacy messages as big-endian 16-bit tokens); messages are
written and read in DAIDE's written form, e.g. "SUB ((ENG AMY LVP) MTO YOR)". `RandomBot`
plays a whole game on a `Link`: random legal-looking orders from the map definition,
retreats from NOW's MRT lists, builds and removals from MIS, the way a simple DAIDE bot
does. Everything waits for messages with timeouts; nothing sleeps.
"""

from __future__ import annotations

import queue
import random
import re
import socket
import struct
import threading
from dataclasses import dataclass, field

# The DAIDE tokens this client uses, from the protocol's token list (hex code, name).
TOKEN_TABLE = """
4000 ( 4001 ) 4200 AMY 4201 FLT
4320 CTO 4321 CVY 4322 HLD 4323 MTO 4324 SUP 4325 VIA 4340 DSB 4341 RTO 4380 BLD 4381 REM 4382 WVE
4400 MBV 4401 BPR 4402 CST 4403 ESC 4404 FAR 4405 HSC 4406 NAS 4407 NMB 4408 NMR 4409 NRN 440A NRS 440B NSA
440C NSC 440D NSF 440E NSP 4410 NSU 4411 NVR 4412 NYU 4413 YSC
4500 SUC 4501 BNC 4502 CUT 4503 DSR 4504 FLD 4505 NSO 4506 RET
4600 NCS 4602 NEC 4604 ECS 4606 SEC 4608 SCS 460A SWC 460C WCS 460E NWC
4700 SPR 4701 SUM 4702 FAL 4703 AUT 4704 WIN
4800 CCD 4801 DRW 4802 FRM 4803 GOF 4804 HLO 4805 HST 4806 HUH 4807 IAM 4808 LOD 4809 MAP 480A MDF 480B MIS
480C NME 480D NOT 480E NOW 480F OBS 4810 OFF 4811 ORD 4812 OUT 4813 PRN 4814 REJ 4815 SCO 4816 SLO 4817 SND
4818 SUB 4819 SVE 481A THX 481B TME 481C YES 481D ADM 481E SMR
4900 AOA 4901 BTL 4902 ERR 4903 LVL 4904 MRT 4905 MTL 4906 NPB 4907 NPR 4908 PDA 4909 PTL 490A RTL 490B UNO 490D DSD
4A00 ALY 4A01 AND 4A03 DMZ 4A10 PCE 4A13 PRP 4A1C VSS 4A1F XDO
"""
MESSAGE_TYPES = {0: "IM", 1: "RM", 2: "DM", 3: "FM", 4: "EM"}


class Ended(Exception):
    """The server closed the connection (final message, error message, or the socket)."""

    def __init__(self, why: str, code: int | None = None) -> None:
        super().__init__(why)
        self.code = code


class Link:
    """One connection to a DAIDE server; `send` and `recv` work on written messages."""

    def __init__(self, host: str, port: int, timeout: float = 20.0, *, source: str | None = None) -> None:
        # source: the local address to connect from (127.0.0.2 is another host on the loopback)
        self.sock = socket.create_connection((host, port), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.timeout = timeout
        self.code_of: dict[str, int] = {}
        self.name_of: dict[int, str] = {}
        for code, name in re.findall(r"([0-9A-F]{4}) (\S+)", TOKEN_TABLE):
            self.code_of[name] = int(code, 16)
            self.name_of[int(code, 16)] = name
        self.received: list[str] = []

    # -- the communications protocol ------------------------------------------------------------

    def raw(self, kind: int, body: bytes) -> None:
        """Send one message of any type."""
        self.sock.sendall(struct.pack(">BxH", kind, len(body)) + body)

    def read_message(self) -> tuple[int, bytes]:
        """One message of any type: (type, body)."""
        head = self._exactly(4)
        kind, length = struct.unpack(">BxH", head)
        return kind, self._exactly(length)

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise Ended("the server closed the connection")
            data += chunk
        return data

    def connect(self) -> "Link":
        """Initial message out, representation message in (the powers' and provinces' names)."""
        self.raw(0, struct.pack(">HH", 1, 0xDA10))
        kind, body = self.read_message()
        if kind == 4:
            raise Ended("error message", struct.unpack(">H", body)[0])
        assert kind == 1, f"expected the representation message, got type {kind}"
        for i in range(0, len(body), 6):
            code = struct.unpack(">H", body[i:i + 2])[0]
            name = body[i + 2:i + 5].decode("ascii")
            self.code_of[name] = code
            self.name_of[code] = name
        return self

    def close(self) -> None:
        """Close the socket."""
        try:
            self.sock.close()
        except OSError:
            pass

    # -- the written form -----------------------------------------------------------------------------

    def encode(self, written: str) -> list[int]:
        """A written message as tokens."""
        tokens: list[int] = []
        for m in re.finditer(r"\(|\)|'((?:[^']|'')*)'|-?\d+|[A-Z]{3}", written):
            word = m.group(0)
            if word.startswith("'"):
                tokens.extend(0x4B00 | ord(c) for c in m.group(1).replace("''", "'"))
            elif word[0] == "-" or word[0].isdigit():
                tokens.append(int(word) & 0x3FFF)
            else:
                tokens.append(self.code_of[word])
        return tokens

    def decode(self, tokens: list[int]) -> str:
        """Tokens as a written message."""
        words: list[str] = []
        chars = ""
        for t in tokens:
            if t >> 8 == 0x4B:
                chars += chr(t & 0xFF)
                continue
            if chars:
                words.append("'" + chars.replace("'", "''") + "'")
                chars = ""
            if t < 0x4000:
                words.append(str(t - 0x4000 if t & 0x2000 else t))
            else:
                words.append(self.name_of.get(t, f"?{t:04X}"))
        if chars:
            words.append("'" + chars.replace("'", "''") + "'")
        return " ".join(words).replace("( ", "(").replace(" )", ")")

    def send(self, written: str) -> None:
        """Send a written message as a diplomacy message."""
        tokens = self.encode(written)
        self.raw(2, struct.pack(f">{len(tokens)}H", *tokens))

    def recv(self, timeout: float | None = None) -> str:
        """The next diplomacy message, written out; Ended when the server ends the connection."""
        self.sock.settimeout(timeout or self.timeout)
        kind, body = self.read_message()
        if kind == 3:
            raise Ended("final message")
        if kind == 4:
            raise Ended("error message", struct.unpack(">H", body)[0])
        assert kind == 2, f"unexpected message type {kind}"
        message = self.decode(list(struct.unpack(f">{len(body) // 2}H", body)))
        self.received.append(message)
        return message

    def expect(self, prefix: str, timeout: float | None = None, *, saying: str = "") -> str:
        """Read messages until one starts with prefix (and contains `saying`); the others are kept in `received`."""
        while True:
            message = self.recv(timeout)
            if message.startswith(prefix) and saying in message:
                return message


def tree(written: str) -> list:
    """A written message as nested lists of words (strings stay quoted)."""
    stack: list[list] = [[]]
    for m in re.finditer(r"\(|\)|'(?:[^']|'')*'|-?\d+|[A-Z]{3}", written):
        w = m.group(0)
        if w == "(":
            stack.append([])
        elif w == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(w)
    return stack[0]


def flat(node) -> str:
    """A tree back in the written form."""
    if isinstance(node, list):
        return "(" + " ".join(flat(n) for n in node) + ")"
    return node


@dataclass
class Board:
    """What a bot knows of the map from MDF: home centres and where each unit may move."""

    homes: dict[str, list[str]] = field(default_factory=dict)
    moves: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (unit type, location) -> places
    inland: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, mdf: str) -> "Board":
        """The map as MDF defines it."""
        _, powers, provinces, adjacencies = tree(mdf)
        board = cls()
        centres, _others = provinces
        for group in centres:
            board.homes[group[0]] = [p for p in group[1:] if isinstance(p, str)]
        for entry in adjacencies:
            province = entry[0]
            for kinds in entry[1:]:
                head = kinds[0]
                if isinstance(head, list):  # (FLT coast)
                    where = f"({province} {head[1]})"
                    kind = "FLT"
                else:
                    where, kind = province, head
                board.moves[(kind, where)] = [flat(p) for p in kinds[1:]]
            if not any(k[0] == "FLT" for k in entry[1:] if not isinstance(k[0], list)) and not any(
                    isinstance(k[0], list) for k in entry[1:]):
                board.inland.add(province)
        return board


@dataclass
class Unit:
    """A unit as NOW gives it (dislodged ones with where they may retreat)."""

    power: str
    kind: str
    where: str  # province, or (province coast)
    retreats: list[str] | None = None

    @property
    def province(self) -> str:
        """The unit's province (without its coast)."""
        return self.where.strip("(").split()[0]

    def __str__(self) -> str:
        return f"({self.power} {self.kind} {self.where})"


def read_now(now: str) -> tuple[str, list[Unit]]:
    """NOW (turn) (unit) ...: the season and the units, dislodged ones with where they may retreat."""
    _, turn, *units = tree(now)
    out = []
    for u in units:
        where = flat(u[2])
        retreats = [flat(p) for p in u[4]] if len(u) > 3 and u[3] == "MRT" else None
        out.append(Unit(u[0], u[1], where, retreats))
    return turn[0], out


class RandomBot:
    """A simple bot: random orders for every unit, answering every NOW at once, until the game ends."""

    def __init__(self, host: str, port: int, name: str, seed: int, *, hold: bool = False) -> None:
        self.host, self.port, self.name = host, port, name
        self.rng = random.Random(seed)
        self.hold = hold  # only hold (a quiet player)
        self.link: Link | None = None
        self.power: str | None = None
        self.passcode: int | None = None
        self.board: Board | None = None
        self.centres: dict[str, list[str]] = {}
        self.units: list[Unit] = []
        self.season = ""
        self.log: list[str] = []  # every message received, in order
        self.pending: list[str] = []  # received while waiting for an answer, not yet handled
        self.asked: list[int] = []  # for each SUB or MIS awaiting its MIS: the turn it was sent in
        self.sent: list[str] = []
        self.ended: str | None = None  # SLO/DRW as received
        self.summary: str | None = None
        self.error: BaseException | None = None
        self.thx: list[str] = []
        self.turns = 0
        self.events: "queue.Queue[str]" = queue.Queue()
        self.thread: threading.Thread | None = None
        self.drop_after: int | None = None  # disconnect after this many turns, then come back with IAM
        self.rejoined = False
        self.noise: list[str] = []  # malformed messages to send each turn, each answered HUH, PRN or REJ
        self.noise_answers: list[tuple[str, str]] = []

    # -- joining ----------------------------------------------------------------------------------

    def join(self) -> None:
        """NME, the map, then wait for HLO (the game may still be forming)."""
        self.link = Link(self.host, self.port).connect()
        self.say(f"NME ('{self.name}') ('test 1.0')")
        yes = self.link.expect("YES")
        assert yes.startswith("YES (NME"), yes
        mapname = self.link.expect("MAP")
        self.say("MDF")
        self.board = Board.read(self.link.expect("MDF"))
        self.say(f"YES ({mapname})")

    def say(self, written: str) -> None:
        """Send a message, keeping it in `sent`."""
        assert self.link is not None
        self.sent.append(written)
        if (written.startswith("SUB ") or written == "MIS") and written not in self.noise:
            self.asked.append(self.turns)  # the server answers each with one MIS
        self.link.send(written)

    def start(self) -> "RandomBot":
        """Join and play in a thread of its own."""
        self.thread = threading.Thread(target=self._run, name=f"bot-{self.name}", daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        try:
            self.join()
            self.play()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
        finally:
            self.events.put("done")
            if self.link is not None:
                self.link.close()

    # -- playing ----------------------------------------------------------------------------------------

    def play(self) -> None:
        """Answer every message until the game's summary (SMR)."""
        assert self.link is not None
        while self.summary is None:
            if self.pending:  # news that arrived while the bot waited for the answer to its noise
                message = self.pending.pop(0)
            else:
                try:
                    message = self.link.recv(30)
                except Ended:
                    if self.ended:
                        return
                    raise
                self.log.append(message)
            head = message[:3]
            if head == "HLO":
                t = tree(message)
                self.power, self.passcode = t[1][0], int(t[2][0])
                self.events.put("hello")
            elif head == "SCO":
                self.centres = {g[0]: g[1:] for g in tree(message)[1:]}
            elif head == "NOW":
                self.season, self.units = read_now(message)
                self.turn()
            elif head == "MIS" and (self.asked.pop(0) if self.asked else None) != self.turns:
                pass  # the answer to a request sent before the latest NOW: it speaks of a turn now gone
            elif head == "MIS" and self.season == "WIN":
                self.adjust(message)
            elif head == "MIS" and message != "MIS":
                self.fill(message)
            elif head == "THX":
                self.thx.append(message)
            elif head in ("SLO", "DRW"):
                self.ended = message
            elif head == "SMR":
                self.summary = message
            elif head == "OFF":
                raise Ended("OFF")

    def turn(self) -> None:
        """Orders for a new turn, sent at once (and, for a noisy bot, its malformed messages first)."""
        self.turns += 1
        for bad in self.noise:
            self.say(bad)
            answer = self._answer_to_noise()
            self.noise_answers.append((bad, answer))
        if self.drop_after is not None and self.turns == self.drop_after and not self.rejoined:
            self.rejoin()
            return
        mine = [u for u in self.units if u.power == self.power]
        if self.season in ("SPR", "FAL"):
            orders = [self.move(u) for u in mine if u.retreats is None]
        elif self.season in ("SUM", "AUT"):
            orders = [f"({u} RTO {self.rng.choice(u.retreats)})" if u.retreats else f"({u} DSB)"
                      for u in mine if u.retreats is not None]
        else:
            self.say("MIS")
            return
        if orders:
            self.say("SUB " + " ".join(orders))

    def _answer_to_noise(self) -> str:
        assert self.link is not None
        while True:
            message = self.link.recv(30)
            self.log.append(message)
            if message[:3] in ("HUH", "REJ", "PRN", "YES"):
                return message
            # Anything else is news (another turn, results, press): kept for the main loop, in order.
            # Keeping it from the main loop once made the bot answer a new turn's MIS as the old one's.
            self.pending.append(message)

    def move(self, u: Unit) -> str:
        """A random order for a unit: hold, or move to a place MDF says it can reach."""
        assert self.board is not None
        places = self.board.moves.get((u.kind, u.where), [])
        if self.hold or not places or self.rng.random() < 0.3:
            return f"({u} HLD)"
        return f"({u} MTO {self.rng.choice(places)})"

    def adjust(self, mis: str) -> None:
        """MIS (n): negative, builds to make (armies in free home centres, the rest waived); positive, removals."""
        t = tree(mis)
        if len(t) < 2 or not isinstance(t[1], list) or not t[1]:
            return
        n = int(t[1][0])
        assert self.board is not None and self.power is not None
        if n > 0:
            mine = [u for u in self.units if u.power == self.power]
            self.rng.shuffle(mine)
            self.say("SUB " + " ".join(f"({u} REM)" for u in mine[:n]))
        elif n < 0:
            taken = {u.province for u in self.units}
            free = [c for c in self.board.homes.get(self.power, []) if c in self.centres.get(self.power, [])
                    and c not in taken]
            orders = [f"(({self.power} AMY {c}) BLD)" for c in free[:-n]]
            orders += [f"({self.power} WVE)"] * (-n - len(orders))
            self.say("SUB " + " ".join(orders))

    def fill(self, mis: str) -> None:
        """Units still without an order after a refused one: they hold (or, retreating, disband)."""
        verb = "HLD" if self.season in ("SPR", "FAL") else "DSB"
        units = [u for u in tree(mis)[1:] if isinstance(u, list)]
        orders = [f"(({' '.join(flat(w) for w in u[:3])}) {verb})" for u in units]
        if orders:
            self.say("SUB " + " ".join(orders))

    def rejoin(self) -> None:
        """Drop the connection without a word, connect again and take the seat back with IAM."""
        assert self.link is not None and self.power is not None
        self.link.close()
        self.asked = []  # answers to what was asked on the old connection will never come
        self.link = Link(self.host, self.port).connect()
        self.rejoined = True
        self.say(f"IAM ({self.power}) ({self.passcode})")
        answer = self.link.expect("YES (IAM")
        self.log.append(answer)
        self.say("NOW")  # where things stand: the answer starts the turn again


def sit(host: str, port: int, name: str, version: str = "1", *, source: str | None = None) -> Link:
    """Connect, say who it is (NME) and accept the map; the caller reads what comes next (HLO, ADM, REJ...)."""
    link = Link(host, port, source=source).connect()
    link.send(f"NME ('{name}') ('{version}')")
    answer = link.recv()
    if not answer.startswith("YES"):
        raise AssertionError(f"NME refused: {answer}")
    link.send(f"YES ({link.expect('MAP')})")
    return link
