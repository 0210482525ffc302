"""Benchmark: seven DAIDE bots, each answering at once, play 1901-1920 through the door (target: under 60 s).

Each run makes a fresh game on SQLite in a temporary directory (or on --db), opens it to
bots, starts the DAIDE door on a loopback port and connects seven bots: the tests' own
client (tests/daide/daideclient.py), which sends random orders for every unit as soon
as it is told the new position, its retreats from NOW and its builds from MIS. The
game is a short game ending after 1920 with early movement (a turn is processed as soon
as every bot's orders are complete, DAIDE's go flag). The clock runs from the first
bot's connection to the last bot's summary (SMR); then `verify` must hold.

    .venv/bin/python bench/bench_daide.py [--runs 3] [--last-year 1920] [--seed 1] [--db URL]

It prints each run, and the median and spread; nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "daide"))

from daideclient import RandomBot  # noqa: E402

from gamesmaster.daide.server import start  # noqa: E402
from gamesmaster.gm import Gamesmaster, Settings  # noqa: E402
from gamesmaster.store import Store  # noqa: E402


def one_run(url: str, last_year: int, seed: int, game: str) -> dict[str, float]:
    """Play one game through the door; its timings and sizes."""
    store = Store(url)
    gm = Gamesmaster(store)
    gm.setup.create_game(game, start=False, settings=Settings.from_dict({"press": "none", "early_movement": True, "end_year": last_year}))
    gm.bots.open_to_bots(game)
    door = start(gm, [(game, 0)], "127.0.0.1", poll=1.0)
    try:
        began = time.perf_counter()
        bots = [RandomBot("127.0.0.1", door.ports[game], f"Bot{i}", seed=seed * 10 + i).start() for i in range(7)]
        for bot in bots:
            assert bot.thread is not None
            bot.thread.join(600)
        took = time.perf_counter() - began
    finally:
        door.stop()
    errors = [f"{b.name}: {b.error!r}" for b in bots if b.error is not None or b.summary is None]
    if errors:
        raise SystemExit("a bot failed: " + "; ".join(errors))
    report = gm.record.verify(game)
    if not report.ok:
        raise SystemExit(f"verify failed: {report.problems[:3]}")
    results = gm.games.results(game)
    orders = sum(len(r.results) for r in results)
    messages = sum(len(b.log) for b in bots)
    store.dispose()
    return {"seconds": took, "phases": len(results), "orders": orders, "messages": messages,
            "entries": report.entries, "last": str(results[-1].phase)}


def main() -> int:
    """Run the benchmark and print each run, the median and the spread."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--last-year", type=int, default=1920)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", metavar="URL", help="a database URL (default: SQLite in a temporary directory)")
    args = parser.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            url = args.db or f"sqlite:///{Path(tmp) / f'run{run}.db'}"
            r = one_run(url, args.last_year, args.seed + run, f"bench{run}")
            times.append(r["seconds"])
            print(f"run {run + 1}: {r['seconds']:.1f} s  ({r['phases']} phases to {r['last']}, {r['orders']} orders, "
                  f"{r['messages']} messages to the bots, {r['entries']} ledger entries; verify holds)", flush=True)
    print(f"1901-{args.last_year}, seven bots: median {statistics.median(times):.1f} s, "
          f"spread {min(times):.1f} - {max(times):.1f} s over {len(times)} runs (target: under 60 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
