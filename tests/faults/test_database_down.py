"""The database goes away during submissions: a private PostgreSQL cluster (initdb + pg_ctl, as the
postgres OS user, on a free port in a temporary directory; the machine's shared server is never
touched) is stopped while players submit through a running web process. Each player gets a clear
503 answer, nothing is half-written, and service resumes when the database returns."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store

from deploy.procs import call, web

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster of this test's own."""

    def __init__(self) -> None:
        self.initdb, self.pg_ctl = _bin("initdb"), _bin("pg_ctl")
        if not (self.initdb and self.pg_ctl):
            pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)")
        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("there is no postgres OS user to run a private cluster as")
        if os.geteuid() != 0 and os.geteuid() != pw.pw_uid:
            pytest.skip("a private cluster needs root (to run as postgres) or the postgres user")
        self.as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.dir = Path(tempfile.mkdtemp(prefix="gm-pg-"))
        os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.data = self.dir / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._run([self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        self.start()

    def _run(self, argv: list[str]) -> None:
        r = subprocess.run(self.as_pg + argv, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise AssertionError(f"{' '.join(argv)}: {r.stdout}\n{r.stderr}")

    def start(self) -> None:
        self._run([self.pg_ctl, "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60", "-o",
                   f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])

    def stop(self, mode: str = "immediate") -> None:
        self._run([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"])

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        except AssertionError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def cluster():
    c = Cluster()
    yield c
    c.destroy()


def test_the_database_goes_away_during_submissions_and_comes_back(cluster, tmp_path):
    store = Store(cluster.url)
    gm = Gamesmaster(store)
    c = gm.setup.create_game("down", players=NAMES, seed=2)
    creds = {c.powers[n]: s for n, s in c.credentials.items()}
    units = gm.games.game("down").position.to_dict()["units"]
    store.dispose()
    proc, base = web(cluster.url, tmp_path / "data")
    answers: list[tuple[str, int, object]] = []
    stop = threading.Event()

    def hammer(power: str) -> None:
        while not stop.is_set():
            status, body = call("POST", f"{base}/api/games/down/powers/{power.lower()}/orders",
                                {"orders": [f"{u} H" for u in units[power]]}, creds[power], timeout=60)
            answers.append((power, status, body))
            time.sleep(0.05)

    try:
        threads = [threading.Thread(target=hammer, args=(p,)) for p in sorted(creds)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        cluster.stop("immediate")  # the database goes away mid-stream
        time.sleep(2.0)
        down = len(answers)
        status, body = call("POST", f"{base}/api/games/down/powers/france/orders", {"orders": "A Par H"},
                            creds["FRANCE"], timeout=60)
        assert status == 503 and "database is not available" in body["detail"], (status, body)
        status, body = call("GET", f"{base}/api/games/down", timeout=60)
        assert status == 503, (status, body)
        cluster.start()  # and it comes back
        time.sleep(2.0)
        stop.set()
        for t in threads:
            t.join(timeout=90)
        status, body = call("POST", f"{base}/api/games/down/powers/france/orders", {"orders": "A Par-Bur"},
                            creds["FRANCE"], timeout=60)
        assert status == 200, (status, body)
        receipt = body["receipt"]
    finally:
        stop.set()
        proc.stop()
    statuses = {s for _, s, _ in answers}
    assert statuses <= {200, 503}, [a for a in answers if a[1] not in (200, 503)][:3]  # never a 500
    assert 503 in statuses and 200 in statuses and len(answers) > down
    assert all("database is not available" in b["detail"] for _, s, b in answers if s == 503)
    acked = [b["receipt"] for _, s, b in answers if s == 200] + [receipt]
    store = Store(cluster.url)
    try:
        gm = Gamesmaster(store)
        report = gm.record.verify("down", receipts=acked)
        assert report.ok, report.problems
        assert [r.orders for r in gm.orders.orders_on_record("down", "FRANCE", by_gm=True)] == [("A Par-Bur",)]
    finally:
        store.dispose()
