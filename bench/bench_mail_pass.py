"""How long one pass of the mail door's dispatcher takes over a site's games (the loop runs it every 10 s).

A benchmark, not a test. A site of GAMES seven-player games in Spring 1901, every player playing by mail (a mail
contact) and, in every other game, Ann with a site account holding England's seat. It times passes of
`Dispatcher.run_once()` with nothing new (the common pass: only the clock moved; median of `--reps`), then the
pass after the deadline in every game (results mailed to every player), in wall-clock and CPU milliseconds.

    .venv/bin/python bench/bench_mail_pass.py [--games 100] [--reps 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from gamesmaster.gm import Gamesmaster
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.notify import Dispatcher
from gamesmaster.store import Store
from gamesmaster.store.accounts import AccountRecords
from gamesmaster.store.testing import FakeClock

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def _timed(run: object, reps: int) -> tuple[float, float]:
    """The median wall-clock and CPU milliseconds of `reps` calls (the machine is shared: CPU time moves less)."""
    wall, cpu = [], []
    for _ in range(reps):
        started, used = time.perf_counter(), time.process_time()
        run()  # type: ignore[operator]
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return round(statistics.median(wall), 1), round(statistics.median(cpu), 1)


def run(games: int, reps: int) -> dict[str, object]:
    """Set up the site; the median times of a quiet pass and of the pass that mails every game's results."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'gm.db'}")
        clock = FakeClock()
        gm = Gamesmaster(store, clock)
        door = Dispatcher(gm, MailConfig(address="gm@club.test", maps=False, reminder_hours=24))
        gm.accounts.sign_up("ann@players.test", "Ann", "https://club.test")
        with gm.desk.reading() as rec:
            account = AccountRecords(rec.conn).by_email("ann@players.test").id
        for g in range(games):
            game = f"g{g:03d}"
            created = gm.setup.create_game(game, players=NAMES, assign=dict(zip(NAMES, POWERS)))
            with gm.mailroom.open() as books:
                for number, name in enumerate(NAMES, 1):
                    books.set_contact(game, number, f"{name.lower()}.{g}@players.test", clock(), "mail")
            if g % 2 == 0:
                gm.joining.claim_seat(game, created.credentials["Ann"], account)
        door.run_once()
        quiet = _timed(door.run_once, reps)
        clock.set(gm.games.game("g000").deadline + timedelta(minutes=1))
        gm.deadlines.process_due()
        counts: dict[str, int] = {}
        results = _timed(lambda: counts.update(door.run_once()), 1)
        store.dispose()
    return {"games": games, "quiet_pass_ms": quiet[0], "quiet_pass_cpu_ms": quiet[1], "results_pass_ms": results[0],
            "results_pass_cpu_ms": results[1], "counts": counts}


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(args.games, args.reps)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
