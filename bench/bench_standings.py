#!/usr/bin/env python3
"""Benchmark: the club's standings, ladder and a player's page over 1,000 finished games and 300 players.

Plays --games games of seven players drawn from --players names (each created through the
gamesmaster and ended by a declared draw of one to four powers, scored by draw-size), on
SQLite (a file) and on PostgreSQL (a throwaway database on the server the tests use), then
times, through the site's HTTP routes in process (FastAPI's TestClient), the median of
--reps requests of /standings, /api/standings, /ladder and a player's page, and of the first
/standings after a change to a game (which reads every line again and rates every game).  The games'
lines are read from the standings cache (gm_standings), which every change rewrites from
its game's ledger; no request folds a ledger.

    .venv/bin/python bench/bench_standings.py [--games 1000] [--players 300] [--reps 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from fastapi.testclient import TestClient  # noqa: E402

from gamesmaster.gm import Gamesmaster, Settings  # noqa: E402
from gamesmaster.store import Store  # noqa: E402
from gamesmaster.store.testing import PostgresDatabase, server_problem  # noqa: E402
from gamesmaster.web.app import create_app  # noqa: E402
from gamesmaster.web.security import SiteSecrets  # noqa: E402

POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def fill(gm: Gamesmaster, games: int, players: int, seed: int = 26) -> float:
    """Play the games; returns the seconds it took."""
    rng = random.Random(seed)
    names = [f"Player {n:03d}" for n in range(players)]
    settings = Settings.from_dict({"scoring": "dss"})
    start = time.perf_counter()
    for g in range(games):
        seated = rng.sample(names, 7)
        gm.setup.create_game(f"b{g:04d}", players=seated, assign=dict(zip(seated, POWERS)), settings=settings)
        gm.press.declare_draw(f"b{g:04d}", powers=rng.sample(POWERS, rng.randint(1, 4)))
    return time.perf_counter() - start


def timed(client: TestClient, url: str, reps: int) -> float:
    """The median milliseconds of reps requests (after one to warm up)."""
    assert client.get(url).status_code == 200, url
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = client.get(url)
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200
    return statistics.median(times)


def run(label: str, url: str, args: argparse.Namespace) -> None:
    store = Store(url)
    gm = Gamesmaster(store)
    took = fill(gm, args.games, args.players)
    client = TestClient(create_app(gm, SiteSecrets.for_testing("gm." + "x" * 32)))
    print(f"{label}: {args.games} games, {args.players} players played in {took:.0f} s")
    for page in ("/standings", "/api/standings", "/ladder", "/api/players/name:player%20007"):
        print(f"  {page:<32} median {timed(client, page, args.reps):7.1f} ms")
    cold = []
    for n in range(5):  # a change moves a game's head: the next page reads every line and rates again
        gm.club.add_to_league("Bench", [f"b{n:04d}"])
        t0 = time.perf_counter()
        assert client.get("/standings").status_code == 200
        cold.append((time.perf_counter() - t0) * 1000)
    print(f"  {'/standings after a change':<32} median {statistics.median(cold):7.1f} ms")
    store.dispose()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run("SQLite", f"sqlite:///{tmp}/bench.db", args)
    problem = server_problem()
    if problem:
        print(f"PostgreSQL: skipped ({problem})")
        return 0
    db = PostgresDatabase("gm_bench")
    try:
        run("PostgreSQL", db.new_schema(), args)
    finally:
        db.drop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
