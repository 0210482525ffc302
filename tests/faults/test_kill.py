"""Faults: the web process killed (SIGKILL) while players submit orders, and the deadline worker
killed while it adjudicates, many times at random points. After each restart every acknowledged
submission is on the record with its receipt, no phase is half-applied, and the ledger verifies.

Rounds: GAMESMASTER_FAULT_ROUNDS (default 4 of each kind in CI; e.g. 50 for a long run,
docs/security.md "Faults")."""

from __future__ import annotations

import http.client
import os
import random
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import text

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock
from gamesmaster.gm.adjudicating import PAUSE_ENV

from deploy.procs import call, web, worker

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROUNDS = int(os.environ.get("GAMESMASTER_FAULT_ROUNDS", "4"))


def _orders(units: list[str], rng: random.Random) -> list[str]:
    return [f"{u} H" if rng.random() < 0.7 else f"{u} S {u} H" for u in units]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_web_process_killed_during_submissions(kind, url_for, tmp_path):
    url = url_for(kind)
    store = Store(url)
    gm = Gamesmaster(store)
    c = gm.setup.create_game("kill", players=NAMES, seed=5)
    creds = {c.powers[n]: s for n, s in c.credentials.items()}
    units = gm.games.game("kill").position.to_dict()["units"]
    rng = random.Random(int(time.time()))
    acked: list[tuple[str, str, int]] = []  # (power, receipt, the power's submission number)
    errors: list[str] = []
    kills = 0
    try:
        for round_ in range(ROUNDS):
            proc, base = web(url, tmp_path / "data")
            stop = threading.Event()

            def hammer(power: str) -> None:
                r = random.Random(rng.random())
                while not stop.is_set():
                    try:
                        status, sub = call("POST", f"{base}/api/games/kill/powers/{power.lower()}/orders",
                                           {"orders": _orders(units[power], r)}, creds[power], timeout=10)
                    except (OSError, http.client.HTTPException, ValueError):
                        return  # the server is gone: this submission was not acknowledged
                    if status == 200:
                        acked.append((power, sub["receipt"], int(sub["receipt"].split(":")[0].rsplit("/", 1)[1])))
                    elif status >= 500 or status not in (429,):
                        errors.append(f"{status} {sub}")

            threads = [threading.Thread(target=hammer, args=(p,)) for p in sorted(creds)]
            for t in threads:
                t.start()
            # A random point in the stream of submissions: once this round's first one is
            # acknowledged (however slow the machine), then a random while longer.
            before = len(acked)
            end = time.monotonic() + 60
            while len(acked) == before and time.monotonic() < end and any(t.is_alive() for t in threads):
                time.sleep(0.02)
            assert len(acked) > before, f"round {round_}: no submission acknowledged in 60 s ({errors[:3]})"
            time.sleep(rng.uniform(0.0, 1.2))
            proc.kill()
            kills += 1
            stop.set()
            for t in threads:
                t.join(timeout=30)
            report = gm.record.verify("kill", receipts=[r for _, r, _ in acked])
            assert report.ok, (round_, report.problems)
    finally:
        store.dispose()
    assert not errors, errors[:5]
    print(f"web process killed {kills} times ({kind}); {len(acked)} acknowledged submissions, all on the record")
    assert kills == ROUNDS and len(acked) > ROUNDS  # submissions were acknowledged in the rounds
    store = Store(url)
    try:
        gm = Gamesmaster(store)
        # each power's orders on record are from its last acknowledged submission or a later one
        last = {}
        for power, _, number in acked:
            last[power] = max(number, last.get(power, 0))
        for power, number in last.items():
            rows = gm.orders.orders_on_record("kill", power, by_gm=True)
            assert rows and rows[0].receipt.number >= number, (power, number, rows)
    finally:
        store.dispose()


def _due_games(url: str, n: int, prefix: str) -> list[str]:
    store = Store(url)
    gm = Gamesmaster(store, FakeClock(datetime.now(timezone.utc) - timedelta(days=10)))
    ids = []
    for i in range(n):
        gid = f"{prefix}{i}"
        c = gm.setup.create_game(gid, players=NAMES, seed=i)
        for name, cred in c.credentials.items():
            power = c.powers[name]
            gm.orders.submit_orders(gid, power, [f"{u} H" for u in gm.games.game(gid).position.to_dict()["units"][power]], credential=cred)
        ids.append(gid)
    store.dispose()
    return ids


def _state(url: str, game: str) -> tuple[str, int, int]:
    store = Store(url, migrate=False)
    try:
        with store.connect(write=False) as conn:
            phase = conn.execute(text("SELECT phase FROM gm_games WHERE id=:g"), {"g": game}).scalar_one()
            adj = conn.execute(text("SELECT count(*) FROM gm_ledger WHERE game_id=:g AND kind='phase-adjudicated'"),
                               {"g": game}).scalar_one()
            rows = conn.execute(text("SELECT count(*) FROM gm_phases WHERE game_id=:g"), {"g": game}).scalar_one()
        assert Gamesmaster(store).record.verify(game).ok
        return phase, adj, rows
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_worker_killed_during_adjudication(kind, url_for, tmp_path):
    url = url_for(kind)
    rng = random.Random(int(time.time()) + 1)
    games = _due_games(url, 4 * ROUNDS, "k")
    kills = 0
    # each adjudication holds its transaction open 0.15 s before the commit (the test hook), so a
    # kill at a random moment mostly lands inside one
    slow = {PAUSE_ENV: "0.15"}
    for round_ in range(ROUNDS * 4):
        w = worker(url, tmp_path, interval=0.1, extra_env=slow)
        time.sleep(rng.uniform(1.0, 2.0))  # start-up is ~1s: kills land before, during and between claims
        w.kill()
        kills += 1
        states = {g: _state(url, g) for g in games}
        for g, st in states.items():
            assert st in (("S1901M", 0, 0), ("F1901M", 1, 1)), (round_, g, st)  # all or nothing
        if all(st[0] == "F1901M" for st in states.values()):
            break
    w = worker(url, tmp_path, interval=0.1)
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end and not all(_state(url, g)[0] == "F1901M" for g in games):
            time.sleep(0.3)
    finally:
        w.stop()
    assert all(_state(url, g) == ("F1901M", 1, 1) for g in games)
    print(f"worker killed {kills} times ({kind}) over {len(games)} due games; every game adjudicated once")
    assert kills >= 2
