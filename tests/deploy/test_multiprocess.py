"""The deployment for a big site (docs/deploy.md), on loopback: two web processes
(`gamesmaster serve --no-worker`) and two deadline workers (`gamesmaster worker`) against one
PostgreSQL. Players submit and read through both web processes at once; when the deadlines
pass, every game is adjudicated exactly once and no acknowledged order is lost."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta, timezone
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import text

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store

from .procs import call, web, worker

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
GAMES = 6


def test_two_web_and_two_worker_processes_on_one_postgresql(url_for, tmp_path):
    url = url_for("postgresql")
    store = Store(url)
    data = tmp_path / "data"
    webs = []
    workers = []
    try:
        webs = [web(url, data) for _ in range(2)]
        workers = [worker(url, tmp_path) for _ in range(2)]
        gm = Gamesmaster(store)
        creds: dict[str, dict[str, str]] = {}
        for i in range(GAMES):
            c = gm.setup.create_game(f"big{i}", players=NAMES, seed=i)
            creds[f"big{i}"] = {c.powers[n]: s for n, s in c.credentials.items()}
        jobs = [(g, p, c) for g, byp in creds.items() for p, c in byp.items()]
        rng = random.Random(7)
        rng.shuffle(jobs)

        def play(job_i: int) -> tuple[str, str, int, dict]:
            game, power, credential = jobs[job_i]
            base = webs[job_i % 2][1]
            status, pos = call("GET", f"{base}/api/games/{game}/position", credential=credential)
            assert status == 200, pos
            units = pos["units"][power] if "units" in pos else pos["position"]["units"][power]
            orders = [f"{u} H" for u in units]
            status, sub = call("POST", f"{base}/api/games/{game}/powers/{power.lower()}/orders",
                               {"orders": orders}, credential)
            # read it back through the other web process
            other = webs[(job_i + 1) % 2][1]
            s2, mine = call("GET", f"{other}/api/games/{game}/powers/{power.lower()}/orders", credential=credential)
            assert s2 == 200, mine
            return game, power, status, sub

        with ThreadPoolExecutor(16) as pool:
            done = list(pool.map(play, range(len(jobs))))
        assert all(status == 200 for _, _, status, _ in done), [d for d in done if d[2] != 200][:3]
        receipts: dict[str, list[str]] = {}
        for game, power, _, sub in done:
            receipts.setdefault(game, []).append(sub["receipt"])

        # every order in: the GM brings each deadline to now, and the workers share the games out
        # each deadline a second from when it is set: one shared "soon" had passed by the last
        # game when the machine was loaded, and extend rightly refused a deadline in the past
        for g in creds:
            gm.deadlines.extend(g, until=datetime.now(timezone.utc) + timedelta(seconds=1), reason="all orders are in")
        end = time.monotonic() + 90
        while time.monotonic() < end:
            if all(str(g.phase) == "F1901M" for g in gm.games.games()):
                break
            time.sleep(0.3)
        assert all(str(g.phase) == "F1901M" for g in gm.games.games()), [w.output for w in workers]
        time.sleep(1.0)  # one more pass of each worker: nothing more to do
        lines = [l for w in workers for l in w.output.splitlines() if "adjudicated" in l]
        assert sorted(lines) == sorted(f"big{i}: S1901M adjudicated, next F1901M" for i in range(GAMES)), lines
        with store.connect(write=False) as conn:
            for i in range(GAMES):
                g = f"big{i}"
                kinds = [r[0] for r in conn.execute(text("SELECT kind FROM gm_ledger WHERE game_id=:g"), {"g": g})]
                assert kinds.count("phase-adjudicated") == 1, (g, kinds)
                assert conn.execute(text("SELECT count(*) FROM gm_phases WHERE game_id=:g"), {"g": g}).scalar_one() == 1
        for game, rs in receipts.items():
            report = gm.record.verify(game, receipts=rs)
            assert report.ok and report.receipts_checked >= 7, report.problems
        assert sum(1 for w in workers if "adjudicated" in w.output) >= 1
    finally:
        for p in [*workers, *(w for w, _ in webs)]:
            p.stop()
        store.dispose()
