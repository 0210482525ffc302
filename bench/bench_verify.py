"""Benchmark: `verify` on a twenty-year seven-player game (target: under 5 seconds).

Plays a seeded game of random legal orders from Spring 1901 through the end of 1920
through the gamesmaster (every set of orders submitted with a credential, each power
revising its orders once a phase, a press letter now and then, every phase processed by
the GM), on SQLite in a temporary directory, then times, several times over:

- `Gamesmaster.verify(game)`: the ledger folded from nothing, every entry audited,
  every phase re-adjudicated, every cache table compared (the GM's check);
- `verify_archive(doc)`: the same replay of the downloaded public record, with no store
  (a player's check on their own machine), every receipt handed in.

    python bench/bench_verify.py [--years 20] [--seed 7] [--runs 5]

It prints the game's size and each timing with its spread; nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from gamesmaster.gm import Gamesmaster, Settings
from gamesmaster.gm.record import verify_archive
from gamesmaster.rules.possible import possible_orders
from gamesmaster.store import Store

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


class Clock:
    """A clock that moves on a minute at every look, so that every entry has its own time."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 7, 12, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=30)
        return self.now


def pick(rng: random.Random, table: dict) -> list[str]:
    """One order per unit (a move more often than not), or the builds and removals, from the legal ones."""
    out = []
    for key, orders in table.items():
        if key == "adjust":
            out.extend(str(o) for o in orders[: rng.randint(0, min(2, len(orders)))])
            continue
        moves = [o for o in orders if type(o).__name__ == "Move"]
        choice = rng.choice(moves) if moves and rng.random() < 0.6 else rng.choice(orders)
        out.append(str(choice))
    return out


def play(gm: Gamesmaster, years: int, seed: int) -> tuple[int, list[str]]:
    """A game of random legal orders to the end of 1900+years; returns the phases played and every receipt."""
    rng = random.Random(seed)
    created = gm.setup.create_game("long", players=NAMES, seed=seed, rules="2023",
                             settings=Settings.from_dict({"press": "full", "end_year": 1900 + years}))
    cred = {power: created.credentials[name] for name, power in created.powers.items()}
    receipts: list[str] = []
    phases = 0
    while True:
        view = gm.games.game("long")
        if view.status == "finished":
            return phases, receipts
        position = view.position
        assert position is not None
        for status in view.powers:
            if not status.to_order:
                continue
            table = possible_orders(position, status.power, view.rules)
            if position.phase.is_movement:  # a first thought, then the orders that count
                receipts.append(str(gm.orders.submit_orders("long", status.power, pick(rng, table),
                                                     credential=cred[status.power]).receipt))
            if gm.games.game("long").phase != position.phase:
                break  # processed early (every power concerned had ordered)
            receipts.append(str(gm.orders.submit_orders("long", status.power, pick(rng, table),
                                                 credential=cred[status.power]).receipt))
            if rng.random() < 0.1:
                other = rng.choice([p for p in cred if p != status.power])
                gm.press.post_press("long", "a letter", to=[other], credential=cred[status.power])
        if gm.games.game("long").phase == position.phase:
            gm.deadlines.process("long", force=True)
        phases = gm.games.game("long").published


def timed(runs: int, work) -> list[float]:  # noqa: ANN001
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        report = work()
        out.append(time.perf_counter() - start)
        assert report.ok, report.problems[:3]
    return out


def show(name: str, times: list[float]) -> str:
    return (f"{name:34} median {statistics.median(times):6.3f} s   min {min(times):6.3f}   max {max(times):6.3f}"
            f"   ({len(times)} runs)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        gm = Gamesmaster(store, Clock())
        start = time.perf_counter()
        phases, receipts = play(gm, args.years, args.seed)
        played = time.perf_counter() - start
        entries = len(gm.games.history("long").ledger)
        doc = gm.record.archive("long")
        published = gm.games.results("long")
        print(f"game: {published[0].title} to {published[-1].title}: {phases} phases published, {entries} ledger "
              f"entries, {len(receipts)} receipts (played in {played:.1f} s, {played / max(phases, 1) * 1000:.0f} ms "
              "a phase)")
        print(show("verify (the store, every table)", timed(args.runs, lambda: gm.record.verify("long"))))
        print(show("verify --archive (no store)", timed(args.runs, lambda: verify_archive(doc))))
        print(show("verify --archive + every receipt", timed(args.runs, lambda: verify_archive(doc, receipts))))
        store.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
