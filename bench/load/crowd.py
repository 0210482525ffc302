"""The pieces of the load benchmark: gamesmaster processes on loopback, games made in bulk,
simulated players on the web, players writing mail, and a relay that keeps what it is sent."""

from __future__ import annotations

import asyncio
import os
import random
import re
import smtplib
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import wire

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
GM_CREDENTIAL = "gm.bench-credential-0123456789"


# -- processes ---------------------------------------------------------------------------

@dataclass
class Process:
    """A gamesmaster command running in the background, its output collected as it comes."""

    argv: list[str]
    env: dict[str, str]
    proc: subprocess.Popen = field(init=False)
    out: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # when each line came (monotonic)

    def __post_init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "gamesmaster.cli", *self.argv], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, env=self.env)
        self.seen = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def cpu_seconds(self) -> float:
        """CPU time (user and system) the command and every process it started have used so far."""
        return cpu_seconds(self.proc.pid)

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            with self.seen:
                self.out.append(line)
                self.times.append(time.monotonic())
                self.seen.notify_all()
        with self.seen:
            self.seen.notify_all()

    def wait_for(self, pattern: str, timeout: float = 120) -> re.Match:
        """The first line matching pattern, once the process has printed it."""
        end = time.monotonic() + timeout
        with self.seen:
            while True:
                for line in self.out:
                    m = re.search(pattern, line)
                    if m:
                        return m
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise SystemExit(f"{' '.join(self.argv[:1])} did not print {pattern!r}:\n{''.join(self.out)}")
                self.seen.wait(1)

    def finish(self, timeout: float = 3600) -> int:
        """Wait for the process to end and its output to be read; its exit status."""
        code = self.proc.wait(timeout=timeout)
        self.reader.join(timeout=30)
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass  # the thread ended
    return kids


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and its living descendants, from /proc (Linux)."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields_ = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone
        total += (int(fields_[11]) + int(fields_[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
        todo += _children(p)
    return total


def environment(url: str, **extra: str) -> dict[str, str]:
    """The environment of a gamesmaster process on the database at url."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    env.update({"GAMESMASTER_DATABASE_URL": url, "GAMESMASTER_GM_CREDENTIAL": GM_CREDENTIAL,
                "PYTHONUNBUFFERED": "1", **extra})
    return env


def serve(url: str, data: Path, *, worker: bool, mail: bool, env: dict[str, str] | None = None,
          threads: int | None = None, processes: int | None = None) -> tuple[Process, str]:
    """`gamesmaster serve` on a port of its own; returns the process and its base URL."""
    argv = ["serve", "--port", "0", "--data", str(data), "--no-demo"] + (["--threads", str(threads)] if threads else [])
    argv += ["--web-processes", str(processes)] if processes else []
    argv += [] if worker else ["--no-worker"]
    argv += ["--smtp-port", "0"] if mail else ["--no-mail"]
    p = Process(argv, env or environment(url))
    base = p.wait_for(r"serving (http://\S+)").group(1)
    p.wait_for("Press Ctrl-C")
    return p, base


# -- games -------------------------------------------------------------------------------

def _make(args: tuple[str, list[str], str | None]) -> dict[str, dict[str, str]]:
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.store.testing import FakeClock
    url, ids, past = args
    store = Store(url)
    gm = Gamesmaster(store, FakeClock(datetime.fromisoformat(past))) if past else Gamesmaster(store)
    made = {}
    for gid in ids:
        c = gm.setup.create_game(gid, players=NAMES, seed=len(made))
        made[gid] = {c.powers[name]: secret for name, secret in c.credentials.items()}
    store.dispose()
    return made


def make_games(url: str, n: int, prefix: str, *, due: bool = False, procs: int = 2) -> dict[str, dict[str, str]]:
    """n seven-player games, started; due: their first deadline passed ten days ago. Returns game -> power -> credential."""
    from gamesmaster.store import Store
    Store(url).dispose()  # the schema, once, before the makers meet
    past = (datetime.now(timezone.utc) - timedelta(days=10)).isoformat() if due else None
    ids = [f"{prefix}{i}" for i in range(n)]
    shares = [(url, ids[k::procs], past) for k in range(procs)]
    made: dict[str, dict[str, str]] = {}
    with ProcessPoolExecutor(procs) as pool:
        for part in pool.map(_make, shares):
            made.update(part)
    return made


def home_units(url: str) -> dict[str, list[str]]:
    """Each power's units at the start, as orders name them ('A Par')."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    store = Store(url)
    try:
        gm = Gamesmaster(store)
        position = gm.games.game(gm.games.game_ids()[0]).position
        assert position is not None
        units: dict[str, list[str]] = {}
        for unit in position.units.values():
            units.setdefault(unit.power, []).append(str(unit))
        return units
    finally:
        store.dispose()


# -- players on the web ------------------------------------------------------------------

READS = ("position", "game", "game page", "own orders")


@dataclass
class Tally:
    """Latencies and errors, by kind of request."""

    latency: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, kind: str, seconds: float) -> None:
        self.latency.setdefault(kind, []).append(seconds)

    def summary(self, kinds: tuple[str, ...], wall: float) -> dict:
        lat = sorted(x for k in kinds for x in self.latency.get(k, []))
        if not lat:
            return {"requests": 0}
        q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else lat * 99
        return {"requests": len(lat), "per_second": round(len(lat) / wall, 1), "p50_ms": round(q[49] * 1000, 1),
                "p99_ms": round(q[98] * 1000, 1), "max_ms": round(lat[-1] * 1000, 1),
                "errors": sum(1 for e in self.errors if e.split(" ")[0] in kinds)}


async def _player(base: str, game: str, power: str, credential: str, units: list[str], until: float, think: float,
                  tally: Tally, rng: random.Random) -> None:
    auth = {"Authorization": f"Bearer {credential}"}
    me = f"/api/games/{game}/powers/{power.lower()}"
    conn = wire.Connection(base)
    await asyncio.sleep(rng.uniform(0, think))  # not all at once
    try:
        while time.monotonic() < until:
            r = rng.random()
            if r < 0.25:
                orders = [f"{u} H" if rng.random() < 0.5 else f"{u} Hold" for u in units]
                kind, call = "submit", conn.request("POST", f"{me}/orders", headers=auth, json_body={"orders": orders})
            elif r < 0.50:
                kind, call = "position", conn.request("GET", f"/api/games/{game}/position")
            elif r < 0.65:
                kind, call = "game", conn.request("GET", f"/api/games/{game}")
            elif r < 0.75:
                kind, call = "game page", conn.request("GET", f"/games/{game}")
            else:
                kind, call = "own orders", conn.request("GET", f"{me}/orders", headers=auth)
            started = time.perf_counter()
            try:
                answer = await call
                if answer.status != 200:
                    tally.errors.append(f"{kind} {answer.status} {answer.text[:100]}")
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                tally.errors.append(f"{kind} {type(exc).__name__} {exc}"[:160])
            tally.add(kind, time.perf_counter() - started)
            await asyncio.sleep(rng.uniform(0, think))
    finally:
        conn.close()


async def _crowd(bases: list[str], seats: list[tuple[str, str, str]], units: dict[str, list[str]], seconds: float,
                 think: float) -> tuple[Tally, float]:
    tally = Tally()
    start = time.monotonic()
    await asyncio.gather(*(
        _player(bases[i % len(bases)], g, p, c, units[p], start + seconds, think, tally, random.Random(i))
        for i, (g, p, c) in enumerate(seats)))
    return tally, time.monotonic() - start


def crowd(bases: list[str], creds: dict[str, dict[str, str]], units: dict[str, list[str]], players: int,
          seconds: float, think: float, servers: list[Process] | None = None) -> dict:
    """players simulated players (seven a game) for seconds, spread over the web processes; the figures.

    servers: the gamesmaster commands serving them, whose CPU time per request is reported (a figure that,
    unlike the latencies, does not move with what else the machine is running)."""
    seats = [(g, p, c) for g, by_power in creds.items() for p, c in by_power.items()][:players]
    asyncio.run(_crowd(bases, seats, units, min(5.0, seconds), think))  # warm-up: sessions, caches, connections
    cpu = sum(s.cpu_seconds() for s in servers or ())
    tally, wall = asyncio.run(_crowd(bases, seats, units, seconds, think))
    cpu = sum(s.cpu_seconds() for s in servers or ()) - cpu
    answered = sum(len(v) for v in tally.latency.values())
    return {"players": len(seats), "seconds": round(wall, 1),
            "server_cpu_ms_per_request": round(1000 * cpu / answered, 2) if servers and answered else None,
            "all": tally.summary(("submit", *READS), wall), "reads": tally.summary(READS, wall),
            "submissions": tally.summary(("submit",), wall),
            "by_kind": {k: tally.summary((k,), wall) for k in ("submit", *READS)},
            "error_samples": tally.errors[:5]}


# -- players by mail ---------------------------------------------------------------------

class Relay:
    """An SMTP server standing in for the site's relay: counts the answers to each message sent."""

    def __init__(self) -> None:
        from aiosmtpd.smtp import SMTP
        self.answered: dict[str, float] = {}  # Message-ID answered -> when the answer came
        self.other = 0
        self.cond = threading.Condition()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        relay = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):  # noqa: ANN001, ANN202
                head = envelope.original_content.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace")
                m = re.search(r"^In-Reply-To:\s*(<[^>]+>)", head, re.M | re.I)
                with relay.cond:
                    if m:
                        relay.answered.setdefault(m.group(1), time.monotonic())
                    else:
                        relay.other += 1
                    relay.cond.notify_all()
                return "250 OK"

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(self.loop.create_server(
                lambda: SMTP(Handler(), hostname="relay.bench"), "127.0.0.1", 0))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait(10)

    def wait(self, ids: set[str], timeout: float) -> float | None:
        """When the last of these messages was answered (monotonic), or None if not all were in time."""
        end = time.monotonic() + timeout
        with self.cond:
            while not ids <= self.answered.keys():
                if time.monotonic() > end:
                    return None
                self.cond.wait(1)
            return max(self.answered[i] for i in ids)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


def order_mails(creds: dict[str, dict[str, str]], units: dict[str, list[str]], players: int, each: int,
                to: str) -> list[EmailMessage]:
    """each order mails from every one of players players, as a player writes them: sign-on and orders."""
    seats = [(g, p, c) for g, by_power in creds.items() for p, c in by_power.items()][:players]
    mails = []
    for round_ in range(each):
        for n, (game, power, credential) in enumerate(seats):
            msg = EmailMessage()
            msg["From"] = f"Player {n} <player{n}@bench.example>"
            msg["To"] = to
            msg["Subject"] = f"{game} orders"
            msg["Message-ID"] = make_msgid("bench", "bench.example")
            hold = "Stand" if round_ % 2 else "H"
            msg.set_content(f"SIGNON {game} {power.capitalize()} {credential}\n"
                            + "\n".join(f"{u} {hold}" for u in units[power]) + "\n")
            mails.append(msg)
    return mails


def send_all(port: int, mails: list[EmailMessage], connections: int) -> None:
    """Send the mails to the gamesmaster's intake over that many SMTP connections at once."""
    def one(share: list[EmailMessage]) -> None:
        with smtplib.SMTP("127.0.0.1", port, timeout=120) as smtp:
            for msg in share:
                smtp.send_message(msg)
    threads = [threading.Thread(target=one, args=(mails[k::connections],)) for k in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
