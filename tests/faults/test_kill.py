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
from gamesmaster.gm.adjudicating import PAUSE_ENV, PAUSE_FILE_ENV
from gamesmaster.gm.deadlines import CLAIM

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


def _wait_for_adjudications(marker, w, count: int, timeout: float = 60) -> None:
    """Wait until the worker has begun `count` adjudications (the pause hook writes the marker as each
    pause begins; writes 0.15 s apart, looked at every 10 ms)."""
    end = time.monotonic() + timeout
    seen, last = 0, None
    while seen < count:
        try:
            stamp = marker.stat().st_mtime_ns
        except FileNotFoundError:
            stamp = None
        if stamp is not None and stamp != last:
            seen, last = seen + 1, stamp
            continue
        if w.proc.poll() is not None or time.monotonic() > end:
            w.kill()
            raise AssertionError(f"the worker began {seen} of {count} adjudications:\n{w.output}")
        time.sleep(0.01)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_worker_killed_during_adjudication(kind, url_for, tmp_path):
    url = url_for(kind)
    rng = random.Random(int(time.time()) + 1)
    games = _due_games(url, 4 * ROUNDS, "k")
    kills = 0
    left = len(games)
    # A worker claims CLAIM games at a time (four) and commits them together; each
    # adjudication pauses 0.15 s inside the claim's transaction (the test hook), writing the round's
    # marker file as the pause begins. So a kill is aimed by counting adjudications begun: one round
    # in four at a random moment of the start-up (before any claim); the others after a random
    # number of claims committed, either inside the pause of a random adjudication of the next
    # claim (its transaction open) or, once the games left are all done, after the last commit.
    # (A kill a fixed 1-2 s after the start landed before every claim whenever start-up took
    # longer than that, as it does on a loaded machine, and left the games to the last worker.)
    for round_ in range(ROUNDS * 4):
        marker = tmp_path / f"round-{round_}.paused"
        w = worker(url, tmp_path, interval=0.1, extra_env={PAUSE_ENV: "0.15", PAUSE_FILE_ENV: str(marker)})
        claims = -(-left // CLAIM)
        if rng.random() < 0.25:
            time.sleep(rng.uniform(0.0, 1.0))  # start-up is ~1 s or more: before its first claim
        else:
            done = rng.randint(0, min(3, claims if kills else claims - 1))  # the first round never does all
            if done == claims:
                _wait_for_adjudications(marker, w, left)
                time.sleep(rng.uniform(0.3, 0.5))  # after the pause and the commit
            else:
                _wait_for_adjudications(marker, w, CLAIM * done + rng.randint(1, min(CLAIM, left - CLAIM * done)))
                time.sleep(rng.uniform(0.0, 0.1))  # inside the pause
        w.kill()
        kills += 1
        states = {g: _state(url, g) for g in games}
        for g, st in states.items():
            assert st in (("S1901M", 0, 0), ("F1901M", 1, 1)), (round_, g, st)  # all or nothing
        left = sum(st[0] == "S1901M" for st in states.values())
        if not left:
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
