"""What one request costs the site's application, by kind, measured in this process without a server.

The crowd (run.py) gives what players see; its CPU figure mixes every kind of request with the
contention between them. This probe drives the ASGI application directly, one request at a time, and
reports the process's CPU time per request for each kind the crowd asks for:

  warm   the game unchanged since the last request (everything kept by the head is at hand)
  cold   right after another Gamesmaster on the same database (another web process) submitted a
         set of orders for another power: the head moved, as it does between most reads under the crowd
  mix    the crowd's mix of kinds, `--concurrent` requests at once, on one game
  writers  gm's submission alone (no web layer), from 1, 2 and 8 threads at once over eight games:
         the CPU and the wall time per submission (the store takes one writer at a time)

The machine's speed moves from hour to hour (the same loop took 60 ms and 106 ms an hour apart), so
compare trees run one after the other (another tree by PYTHONPATH, below), never figures taken at
different times.

  .venv/bin/python bench/load/probe.py                      # main's tree
  PYTHONPATH=/path/to/other/src .venv/bin/python bench/load/probe.py   # another tree, same probe
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

import uvloop

# the installed tree (the project's venv), or another given first on PYTHONPATH
from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.web.app import create_app
from gamesmaster.web.security import SiteSecrets

MIX = ["submit"] * 25 + ["position"] * 25 + ["game"] * 15 + ["game page"] * 10 + ["own orders"] * 25  # crowd.py's


async def call(app: Any, method: str, path: str, headers: list[tuple[str, str]] = [], body: bytes = b"") -> int:
    """One request through the application; its status."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"probe"), *[(k.encode(), v.encode()) for k, v in headers]],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    given = False
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays: the application never waits for it
        return {}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


class Table:
    """A seven-player game, the site around one Gamesmaster, and a second Gamesmaster moving the game."""

    def __init__(self, url: str) -> None:
        self.gm, self.other = Gamesmaster(Store(url)), Gamesmaster(Store(url))
        made = self.gm.setup.create_game("g1", players=["a", "b", "c", "d", "e", "f", "g"], seed=1)
        seats = [(made.powers[name], credential) for name, credential in made.credentials.items()]
        (self.power, self.credential), (self.mover, self.mover_credential) = seats[0], seats[1]
        position = self.gm.games.game("g1").position
        assert position is not None
        self.units: dict[str, list[str]] = {}
        for unit in position.units.values():
            self.units.setdefault(unit.power, []).append(str(unit))
        self.app = create_app(self.gm, SiteSecrets.for_testing("probe-gm-credential"))

    def orders(self, power: str, n: int) -> list[str]:
        return [f"{u} {'H' if n % 2 else 'Hold'}" for u in self.units[power]]

    def requests(self) -> dict[str, Callable[[int], Awaitable[int]]]:
        """Each kind of request the crowd makes, as one player of the game."""
        auth = [("authorization", f"Bearer {self.credential}")]
        me = f"/api/games/g1/powers/{self.power.lower()}"
        return {
            "position": lambda n: call(self.app, "GET", "/api/games/g1/position"),
            "game": lambda n: call(self.app, "GET", "/api/games/g1"),
            "game page": lambda n: call(self.app, "GET", "/games/g1"),
            "own orders": lambda n: call(self.app, "GET", f"{me}/orders", auth),
            "submit": lambda n: call(self.app, "POST", f"{me}/orders", auth + [("content-type", "application/json")],
                                     json.dumps({"orders": self.orders(self.power, n)}).encode()),
        }

    def move(self, n: int) -> None:
        """Another process's submission: the game's head moves."""
        self.other.orders.submit_orders("g1", self.mover, self.orders(self.mover, n), credential=self.mover_credential,
                                        channel="web")


async def probe(table: Table, n: int, concurrent: int) -> dict[str, float]:
    kinds, ms = table.requests(), {}
    for kind, request in kinds.items():
        for i in range(20):
            assert await request(i) == 200, kind
        started = time.process_time()
        for i in range(n):
            await request(i)
        ms[f"warm {kind}"] = 1000 * (time.process_time() - started) / n
    for kind, request in kinds.items():
        if kind == "submit":
            continue
        spent = 0.0
        for i in range(n):
            table.move(i)
            started = time.process_time()
            await request(i)
            spent += time.process_time() - started
        ms[f"cold {kind}"] = 1000 * spent / n

    async def player(k: int) -> None:
        rng = random.Random(k)
        for i in range(n // concurrent):
            await kinds[rng.choice(MIX)](i)
    started = time.process_time()
    await asyncio.gather(*(player(k) for k in range(concurrent)))
    ms[f"mix x{concurrent}"] = 1000 * (time.process_time() - started) / (n // concurrent * concurrent)
    return ms


def writers(url: str, n: int) -> dict[str, float]:
    """CPU and wall time per submission made through gm directly, by 1, 2 and 8 threads at once, each thread
    submitting for its own share of eight games' 56 seats in turn."""
    gm = Gamesmaster(Store(url))
    seats = []
    for g in range(8):
        made = gm.setup.create_game(f"w{g}", players=["a", "b", "c", "d", "e", "f", "g"], seed=g)
        position = gm.games.game(f"w{g}").position
        assert position is not None
        units: dict[str, list[str]] = {}
        for unit in position.units.values():
            units.setdefault(unit.power, []).append(str(unit))
        seats += [(f"w{g}", made.powers[name], secret, units[made.powers[name]])
                  for name, secret in made.credentials.items()]

    def submit(share: list[tuple[str, str, str, list[str]]], count: int) -> None:
        for i in range(count):
            game, power, credential, mine = share[i % len(share)]
            gm.orders.submit_orders(game, power, [f"{u} {'H' if i % 2 else 'Hold'}" for u in mine],
                                    credential=credential, channel="web")
    submit(seats, len(seats))  # every credential checked once, every state at hand
    ms = {}
    for count in (1, 2, 8):
        threads = [threading.Thread(target=submit, args=(seats[k::count], n // count)) for k in range(count)]
        cpu, wall = time.process_time(), time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done = n // count * count
        ms[f"writers x{count} cpu"] = 1000 * (time.process_time() - cpu) / done
        ms[f"writers x{count} wall"] = 1000 * (time.perf_counter() - wall) / done
    gm.close()
    return ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=400, help="requests of each kind (default 400)")
    ap.add_argument("--concurrent", type=int, default=16, help="requests at once in the mix (default 16)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        table = Table(f"sqlite:///{d}/probe.db")
        ms = uvloop.run(probe(table, args.requests, args.concurrent))
        ms.update(writers(f"sqlite:///{d}/writers.db", max(8, args.requests)))  # eight threads, one each at least
    import gamesmaster
    print(f"CPU per request, ms ({Path(gamesmaster.__file__).parents[1]}):")
    for name, value in ms.items():
        print(f"  {name:16s} {value:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
