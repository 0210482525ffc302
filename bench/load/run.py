"""Load benchmark (not a test): the site under a crowd of players, the mail door under a
flood of order mails, and the deadline worker under a thousand games due at once.

    .venv/bin/python bench/load/run.py                           # every scenario, the issue's sizes (~15 min)
    .venv/bin/python bench/load/run.py --scenario web-sqlite --players 70 --games 10 --seconds 20

Scenarios (--scenario, comma-separated; default all):
  web-sqlite   one `gamesmaster serve` on SQLite, with its deadline worker and mail door
  web-pg       two `serve --no-worker` web processes on PostgreSQL, and a `gamesmaster worker`
  mail         one `serve` on SQLite: order mails over SMTP, each answered through a relay
  deadline     1,000 games due in the same minute: one worker on SQLite; 1, 2 and 4 on PostgreSQL

PostgreSQL databases are made on $TEST_POSTGRES_URL's server (default
postgresql://postgres@127.0.0.1:5432/postgres) and dropped at the end. Prints the figures
and writes bench/load/results/latest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).parent))
import crowd  # noqa: E402

from gamesmaster.store.testing import PostgresDatabase, server_url  # noqa: E402

HERE = Path(__file__).parent
SCENARIOS = ("web-sqlite", "web-pg", "mail", "deadline")


def _line(name: str, figures: dict) -> str:
    if not figures.get("requests"):
        return f"  {name:12} no requests"
    return (f"  {name:12} {figures['requests']:6} requests {figures['per_second']:7} /s  p50 {figures['p50_ms']:7} ms"
            f"  p99 {figures['p99_ms']:7} ms  max {figures['max_ms']:7} ms  errors {figures['errors']}")


def report_web(title: str, res: dict) -> None:
    cpu = res.get("server_cpu_ms_per_request")
    print(f"{title}: {res['players']} players for {res['seconds']} s"
          + (f"; the server's CPU per request {cpu} ms" if cpu else ""), flush=True)
    for name in ("all", "reads", "submissions"):
        print(_line(name, res[name]), flush=True)
    for sample in res["error_samples"]:
        print(f"    error: {sample}", flush=True)


def web_sqlite(args: argparse.Namespace, tmp: Path) -> dict:
    url = f"sqlite:///{tmp / 'web.db'}"
    creds = crowd.make_games(url, args.games, "club")
    relay = crowd.Relay()
    env = crowd.environment(url, GAMESMASTER_SMTP_RELAY=f"127.0.0.1:{relay.port}",
                            GAMESMASTER_MAIL_ADDRESS="gm@bench.example")
    site, base = crowd.serve(url, tmp / "data-web", worker=True, mail=True, env=env, threads=args.threads,
                              processes=args.web_processes)
    try:
        res = crowd.crowd([base], creds, crowd.home_units(url), args.players, args.seconds, args.think, [site])
    finally:
        site.stop()
        relay.stop()
    report_web("web, one serve on SQLite (worker and mail door in the process)", res)
    return res


def web_pg(args: argparse.Namespace, tmp: Path) -> dict:
    db = PostgresDatabase(prefix="gm_bench")
    url = db.url.replace("postgresql+psycopg://", "postgresql://", 1)
    procs: list[crowd.Process] = []
    try:
        creds = crowd.make_games(url, args.games, "club")
        bases = []
        for k in range(args.web_processes):
            p, base = crowd.serve(url, tmp / f"data-pg{k}", worker=False, mail=False)
            procs.append(p)
            bases.append(base)
        procs.append(crowd.Process(["worker", "--interval", "5"], crowd.environment(url)))
        res = crowd.crowd(bases, creds, crowd.home_units(url), args.players, args.seconds, args.think, procs)
    finally:
        for p in procs:
            p.stop()
        db.drop()
    res["web_processes"] = args.web_processes
    report_web(f"web, {args.web_processes} web processes and a worker on PostgreSQL", res)
    return res


def mail(args: argparse.Namespace, tmp: Path) -> dict:
    url = f"sqlite:///{tmp / 'mail.db'}"
    creds = crowd.make_games(url, -(-args.mail_players // 7), "post")
    relay = crowd.Relay()
    to = "gm@bench.example"
    env = crowd.environment(url, GAMESMASTER_SMTP_RELAY=f"127.0.0.1:{relay.port}", GAMESMASTER_MAIL_ADDRESS=to)
    site, _ = crowd.serve(url, tmp / "data-mail", worker=True, mail=True, env=env)
    try:
        port = int(site.wait_for(r"Mail intake: SMTP on \S+:(\d+)").group(1))
        each = -(-args.mails // args.mail_players)
        mails = crowd.order_mails(creds, crowd.home_units(url), args.mail_players, each, to)[:args.mails]
        ids = {str(m["Message-ID"]) for m in mails}
        started = time.monotonic()
        crowd.send_all(port, mails, args.mail_connections)
        taken = time.monotonic() - started
        last = relay.wait(ids, timeout=600)
    finally:
        site.stop()
        relay.stop()
    done = len(ids & relay.answered.keys())
    res = {"mails": len(mails), "players": args.mail_players, "answered": done,
           "all_taken_s": round(taken, 1), "all_answered_s": round(last - started, 1) if last else None,
           "per_second": round(len(mails) / (last - started), 1) if last else None}
    print(f"mail: {len(mails)} order mails from {args.mail_players} players: all taken by SMTP in {res['all_taken_s']} s,"
          f" {done} answered, the last {res['all_answered_s']} s after the first was sent", flush=True)
    return res


def _workers(url: str, n: int) -> dict:
    started = time.monotonic()
    procs = [crowd.Process(["worker", "--once"], crowd.environment(url)) for _ in range(n)]
    for p in procs:
        p.proc.wait(timeout=3600)
    wall = time.monotonic() - started
    for p in procs:
        p.finish()
    done = [line for p in procs for line in p.out if " adjudicated" in line]
    # the same command again, with nothing left due: what starting a worker and one empty pass cost
    started = time.monotonic()
    crowd.Process(["worker", "--once"], crowd.environment(url)).finish()
    idle = time.monotonic() - started
    return {"workers": n, "adjudicated": len(done), "wall_s": round(wall, 2), "start_up_s": round(idle, 2),
            "working_s": round(max(wall - idle, 0.0), 2), "exit": [p.proc.returncode for p in procs]}


def deadline(args: argparse.Namespace, tmp: Path) -> dict:
    res: dict = {"games": args.due, "sqlite": None, "postgresql": []}
    # SQLite: one worker (a second process on one SQLite file only waits for the first)
    path = tmp / "due.db"
    t = time.monotonic()
    crowd.make_games(f"sqlite:///{path}", args.due, "due", due=True)
    print(f"deadline: {args.due} due games made on SQLite in {time.monotonic() - t:.0f} s", flush=True)
    res["sqlite"] = _workers(f"sqlite:///{path}", 1)
    r = res["sqlite"]
    print(f"  SQLite, 1 worker: {r['adjudicated']} games adjudicated in {r['wall_s']} s, "
          f"{r['working_s']} s after the {r['start_up_s']} s a worker takes to start", flush=True)
    # PostgreSQL: the due games made once, each run on a copy
    base = PostgresDatabase(prefix="gm_bench_due")
    admin = create_engine(server_url(), isolation_level="AUTOCOMMIT")
    copies = []
    try:
        url = base.url.replace("postgresql+psycopg://", "postgresql://", 1)
        t = time.monotonic()
        crowd.make_games(url, args.due, "due", due=True)
        print(f"deadline: {args.due} due games made on PostgreSQL in {time.monotonic() - t:.0f} s", flush=True)
        base._engine.dispose()
        for n in args.workers:
            name = f"{base.name}_w{n}"
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{base.name}"'))
            copies.append(name)
            r = _workers(url.rsplit("/", 1)[0] + "/" + name, n)
            res["postgresql"].append(r)
            print(f"  PostgreSQL, {n} worker(s): {r['adjudicated']} games adjudicated in {r['wall_s']} s, "
                  f"{r['working_s']} s after the {r['start_up_s']} s a worker takes to start", flush=True)
    finally:
        with admin.connect() as conn:
            for name in copies:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
        base.drop()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default=",".join(SCENARIOS), help="which to run (default all)")
    ap.add_argument("--players", type=int, default=300, help="simulated web players (default 300)")
    ap.add_argument("--games", type=int, default=50, help="games they play in (default 50)")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of each web run (default 60)")
    ap.add_argument("--think", type=float, default=0.2, help="a player waits 0 to this many seconds (default 0.2)")
    ap.add_argument("--threads", type=int, default=None, help="serve's --threads (default: serve's own)")
    ap.add_argument("--web-processes", type=int, default=2, help="web processes: serve's --web-processes on SQLite, serves on PostgreSQL (default 2)")
    ap.add_argument("--mails", type=int, default=1000, help="order mails sent (default 1000)")
    ap.add_argument("--mail-players", type=int, default=100, help="players sending them (default 100)")
    ap.add_argument("--mail-connections", type=int, default=10, help="SMTP connections at once (default 10)")
    ap.add_argument("--due", type=int, default=1000, help="games due at once (default 1000)")
    ap.add_argument("--workers", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4],
                    help="numbers of workers on PostgreSQL (default 1,2,4)")
    args = ap.parse_args()
    chosen = [s.strip() for s in args.scenario.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        ap.error(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(SCENARIOS)}")
    report: dict = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                "platform": platform.platform()},
                    "args": {k: v for k, v in vars(args).items()}, "at": datetime.now(timezone.utc).isoformat()}
    runs = {"web-sqlite": web_sqlite, "web-pg": web_pg, "mail": mail, "deadline": deadline}
    tmp = Path(tempfile.mkdtemp(prefix="gm-load-"))
    try:
        for name in chosen:
            report[name] = runs[name](args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "latest.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
