"""The site under the abuse of issue 23 (not a test): figures before and after its bounds.

    .venv/bin/python bench/site/bench_site.py                 # every scenario
    .venv/bin/python bench/site/bench_site.py --scenario maps

Scenarios:
  maps    one anonymous client asks map.png at 60 distinct widths (8 at a time) while another reads the
          game's JSON once every 20 ms: the reader's median and max latency, and the drawer's answers
  badge   the notification badge's cost (one poll of /account/notifications.json) with 40 and 440 games
          on the site, the account holding a seat in one of them
  links   "send me a link" for a known and an unknown address, 200 times each, alternating: the medians
  slow    400 connections sending their request a byte at a time: how many are still open after 5 to 40 s
  import  `gamesmaster import` of a 26 MB saved game and of 100,000-deep JSON: time, peak memory, the answer

The site runs on uvicorn on loopback, on SQLite in a temporary directory. Prints the figures and writes
bench/site/results/latest.json (not committed).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from sitetools import open_site, serving, seven_player_game  # noqa: E402

from gamesmaster.store.accounts import AccountRecords  # noqa: E402
from gamesmaster.store.testing import FakeClock  # noqa: E402

GM_CREDENTIAL = "gm.bench-credential-0123456789"
PLAYERS = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
           "RUSSIA": "Fay", "TURKEY": "Gus"}


def _ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values) * 1000, 2), "max_ms": round(max(values) * 1000, 2),
            "count": len(values)}


def maps(tmp: Path) -> dict:
    """One client draws 60 widths; another reads the game meanwhile."""
    gm, app, store = open_site(tmp, FakeClock(), GM_CREDENTIAL)
    seven_player_game(gm, PLAYERS)
    reads: list[float] = []
    answers: dict[int, int] = {}
    with serving(app) as base:
        with httpx.Client(base_url=base, timeout=120) as reader:
            reader.get("/api/games/club")
            quiet = []
            for _ in range(20):
                t = time.perf_counter()
                reader.get("/api/games/club")
                quiet.append(time.perf_counter() - t)
            done = threading.Event()

            def ask(drawer: httpx.Client, width: int) -> int:
                try:
                    return drawer.get(f"/games/club/map.png?width={width}").status_code
                except httpx.HTTPError:
                    return 0  # the connection dropped

            def draw() -> None:
                try:
                    with httpx.Client(base_url=base, timeout=120) as drawer, ThreadPoolExecutor(8) as pool:
                        for code in pool.map(lambda w: ask(drawer, w), range(200, 2400, 37)):
                            answers[code] = answers.get(code, 0) + 1
                finally:
                    done.set()

            started = time.perf_counter()
            threading.Thread(target=draw, daemon=True).start()
            while not done.is_set():
                t = time.perf_counter()
                reader.get("/api/games/club")
                reads.append(time.perf_counter() - t)
                time.sleep(0.02)
            drawing = time.perf_counter() - started
    store.dispose()
    return {"quiet": _ms(quiet), "while_drawing": _ms(reads), "drawer_answers": answers,
            "drawing_seconds": round(drawing, 1)}


def badge(tmp: Path) -> dict:
    """The badge's poll with 40 and 440 games on the site."""
    sys.path.insert(0, str(ROOT / "tests" / "mail"))
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    sys.path.insert(0, str(ROOT / "tests" / "accounts"))
    from accounttools import Site

    out = {}
    site = Site(tmp)
    try:
        c = site.sign_up("ann@players.test", "Ann")
        made = 0
        for total in (40, 440):
            while made < total:
                site.gm.setup.create_game(f"g{made}", players=list(PLAYERS.values()),
                                    assign={n: p for p, n in PLAYERS.items()})
                made += 1
            created = site.gm.setup.create_game(f"mine{total}", players=list(PLAYERS.values()),
                                          assign={n: p for p, n in PLAYERS.items()})
            with site.gm.desk.reading() as rec:
                account = AccountRecords(rec.conn).by_email("ann@players.test")
            site.gm.joining.claim_seat(f"mine{total}", next(iter(created.credentials.values())), account.id)
            c.get("/account/notifications.json")
            polls, pages = [], []
            for _ in range(20):
                t = time.perf_counter()
                c.get("/account/notifications.json")
                polls.append(time.perf_counter() - t)
            for _ in range(5):
                t = time.perf_counter()
                c.get("/account")
                pages.append(time.perf_counter() - t)
            out[f"{total}_games"] = {"poll": _ms(polls), "account_page": _ms(pages)}
    finally:
        site.stop()
    return out


def links(tmp: Path) -> dict:
    """'Send me a link' for a known and an unknown address."""
    sys.path.insert(0, str(ROOT / "tests" / "mail"))
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    sys.path.insert(0, str(ROOT / "tests" / "accounts"))
    from accounttools import Site
    from sitetools import csrf

    site = Site(tmp)
    try:
        site.sign_up("ann@players.test", "Ann")
        site.app.state.link_limits.burst = site.app.state.link_limits.rate = 1e9  # measure the work, not the limit
        site.gm.accounts.link_limits.by_address.burst = site.gm.accounts.link_limits.by_address.rate = 1e9
        c = site.client()
        token = csrf(c, "/account")
        times: dict[str, list[float]] = {"known": [], "unknown": []}
        for i in range(200):
            for kind, address in (("known", "ann@players.test"), ("unknown", f"nobody{i}@players.test")):
                t = time.perf_counter()
                c.post("/account/send-link", data={"email": address, "csrf_token": token})
                times[kind].append(time.perf_counter() - t)
        return {k: _ms(v) for k, v in times.items()}
    finally:
        site.stop()


def slow(tmp: Path) -> dict:
    """400 connections that send their request a byte a second, against the site's own server (serve's)."""
    import socket

    from gamesmaster.serving import site as serving_site
    from gamesmaster.serving.site import bind, site_server

    gm, app, store = open_site(tmp, FakeClock(), GM_CREDENTIAL)
    sock = bind("127.0.0.1", 0)
    server = site_server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = sock.getsockname()[1]
    conns = []
    for _ in range(400):
        c = socket.create_connection(("127.0.0.1", port))
        c.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        c.settimeout(0.001)
        conns.append(c)
    started, held = time.monotonic(), {}
    for mark in (5, 10, 15, 20, 25, 30, 40):
        while time.monotonic() - started < mark:
            time.sleep(0.5)
        open_ = 0
        for c in conns:
            try:
                c.sendall(b"x")
                if c.recv(1) != b"":
                    open_ += 1
            except socket.timeout:
                open_ += 1
            except OSError:
                pass
        held[f"{mark}s"] = open_
    for c in conns:
        c.close()
    server.should_exit = True
    thread.join(10)
    store.dispose()
    return {"request_seconds": getattr(serving_site, "REQUEST_SECONDS", None), "connections": len(conns),
            "still_open": held}


def imports(tmp: Path) -> dict:
    """`gamesmaster import` of a 26 MB saved game and of 100,000-deep JSON: time, peak memory, what it says."""
    import resource
    import subprocess

    big = tmp / "big.json"
    with open(big, "w") as f:
        f.write('{"id": "big", "map": "standard", "rules": [], "phases": [')
        f.write(",".join('{"name": "S1901M", "state": {}, "orders": {}, "results": {}, "messages": [%s]}'
                         % ",".join('{"sender": "FRANCE", "recipient": "GLOBAL", "message": "%s", "time_sent": 1}'
                                    % ("x" * 200) for _ in range(100)) for _ in range(1_000)))
        f.write("]}")
    deep = tmp / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    out = {"big_file_mb": round(big.stat().st_size / 2 ** 20, 1)}
    for name, path in (("deep", deep), ("big", big)):  # the smaller first: the peak is of all children so far
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "gamesmaster.cli", "import", str(path), "--db",
                            f"sqlite:///{tmp / 'gm.db'}"], capture_output=True, text=True, timeout=600)
        out[name] = {"seconds": round(time.perf_counter() - t, 2), "exit": r.returncode,
                     "peak_mb_children": round(max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
                                               / 1024, 1),
                     "said": (r.stderr or r.stdout).strip().splitlines()[-1][:200] if (r.stderr or r.stdout) else "",
                     "lines": len((r.stderr or "").strip().splitlines())}
    return out


SCENARIOS = {"maps": maps, "badge": badge, "links": links, "slow": slow, "import": imports}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", default=",".join(SCENARIOS))
    args = parser.parse_args()
    results = {}
    for name in args.scenario.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            results[name] = SCENARIOS[name](Path(tmp))
        print(name, json.dumps(results[name], indent=1), flush=True)
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "latest.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
