"""Load benchmark (not a test): many simulated players across many games submitting and reading
concurrently against running `gamesmaster serve --no-worker` processes on loopback, all on one
PostgreSQL; then one deadline worker on a thousand games due at the same moment.

    .venv/bin/python bench/load/run.py                       # 1 and 4 web processes, 20 s each, 1000-game worker
    .venv/bin/python bench/load/run.py --web 1,2,4 --seconds 30 --games 100 --players 200 --worker-games 1000

Bounded: --seconds per run (default 20), --players simulated players (default 140, over
--games games of 7), --worker-games games for the worker run. The database is a fresh one on
$TEST_POSTGRES_URL's server (default postgresql://postgres@127.0.0.1:5432/postgres), dropped at
the end. Prints a table and writes bench/load/results/latest.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock, PostgresDatabase

HERE = Path(__file__).parent
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
GM_CREDENTIAL = "gm.bench-credential-0123456789"


def start_web(url: str, data: Path) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    env.update({"GAMESMASTER_DATABASE_URL": url, "GAMESMASTER_GM_CREDENTIAL": GM_CREDENTIAL, "PYTHONUNBUFFERED": "1"})
    p = subprocess.Popen([sys.executable, "-m", "gamesmaster.cli", "serve", "--port", "0", "--data", str(data),
                          "--no-worker", "--no-mail", "--no-demo"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=env)
    out = ""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        line = p.stdout.readline()  # type: ignore[union-attr]
        out += line
        if "Press Ctrl-C" in out:
            threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()  # type: ignore[union-attr]
            return p, re.search(r"serving (http://\S+)", out).group(1)  # type: ignore[union-attr]
        if not line and p.poll() is not None:
            break
    p.kill()
    raise SystemExit(f"the web process did not start:\n{out}")


def make_games(url: str, n: int, prefix: str, clock=None) -> dict[str, dict[str, str]]:
    store = Store(url)
    gm = Gamesmaster(store, clock) if clock else Gamesmaster(store)
    creds = {}
    for i in range(n):
        c = gm.create_game(f"{prefix}{i}", players=NAMES, seed=i)
        creds[f"{prefix}{i}"] = {c.powers[name]: s for name, s in c.credentials.items()}
    store.dispose()
    return creds


async def player(client: httpx.AsyncClient, base: str, game: str, power: str, cred: str, units: list[str],
                 until: float, lat: list[float], kinds: dict[str, int], errors: list[str], rng: random.Random) -> None:
    h = {"Authorization": f"Bearer {cred}"}
    while time.monotonic() < until:
        r = rng.random()
        if r < 0.25:
            kind, req = "submit", client.build_request("POST", f"{base}/api/games/{game}/powers/{power.lower()}/orders",
                                                       json={"orders": [f"{u} H" for u in units]}, headers=h)
        elif r < 0.5:
            kind, req = "own-orders", client.build_request("GET", f"{base}/api/games/{game}/powers/{power.lower()}/orders",
                                                           headers=h)
        elif r < 0.8:
            kind, req = "position", client.build_request("GET", f"{base}/api/games/{game}/position")
        else:
            kind, req = "game", client.build_request("GET", f"{base}/api/games/{game}")
        t = time.perf_counter()
        try:
            resp = await client.send(req)
            ok = resp.status_code == 200
            if not ok:
                errors.append(f"{kind} {resp.status_code} {resp.text[:120]}")
        except httpx.HTTPError as exc:
            errors.append(f"{kind} {type(exc).__name__}")
        lat.append(time.perf_counter() - t)
        kinds[kind] = kinds.get(kind, 0) + 1


async def load(bases: list[str], creds: dict[str, dict[str, str]], units: dict[str, list[str]], players: int,
               seconds: float) -> dict:
    slots = [(g, p, c) for g, byp in creds.items() for p, c in byp.items()][:players]
    lat: list[float] = []
    kinds: dict[str, int] = {}
    errors: list[str] = []
    limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        start = time.monotonic()
        until = start + seconds
        await asyncio.gather(*(player(client, bases[i % len(bases)], g, p, c, units[p], until, lat, kinds, errors,
                                      random.Random(i)) for i, (g, p, c) in enumerate(slots)))
        wall = time.monotonic() - start
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [lat[len(lat) // 2]] * 99
    return {"requests": len(lat), "seconds": round(wall, 1), "rps": round(len(lat) / wall, 1),
            "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1), "errors": len(errors),
            "error_samples": errors[:5], "by_kind": kinds}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default="1,4", help="numbers of web processes to compare (default 1,4)")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of each load run (default 20)")
    ap.add_argument("--games", type=int, default=20, help="games played during the load runs (default 20)")
    ap.add_argument("--players", type=int, default=140, help="simulated players, at most 7 per game (default 140)")
    ap.add_argument("--worker-games", type=int, default=1000, help="games due at once for the worker run (0: skip)")
    args = ap.parse_args()
    db = PostgresDatabase(prefix="gm_bench")
    url = db.url.replace("postgresql+psycopg://", "postgresql://", 1)
    report: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                "platform": platform.platform()},
                    "args": vars(args), "load": [], "worker": None, "at": datetime.now(timezone.utc).isoformat()}
    try:
        Store(url).dispose()  # the schema, once
        t = time.monotonic()
        creds = make_games(url, args.games, "load")
        print(f"{args.games} games created in {time.monotonic() - t:.1f}s", flush=True)
        store = Store(url)
        units = Gamesmaster(store).status("load0")["position"]["units"]
        store.dispose()
        with tempfile.TemporaryDirectory() as tmp:
            for n in [int(x) for x in args.web.split(",")]:
                procs = [start_web(url, Path(tmp) / "data") for _ in range(n)]
                try:
                    asyncio.run(load([b for _, b in procs], creds, units, args.players, 3.0))  # warm-up
                    res = asyncio.run(load([b for _, b in procs], creds, units, args.players, args.seconds))
                finally:
                    for p, _ in procs:
                        p.terminate()
                        p.wait(timeout=30)
                res["web_processes"] = n
                report["load"].append(res)
                print(f"{n} web process(es): {res['requests']} requests in {res['seconds']}s = {res['rps']} req/s, "
                      f"p50 {res['p50_ms']} ms, p99 {res['p99_ms']} ms, errors {res['errors']} {res['error_samples']}",
                      flush=True)
        if args.worker_games:
            t = time.monotonic()
            past = FakeClock(datetime.now(timezone.utc) - timedelta(days=10))
            make_games(url, args.worker_games, "due", past)
            made = time.monotonic() - t
            print(f"{args.worker_games} due games created in {made:.1f}s", flush=True)
            env = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
            t = time.monotonic()
            r = subprocess.run([sys.executable, "-m", "gamesmaster.cli", "worker", "--db", url, "--once"],
                               capture_output=True, text=True, env=env, timeout=3600)
            took = time.monotonic() - t
            done = sum(1 for line in r.stdout.splitlines() if "adjudicated" in line)
            report["worker"] = {"games": args.worker_games, "adjudicated": done, "seconds": round(took, 1),
                                "per_game_ms": round(took * 1000 / max(done, 1), 1), "exit": r.returncode,
                                "stderr": r.stderr[-500:]}
            print(f"one worker: {done} of {args.worker_games} due games adjudicated in {took:.1f}s "
                  f"({took * 1000 / max(done, 1):.1f} ms a game, process start-up included)", flush=True)
    finally:
        db.drop()
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
