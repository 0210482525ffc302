"""The engine is deterministic: the same phase gives the same answer in every process.

Python salts string hashes per process, so anything the engine takes from a set's
iteration order can differ between two runs of the same game (a judge and a bot, the
web process and the worker). Two interpreters with different hash seeds adjudicate the
same random games and must print the same thing, down to the order of every list.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from test_properties import random_orders, VARIANT
from gamesmaster.rules import Position, adjudicate

for seed in range(40):
    rng = random.Random(seed)
    position = Position.initial(VARIANT)
    for _ in range(8):
        result = adjudicate(position, random_orders(position, rng))
        print(position.phase, [(o.power, o.text, o.result, o.reason) for o in result.outcomes])
        print("  dislodged", [(str(d.unit), d.attacker, [str(r) for r in d.retreats or ()]) for d in result.dislodged])
        print("  next", result.next.phase, list(map(str, result.next.units.values())),
              [(str(d.unit), [str(r) for r in d.retreats or ()]) for d in result.next.dislodged],
              sorted(result.next.standoffs), result.winner, result.removed)
        position = result.next
"""


def run_with_hash_seed(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    here = str(Path(__file__).parent)
    done = subprocess.run([sys.executable, "-c", SCRIPT, here], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_same_games_come_out_the_same_whatever_the_hash_seed() -> None:
    first, second = run_with_hash_seed("1"), run_with_hash_seed("2")
    assert first.count("\n") >= 40 * 8 * 3
    assert first == second
