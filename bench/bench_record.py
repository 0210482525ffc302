"""Benchmark: what writing one event costs (`Transaction.record`), and a whole ledger's fold.

Plays the 1971 rulebook's sample game and a seeded twenty-year game of random legal orders
(`bench_verify.play`) on SQLite in a temporary directory, then, several times over:

- **record**: every event of the sample game built again from its fields (as the code that
  writes it builds it, so that whatever the class does on construction is counted) and
  written with `Transaction.record` on a store that keeps nothing, so that only the event's
  own work is timed (its entry, any check that it reads back, its fold step), not SQL;
  the figure is microseconds per event, and per orders-submitted event alone (a submission's);
- **fold**: `gm.fold.fold` of the long game's whole ledger from nothing (what `verify` and
  a rebuild do first);
- **a submission**: `submit_orders` whole (credential, reading, SQLite and all), one power's
  orders sent again and again in a new game.

    python bench/bench_record.py [--years 20] [--seed 7] [--runs 7] [--submissions 200]

Times are the process's CPU time (`time.process_time`), so that other work on a shared machine
counts less than it would in wall time. Run it against another tree with `PYTHONPATH=OTHER/src`
to compare two versions in one sitting. It prints each figure's median and spread; nothing here
runs in CI.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import NAMES, Clock, play  # noqa: E402

from gamesmaster.gm import Gamesmaster  # noqa: E402
from gamesmaster.gm.archive import play_sample  # noqa: E402
from gamesmaster.gm.events import Event, EventKind, parse_event  # noqa: E402
from gamesmaster.gm.fold import fold  # noqa: E402
from gamesmaster.gm.tx import Transaction  # noqa: E402
from gamesmaster.ledger import Entry  # noqa: E402
from gamesmaster.store import Store  # noqa: E402


class NoStore:
    """A store that has no game yet and keeps nothing it is given: record's own work is all that is left."""

    def head(self, game_id: str, lock: bool = False) -> None:
        return None

    def last_entry(self, game_id: str) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None  # put_game, insert_phase, supersede_phase, insert_press


def rebuilt(event: Event) -> Event:
    """The event made again from its field values, the way a call of tx.record(Kind(...)) makes it."""
    return type(event)(**{f.name: getattr(event, f.name) for f in fields(event)})


def record_all(events: list[Event]) -> tuple[float, float]:
    """Seconds to build and record every event, and those spent on orders-submitted events."""
    tx = Transaction(NoStore(), "bench", datetime(2030, 1, 7, 12, tzinfo=timezone.utc), create=True)  # type: ignore[arg-type]
    total = submitted = 0.0
    for event in events:
        start = time.process_time()
        tx.record(rebuilt(event))
        took = time.process_time() - start
        total += took
        if event.KIND is EventKind.ORDERS_SUBMITTED:
            submitted += took
    return total, submitted


def show(name: str, values: list[float], unit: str) -> str:
    return f"{name:44} median {statistics.median(values):8.1f} {unit}   min {min(values):8.1f}   max {max(values):8.1f}"


def submissions(gm: Gamesmaster, count: int) -> list[float]:
    """Microseconds each of `count` submissions takes, a power's orders sent again and again with its credential."""
    created = gm.setup.create_game("orders", players=NAMES, seed=1)
    france = created.credentials[next(name for name, power in created.powers.items() if power == "FRANCE")]
    took = []
    for n in range(count):
        start = time.process_time()
        gm.orders.submit_orders("orders", "FRANCE", ["A Par-Bur", "A Par-Pic"][n % 2], credential=france)
        took.append((time.process_time() - start) * 1e6)
    return took


def ledgers(years: int, seed: int, count: int) -> tuple[list[Entry], list[Entry], list[float]]:
    """The sample game's ledger and a long game's, played on SQLite in a temporary directory; and submissions' times."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        gm = Gamesmaster(store, Clock())
        play_sample(gm)
        play(gm, years, seed)
        with gm.desk.reading() as rec:
            sample, long = rec.entries("sample-1971"), rec.entries("long")
        took = submissions(gm, count)
        store.dispose()
    return sample, long, took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--years", type=int, default=20, help="the long game's length")
    parser.add_argument("--seed", type=int, default=7, help="the long game's orders")
    parser.add_argument("--runs", type=int, default=7, help="how many times each figure is taken")
    parser.add_argument("--submissions", type=int, default=200, help="how many submissions are timed")
    args = parser.parse_args(argv)
    sample, long, took = ledgers(args.years, args.seed, args.submissions)
    events = [parse_event(e) for e in sample]
    orders = sum(1 for e in events if e.KIND is EventKind.ORDERS_SUBMITTED)
    print(f"sample game: {len(events)} events ({orders} orders-submitted); long game: {len(long)} entries")
    per_event, per_orders, folds = [], [], []
    for _ in range(args.runs):
        total, submitted = record_all(events)
        per_event.append(total / len(events) * 1e6)
        per_orders.append(submitted / orders * 1e6)
        start = time.process_time()
        fold(long, "long")
        folds.append((time.process_time() - start) * 1e3)
    print(show("record, per event (sample game)", per_event, "us"))
    print(show("record, per orders-submitted event", per_orders, "us"))
    print(show(f"fold of the long game ({len(long)} entries)", folds, "ms"))
    print(show(f"a submission, whole ({len(took)} of them)", took, "us"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
