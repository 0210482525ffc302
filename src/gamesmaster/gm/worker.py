"""The deadline worker: claims games whose deadline has passed and adjudicates them.

Run one or several, against one database:

    python -m gamesmaster.gm.worker --db postgresql://gm@dbhost/games
    gamesmaster worker --interval 30

Each claim is one transaction (on PostgreSQL SELECT ... FOR UPDATE SKIP LOCKED), which
also writes the results, so no phase is adjudicated twice and a worker killed midway
leaves the phase as it was for the next claim.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, Sequence, TextIO

from ..store import Store, StoreError
from .cliopts import add_database_option
from .errors import GMError
from .service import Gamesmaster
from .views import Processed


def describe(p: Processed) -> str:
    if p.action == "grace":
        return f"{p.game}: {p.phase} grace period, deadline now {p.deadline.isoformat() if p.deadline else '-'}"
    if p.ended:
        return f"{p.game}: {p.phase} adjudicated; the game is over ({p.ended['kind']}: {', '.join(p.ended['winners'])})"
    cd = f"; civil disorder: {', '.join(p.civil_disorder)}" if p.civil_disorder else ""
    return f"{p.game}: {p.phase} adjudicated, next {p.next_phase}{cd}"


def run(gm: Gamesmaster, *, interval: float = 30.0, once: bool = False, out: TextIO = sys.stdout,
        rounds: int | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Process due games every `interval` seconds (once: a single pass). Returns phases processed."""
    total = 0
    n = 0
    while True:
        try:
            done = gm.process_due()
        except (StoreError, GMError) as exc:
            print(f"worker: {exc}", file=sys.stderr, flush=True)
            done = []
        for p in done:
            print(describe(p), file=out, flush=True)
        total += len(done)
        n += 1
        if once or (rounds is not None and n >= rounds):
            return total
        sleep(interval)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gamesmaster.gm.worker",
                                     description="Adjudicate every game whose deadline has passed.")
    add_database_option(parser)
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between passes (default 30)")
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    args = parser.parse_args(argv)
    try:
        store = Store(args.db)
    except StoreError as exc:
        print(f"worker: {exc}", file=sys.stderr)
        return 2
    try:
        run(Gamesmaster(store), interval=args.interval, once=args.once)
    except KeyboardInterrupt:
        return 130
    finally:
        store.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
