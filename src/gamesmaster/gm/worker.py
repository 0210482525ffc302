"""The deadline worker: claims games whose deadline has passed and adjudicates them.

Run one or several, against one database:

    gamesmaster worker --db postgresql://gm@dbhost/games --interval 30

Each claim is one transaction (on PostgreSQL SELECT ... FOR UPDATE SKIP LOCKED), which
also writes the results, so no phase is adjudicated twice and a worker killed midway
leaves the phase as it was for the next claim.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta
from typing import Callable, TextIO

from ..store import StoreError
from .errors import GMError
from .service import Gamesmaster
from .views import Processed


def describe(p: Processed) -> str:
    if p.action == "grace":
        return f"{p.game}: {p.phase} grace period, deadline now {p.deadline.isoformat() if p.deadline else '-'}"
    if p.action == "ended" and p.ended:
        return f"{p.game}: the game stopped at the agreed time ({p.ended.kind}: {', '.join(p.ended.winners)})"
    if p.ended:
        return f"{p.game}: {p.phase} adjudicated; the game is over ({p.ended.kind}: {', '.join(p.ended.winners)})"
    cd = f"; civil disorder: {', '.join(p.civil_disorder)}" if p.civil_disorder else ""
    return f"{p.game}: {p.phase} adjudicated, next {p.next_phase}{cd}"


PURGE_EVERY = timedelta(hours=1)


class Pass:
    """One pass of a deadline worker: every due game processed, and once an hour the expired
    sign-in sessions and mailed sign-in links forgotten (so that those tables hold only live ones)."""

    def __init__(self, gm: Gamesmaster) -> None:
        self.gm = gm
        self.purged_at: datetime | None = None

    def __call__(self) -> list[Processed]:
        done = self.gm.deadlines.process_due()
        now = self.gm.desk.now()
        if self.purged_at is None or now - self.purged_at >= PURGE_EVERY:
            self.gm.sessions.purge_sessions()
            self.gm.accounts.purge_links()
            self.purged_at = now
        return done


def run(gm: Gamesmaster, *, interval: float = 30.0, once: bool = False, out: TextIO = sys.stdout,
        rounds: int | None = None, sleep: Callable[[float], None] = time.sleep) -> int:
    """Process due games every `interval` seconds (once: a single pass). Returns phases processed."""
    total = 0
    n = 0
    one_pass = Pass(gm)
    while True:
        try:
            done = one_pass()
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
