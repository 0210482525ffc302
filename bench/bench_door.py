#!/usr/bin/env python3
"""Benchmark: the whole machine door against the `diplomacy` package's bare process().

One `gamesmaster adjudicate --lines` process reads the 2,000 recorded movement phases
(bench/data/phases2000.jsonl.gz, made by make_phases.py) as JSON lines and writes one
result per line: its time is the process's, from start to exit, so start-up, imports,
reading JSON, reading the orders as text, adjudicating, wording every reason and
writing JSON are all on the clock. Against it, the diplomacy package's
`Game.process()` on the same phases: a fresh `Game` is built from each phase's state
and its orders are set off the clock, and only `process()` is timed (garbage collector
off during the call, as in bench_adjudicate.py); the figure is the sum over the phases.

The machine is shared, so the two are timed in rounds that alternate (door, package,
door, package...) and each round gives a ratio; the report gives every round, the
median and the range. The door's child CPU time is reported beside its wall time.

Run it with the benchmark virtualenv (see README.md):

    bench/.venv-diplomacy/bin/python bench/bench_door.py
"""

from __future__ import annotations

import argparse
import compileall
import gc
import gzip
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCHEMA = ("variant", "rules", "phase", "units", "centers", "orders")


def read_phases(path: Path, limit: int | None) -> list[dict[str, Any]]:
    """The recorded phases (plain or gzipped JSON lines)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line, _ in zip(fh, range(limit if limit else 1 << 62))]


def door_command() -> list[str]:
    """The gamesmaster command of this interpreter's environment (the script pip installed, or -m)."""
    script = Path(sys.executable).with_name("gamesmaster")
    if script.exists():
        return [str(script), "adjudicate", "--lines"]
    return [sys.executable, "-m", "gamesmaster.cli", "adjudicate", "--lines"]


def run_door(command: list[str], source: Path, sink: Path) -> tuple[float, float]:
    """Run the door over the file: (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(source, "rb") as stdin, open(sink, "wb") as stdout:
        t0 = time.perf_counter()
        subprocess.run(command, stdin=stdin, stdout=stdout, check=True)
        wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_package(phases: list[dict[str, Any]]) -> float:
    """Seconds the diplomacy package's process() takes over the phases (each on a fresh game)."""
    from diplomacy import Game

    total = 0
    for doc in phases:
        game = Game()
        game.set_state({"name": doc["phase"], "units": {p: doc["units"].get(p, []) for p in game.powers},
                        "centers": {p: doc["centers"].get(p, []) for p in game.powers}})
        for power, orders in doc["orders"].items():
            game.set_orders(power, orders)
        gc.disable()
        t0 = time.perf_counter_ns()
        game.process()
        total += time.perf_counter_ns() - t0
        gc.enable()
    return total / 1e9


def check_output(sink: Path, phases: list[dict[str, Any]]) -> None:
    """Every phase answered, in order, with every order and no error."""
    with open(sink, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert len(lines) == len(phases), f"{len(lines)} answers for {len(phases)} phases"
    for line, doc in zip(lines, phases):
        out = json.loads(line)
        assert "error" not in out, out
        assert out["phase"] == doc["phase"]
        assert len(out["orders"]) == sum(map(len, doc["orders"].values()))


def spread(values: list[float]) -> dict[str, float]:
    """Median, least and greatest of a figure over the rounds."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=Path, default=HERE / "data" / "phases2000.jsonl.gz")
    ap.add_argument("--limit", type=int, default=2000, help="the first N phases (default 2000)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds of door and package (default 5)")
    ap.add_argument("--json", type=Path, default=HERE / "results" / "door.json", help="where to write the figures")
    args = ap.parse_args(argv)

    # The door is timed as an installed program runs: from bytecode. (pip compiles what it
    # installs; an editable install or PYTHONDONTWRITEBYTECODE would leave the sources to be
    # compiled at every start.)
    import gamesmaster

    compileall.compile_dir(Path(gamesmaster.__file__).parent, quiet=1)
    phases = read_phases(args.phases, args.limit)
    work = Path(tempfile.mkdtemp(prefix="gm-door-"))
    try:
        source, sink, empty = work / "in.jsonl", work / "out.jsonl", work / "empty.jsonl"
        with open(source, "w", encoding="utf-8") as fh:
            for doc in phases:
                fh.write(json.dumps({k: doc[k] for k in SCHEMA if k in doc}, separators=(",", ":")) + "\n")
        empty.write_text("")
        command = door_command()
        orders = sum(len(o) for doc in phases for o in doc["orders"].values())
        print(f"{len(phases)} movement phases, {orders} orders ({orders / len(phases):.1f} a phase); "
              f"door: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(command))}")
        run_door(command, source, sink)  # once untimed: the page cache and .pyc files are warm for every round
        check_output(sink, phases)
        rounds = []
        for n in range(args.rounds):
            wall, cpu = run_door(command, source, sink)
            package = run_package(phases)
            start, _ = run_door(command, empty, sink)
            rounds.append({"door_s": wall, "door_cpu_s": cpu, "package_s": package, "ratio": package / wall,
                           "startup_s": start})
            print(f"round {n + 1}: door {wall:6.3f} s (CPU {cpu:6.3f} s; start-up alone {start * 1000:5.0f} ms), "
                  f"package process() {package:6.3f} s: {package / wall:5.2f}x")
        figures = {key: spread([r[key] for r in rounds]) for key in rounds[0]}
        per_phase = {k: spread([r[k] / len(phases) * 1e6 for r in rounds]) for k in ("door_s", "package_s")}
        ratio = figures["ratio"]
        print(f"door per phase (all in): median {per_phase['door_s']['median']:.0f} us "
              f"({per_phase['door_s']['min']:.0f}-{per_phase['door_s']['max']:.0f})")
        print(f"package process() per phase: median {per_phase['package_s']['median']:.0f} us "
              f"({per_phase['package_s']['min']:.0f}-{per_phase['package_s']['max']:.0f})")
        print(f"ratio package / door: median {ratio['median']:.2f}x over {args.rounds} rounds "
              f"({ratio['min']:.2f}x-{ratio['max']:.2f}x); target >= 10x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {"phases": len(phases), "orders": orders, "rounds": rounds, "figures": figures,
              "per_phase_us": per_phase, "python": platform.python_version(),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load": os.getloadavg()}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
