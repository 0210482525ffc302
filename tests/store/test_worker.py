"""Deadline workers as real processes: never a phase twice, and a kill -9 midway leaves it undone.

The test hook GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT makes a worker sleep inside the
adjudication transaction after writing the results and before the commit (touching
GAMESMASTER_TEST_PAUSE_FILE first, so the test knows when to strike).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from gamesmaster.gm import Gamesmaster
from gamesmaster.gm.adjudicating import PAUSE_ENV, PAUSE_FILE_ENV
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def due_games(url: str, n: int) -> list[str]:
    """n games whose Spring 1901 deadline passed days ago (created on a clock in the past)."""
    store = Store(url)
    gm = Gamesmaster(store, FakeClock(datetime.now(timezone.utc) - timedelta(days=10)))
    ids = []
    for i in range(n):
        gid = f"w{i}"
        c = gm.setup.create_game(gid, players=NAMES, seed=i)
        power = c.powers["Ann"]
        units = gm.games.game(gid).position.to_dict()["units"][power]
        gm.orders.submit_orders(gid, power, "\n".join(f"{u} H" for u in units), credential=c.credentials["Ann"])
        ids.append(gid)
    store.dispose()
    return ids


def worker(url: str, tmp_path: Path, pause: float | None = None, name: str = "w") -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in (PAUSE_ENV, PAUSE_FILE_ENV)}
    if pause is not None:
        env[PAUSE_ENV] = str(pause)
        env[PAUSE_FILE_ENV] = str(tmp_path / f"{name}.paused")
    return subprocess.Popen([sys.executable, "-m", "gamesmaster.cli", "worker", "--db", url, "--once"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            pytest.fail(f"the worker exited early: {proc.communicate()}")
        if time.monotonic() > end:
            proc.kill()
            pytest.fail("the worker never reached the pause inside its transaction")
        time.sleep(0.05)


def counts(url: str, game: str) -> dict[str, int]:
    store = Store(url, migrate=False)
    with store.connect(write=False) as conn:
        kinds = [r[0] for r in conn.execute(text("SELECT kind FROM gm_ledger WHERE game_id=:g"), {"g": game})]
        phases = conn.execute(text("SELECT count(*) FROM gm_phases WHERE game_id=:g"), {"g": game}).scalar_one()
        phase = conn.execute(text("SELECT phase FROM gm_games WHERE id=:g"), {"g": game}).scalar_one()
    store.dispose()
    return {"adjudicated": kinds.count("phase-adjudicated"), "closed": kinds.count("deadline-closed"),
            "phases": phases, "spring": int(phase == "S1901M")}


def verified(url: str, game: str) -> bool:
    store = Store(url, migrate=False)
    try:
        report = Gamesmaster(store).record.verify(game)
        assert report.ok, report.problems
        return True
    finally:
        store.dispose()


def test_several_workers_never_adjudicate_a_phase_twice(tmp_path, url_for):
    url = url_for("postgresql")
    games = due_games(url, 6)
    procs = [worker(url, tmp_path, pause=0.4, name=f"w{i}") for i in range(3)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    lines = [line for out, _ in outputs for line in out.splitlines() if "adjudicated" in line]
    assert sorted(lines) == sorted(f"{g}: S1901M adjudicated, next F1901M; civil disorder: "
                                   + ", ".join(sorted(set(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA",
                                                           "TURKEY"]) - {_ann(url, g)})) for g in games)
    assert sum(1 for out, _ in outputs if out.strip()) >= 2  # the work was shared
    for g in games:
        assert counts(url, g) == {"adjudicated": 1, "closed": 1, "phases": 1, "spring": 0}
        assert verified(url, g)


def _ann(url: str, game: str) -> str:
    store = Store(url, migrate=False)
    try:
        return next(s.power for s in Gamesmaster(store).games.game(game).seats if s.name == "Ann")
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_killed_worker_leaves_the_phase_undone(kind, tmp_path, url_for):
    url = url_for(kind)
    [game] = due_games(url, 1)
    first = worker(url, tmp_path, pause=120, name="first")
    wait_for(tmp_path / "first.paused", first)
    if kind == "postgresql":
        # while the first holds the game, another worker skips it rather than do it twice
        second = worker(url, tmp_path)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 0 and out.strip() == "", (out, err)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    assert counts(url, game) == {"adjudicated": 0, "closed": 0, "phases": 0, "spring": 1}
    assert verified(url, game)
    third = worker(url, tmp_path)
    out, err = third.communicate(timeout=60)
    assert third.returncode == 0, err
    assert f"{game}: S1901M adjudicated" in out
    assert counts(url, game) == {"adjudicated": 1, "closed": 1, "phases": 1, "spring": 0}
    assert verified(url, game)
