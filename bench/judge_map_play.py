#!/usr/bin/env python3
"""Play seeded random games on one judges' map with the `diplomacy` package (1.1.2) and write every phase.

Run by the package's own interpreter (bench/.venv-diplomacy, or the tests' venv); it
imports nothing from gamesmaster:

    python judge_map_play.py MAP... [--games N] [--phases N] [--seed S] [--no-via]  >  phases.jsonl

MAP is a map name the package ships (`ancmed`) or a path to a .map file; several may be
given, to pay the package's start-up once. One JSON line per phase played, with `map`
(as given), with the board before (`units`, `dislodged`, `centers`), the `orders` given
(the package's string form), the board after (`after_units`, `after_dislodged`,
`after_centers`, `after_phase`) and `us`, the wall-clock microseconds of `process()`.

Orders are drawn from the package's possible orders, one per orderable unit (a random
choice for each); builds up to the allowance and removals as owed are drawn the same way,
so neither engine's civil-disorder rule is needed. Dummy powers are given no orders.
With --no-via, convoyed moves (`VIA`) are not drawn: the package moves such an army over
land when no fleet convoys it, a known difference (bench/README.md, "Outcome agreement").
"""

import argparse
import json
import os
import random
import sys
import time

from diplomacy import Game


def board(game):
    """Units (dislodged apart), dislodged units and centres, by power."""
    units, dislodged, centers = {}, {}, {}
    for name, power in game.powers.items():
        units[name] = sorted(power.units)
        dislodged[name] = sorted(power.retreats)
        centers[name] = sorted(power.centers)
    return units, dislodged, centers


def draw(game, rng, no_via):
    """Random orders for every orderable unit of every power that is played."""
    possible = game.get_all_possible_orders()
    dummies = set(game.map.dummies)
    orders = {}
    for name in sorted(game.powers):
        if name in dummies:
            continue
        locs = sorted(game.get_orderable_locations(name))
        chosen = []
        if game.phase_type == "A":
            power = game.get_power(name)
            count = len(power.centers) - len(power.units)
            if count > 0:
                for loc in rng.sample(locs, min(count, len(locs))):
                    options = sorted(o for o in possible.get(loc, []) if o != "WAIVE")
                    if options:
                        chosen.append(rng.choice(options))
            elif count < 0:
                removals = sorted(o for loc in locs for o in possible.get(loc, []) if o.endswith(" D"))
                chosen = rng.sample(removals, min(-count, len(removals)))
        else:
            for loc in locs:
                options = sorted(o for o in possible.get(loc, []) if not (no_via and o.endswith(" VIA")))
                if options:
                    chosen.append(rng.choice(options))
        if chosen:
            orders[name] = chosen
    return orders


def play(map_arg, map_name, game_index, seed, phases, no_via, out):
    """One game: up to `phases` phases, each written as a line."""
    rng = random.Random(f"{seed}:{game_index}")
    game = Game(map_name=map_name)
    for _ in range(phases):
        if game.is_game_done:
            break
        phase = game.get_current_phase()
        units, dislodged, centers = board(game)
        orders = draw(game, rng, no_via)
        for name, power_orders in orders.items():
            game.set_orders(name, power_orders)
        start = time.perf_counter_ns()
        game.process()
        took = (time.perf_counter_ns() - start) / 1000.0
        after_units, after_dislodged, after_centers = board(game)
        out.write(json.dumps({
            "map": map_arg, "game": game_index, "phase": phase, "units": units, "dislodged": dislodged, "centers": centers,
            "orders": orders, "after_phase": game.get_current_phase(), "after_units": after_units,
            "after_dislodged": after_dislodged, "after_centers": after_centers, "us": took}) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="+", metavar="MAP")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--phases", type=int, default=6)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--no-via", action="store_true")
    args = ap.parse_args(argv)
    for map_arg in args.maps:
        name = os.path.abspath(map_arg) if map_arg.endswith(".map") else map_arg
        for index in range(args.games):
            play(map_arg, name, index, args.seed, args.phases, args.no_via, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
