#!/usr/bin/env python3
"""Make the benchmark's movement phases with the `diplomacy` package (PyPI, 1.1.2).

Plays seeded random legal games with the diplomacy package and, for every
MOVEMENT phase, writes one JSON line in the `gamesmaster adjudicate` input
schema, plus what the diplomacy package made of it:

    {"variant": "standard", "rules": "2023", "phase": "S1901M",
     "units":   {"ENGLAND": ["F LON", ...], ...},
     "centers": {"ENGLAND": ["EDI", ...], ...},
     "orders":  {"ENGLAND": ["F LON - NTH", ...], ...},
     "diplomacy_results": {"ENGLAND": [["bounce"], [], ...], ...},
     "diplomacy_us": 812.4, "diplomacy_reps": 15, "game": 0}

* units / centers: as the diplomacy package writes them (uppercase ids,
  "F STP/SC"); powers without units (or centres) are left out.
* orders: exactly the diplomacy package's string form (what `Game.get_orders()`
  returns after `set_orders`), one per unit, every unit ordered.
* diplomacy_results: per power, aligned with "orders": the package's result
  codes for that order's unit in this phase ([] = success; "bounce", "cut",
  "void", "dislodged", "no convoy", "disrupted", ...).
* diplomacy_after: the units on the board after the package processed the
  phase (dislodged units left out), by power, sorted.
* diplomacy_us: median wall-clock microseconds of `Game.process()` on this
  exact phase.  Before each timed call a fresh `Game()` is built from the
  phase's saved state (`set_state`) and the orders are set (`set_orders`), so
  only `process()` itself is on the clock (garbage collection is off during
  the timed call, as in bench_adjudicate.py).  The first rebuilt game's results
  are checked against the results of the game as it was played.

Order policy (seeded): each unit gets a random category first (move 50%,
support 30%, hold 10%, convoy 10% where possible; an army with convoy routes
goes by convoy a third of the time it moves); moves and holds are drawn first,
a move preferring (half the time) an attack: a space held by another power or
a centre the power does not own; a holding or supporting fleet that could
convoy a drawn convoyed move joins it half the time; then fleets pick (80% of
the time) a convoy that matches an army's convoyed move and supports pick
(80%) a support that matches an order already drawn; otherwise any possible
order of the category is drawn.  Retreats and
adjustments are random (builds up to the allowance; removals left to the
package's civil-disorder rule).

Run it with the diplomacy virtualenv (see README.md):

    bench/.venv-diplomacy/bin/python bench/make_phases.py
    bench/.venv-diplomacy/bin/python bench/make_phases.py --games 100 --seed 2025 --reps 3 \
        --max-seconds 1500 --out bench/data/phases2000.jsonl.gz     # the door's 2,000 phases
"""

from __future__ import annotations

import argparse
import copy
import gc
import gzip
import io
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from diplomacy import Game  # the diplomacy package, 1.1.2

HERE = Path(__file__).resolve().parent

MOVE_WEIGHTS = {"move": 0.50, "support": 0.30, "hold": 0.10, "convoy": 0.10}
ATTACK_PROBABILITY = 0.5  # a move prefers a destination held by another power or a centre it does not own
MATCH_PROBABILITY = 0.8  # a support / convoy prefers one that matches an order already drawn
VIA_PROBABILITY = 1 / 3  # an army with convoy routes goes by convoy this often when it moves
JOIN_CONVOY_PROBABILITY = 0.5  # a holding / supporting fleet that could convoy a drawn convoyed move does


def category(order: str) -> str:
    words = order.split()
    if len(words) < 3:
        return "other"
    verb = words[2]
    if verb == "H":
        return "hold"
    if verb == "-":
        return "via" if words[-1] == "VIA" else "move"
    if verb == "S":
        return "support"
    if verb == "C":
        return "convoy"
    return "other"


def choose_movement_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """One order per unit for every power, biased towards moves and supports."""
    possible = game.get_all_possible_orders()
    # (power, location) -> {category: [orders]}, in a fixed order.
    slots: list[tuple[str, str, dict[str, list[str]]]] = []
    for power_name in sorted(game.powers):
        for loc in sorted(game.get_orderable_locations(power_name)):
            options = sorted(possible.get(loc) or [])
            if not options:
                continue
            by_cat: dict[str, list[str]] = {}
            for order in options:
                by_cat.setdefault(category(order), []).append(order)
            slots.append((power_name, loc, by_cat))

    chosen: dict[tuple[str, str], str] = {}
    plan: dict[tuple[str, str], str] = {}
    for power_name, loc, by_cat in slots:
        cats = [c for c in MOVE_WEIGHTS if by_cat.get(c) or (c == "move" and by_cat.get("via"))]
        cat = rng.choices(cats, weights=[MOVE_WEIGHTS[c] for c in cats])[0]
        plan[(power_name, loc)] = cat

    # Who is where, who owns what: for the attack bias.
    occupant = {}
    for power_name in game.powers:
        for unit in game.get_power(power_name).units:
            occupant[unit.split()[1][:3]] = power_name
    owned = {power_name: set(game.get_power(power_name).centers) for power_name in game.powers}
    centres = set(game.map.scs)

    def is_attack(power_name: str, order: str) -> bool:
        dest = order.split()[3][:3]
        holder = occupant.get(dest)
        if holder is not None:
            return holder != power_name
        return dest in centres and dest not in owned[power_name]

    # First pass: moves and holds (what supports and convoys can match).
    for power_name, loc, by_cat in slots:
        cat = plan[(power_name, loc)]
        if cat == "move":
            if by_cat.get("via") and (not by_cat.get("move") or rng.random() < VIA_PROBABILITY):
                options = by_cat["via"]
            else:
                options = by_cat["move"]
            attacks = [o for o in options if is_attack(power_name, o)]
            if attacks and rng.random() < ATTACK_PROBABILITY:
                options = attacks
            chosen[(power_name, loc)] = rng.choice(options)
        elif cat == "hold":
            chosen[(power_name, loc)] = rng.choice(by_cat["hold"])

    # Second pass: convoys matching a convoyed move, then supports matching an order.
    def unit_of(order: str) -> str:
        return " ".join(order.split()[:2])

    def first_pass_orders() -> dict[str, str]:
        return {unit_of(o): o for o in chosen.values()}

    # Fleets that could convoy a drawn convoyed move may join in.
    via_moves = {" ".join(o.split()[:4]) for o in chosen.values() if category(o) == "via"}
    for power_name, loc, by_cat in slots:
        if plan[(power_name, loc)] in ("hold", "support") and by_cat.get("convoy"):
            if any(" ".join(o.split()[3:7]) in via_moves for o in by_cat["convoy"]):
                if rng.random() < JOIN_CONVOY_PROBABILITY:
                    plan[(power_name, loc)] = "convoy"
                    chosen.pop((power_name, loc), None)

    for wanted in ("convoy", "support"):
        for power_name, loc, by_cat in slots:
            if plan[(power_name, loc)] != wanted:
                continue
            options = by_cat[wanted]
            by_unit = first_pass_orders()
            matching = []
            for order in options:
                words = order.split()
                target = " ".join(words[3:5])  # e.g. "A PAR"
                rest = words[5:]
                other = by_unit.get(target)
                if wanted == "convoy":
                    if other and category(other) == "via" and other.split()[2:4] == ["-"] + rest[1:2]:
                        matching.append(order)
                elif other is None:
                    continue
                elif not rest:  # support to hold: the other unit does not move
                    if category(other) not in ("move", "via"):
                        matching.append(order)
                elif category(other) in ("move", "via") and other.split()[3][:3] == rest[1][:3]:
                    matching.append(order)
            if matching and rng.random() < MATCH_PROBABILITY:
                chosen[(power_name, loc)] = rng.choice(matching)
            else:
                chosen[(power_name, loc)] = rng.choice(options)

    orders: dict[str, list[str]] = {}
    for power_name, loc, _ in slots:
        orders.setdefault(power_name, []).append(chosen[(power_name, loc)])
    return orders


def choose_other_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """Random retreat / adjustment orders."""
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power_name in sorted(game.powers):
        locs = sorted(game.get_orderable_locations(power_name))
        if not locs:
            continue
        if game.phase_type == "R":
            orders[power_name] = [rng.choice(sorted(possible[loc])) for loc in locs if possible.get(loc)]
        else:  # adjustments
            power = game.get_power(power_name)
            count = len(power.centers) - len(power.units)
            if count > 0:
                builds = []
                for loc in rng.sample(locs, min(count, len(locs))):
                    options = sorted(o for o in possible.get(loc, []) if o != "WAIVE")
                    if options:
                        builds.append(rng.choice(options))
                orders[power_name] = builds
            # count < 0: leave the removals to the package's civil-disorder rule.
    return orders


def results_to_words(results: dict, orders: dict[str, list[str]]) -> dict[str, list[list[str]]]:
    words: dict[str, list[list[str]]] = {}
    for power_name, power_orders in orders.items():
        words[power_name] = [
            [str(code) for code in results.get(" ".join(order.split()[:2]), [])] for order in power_orders
        ]
    return words


def rebuilt_game(state: dict, orders: dict[str, list[str]]) -> Game:
    game = Game()
    game.set_state(state)
    for power_name, power_orders in orders.items():
        game.set_orders(power_name, power_orders)
    return game


def time_process(state: dict, orders: dict[str, list[str]], reps: int) -> tuple[float, dict]:
    """Median microseconds of Game.process() on fresh copies of this phase."""
    samples = []
    first_results = None
    gc.collect()
    gc_was_enabled = gc.isenabled()
    try:
        for _ in range(reps):
            game = rebuilt_game(state, orders)
            gc.disable()
            t0 = time.perf_counter_ns()
            phase_data = game.process()
            t1 = time.perf_counter_ns()
            gc.enable()
            samples.append((t1 - t0) / 1000.0)
            if first_results is None:
                first_results = phase_data.results
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(samples), first_results


def same_results(a: dict, b: dict) -> bool:
    norm = lambda r: {unit: sorted(str(c) for c in codes) for unit, codes in r.items()}
    return norm(a) == norm(b)


def play_game(index: int, seed: int, years: int, reps: int, out, stats: dict, deadline: float) -> None:
    rng = random.Random(f"{seed}:{index}")
    game = Game()
    last_year = 1900 + years
    while not game.is_game_done:
        phase = game.get_current_phase()
        if int(phase[1:5]) > last_year or time.monotonic() > deadline:
            break
        if game.phase_type == "M":
            orders = choose_movement_orders(game, rng)
            for power_name, power_orders in orders.items():
                game.set_orders(power_name, power_orders)
            # The package's own normal form of the orders, per power, one per unit.
            orders = {p: game.get_orders(p) for p in sorted(game.powers) if game.get_orders(p)}
            state = game.get_state()
            median_us, rebuilt_results = time_process(copy.deepcopy(state), orders, reps)
            game.process()
            results = game.result_history[game.order_history.last_key()]
            after = {p: sorted(u for u in units if not u.startswith("*"))
                     for p, units in sorted(game.get_state()["units"].items())}
            if not same_results(results, rebuilt_results):
                stats["rebuild_mismatches"] += 1
                print(f"warning: game {index} {phase}: rebuilt game's results differ", file=sys.stderr)
            record = {
                "variant": "standard",
                "rules": "2023",
                "phase": phase,
                "units": {p: u for p, u in sorted(state["units"].items()) if u},
                "centers": {p: sorted(c) for p, c in sorted(state["centers"].items()) if c},
                "orders": orders,
                "diplomacy_results": results_to_words(results, orders),
                "diplomacy_after": {p: u for p, u in after.items() if u},
                "diplomacy_us": round(median_us, 1),
                "diplomacy_reps": reps,
                "game": index,
            }
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            stats["phases"] += 1
            stats["units"] += sum(len(u) for u in record["units"].values())
            stats["diplomacy_us"].append(median_us)
        else:
            for power_name, power_orders in choose_other_orders(game, rng).items():
                game.set_orders(power_name, power_orders)
            game.process()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="number of random games (default 20)")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10: 1901-1910)")
    ap.add_argument("--seed", type=int, default=2024, help="RNG seed (default 2024)")
    ap.add_argument("--reps", type=int, default=21, help="timed process() calls per phase (default 21)")
    ap.add_argument("--max-seconds", type=float, default=300, help="stop starting new phases after this (default 300)")
    ap.add_argument("--out", type=Path, default=HERE / "data" / "phases.jsonl")
    args = ap.parse_args(argv)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    stats = {"phases": 0, "units": 0, "rebuild_mismatches": 0, "diplomacy_us": []}
    start = time.monotonic()
    deadline = start + args.max_seconds
    tmp = args.out.with_name(args.out.name + ".tmp")
    # A name ending in .gz writes the file compressed (the 2,000-phase file is 3.8 MB plain).
    # mtime 0 keeps the compressed bytes the same for the same phases.
    with (gzip.GzipFile(tmp, "wb", mtime=0) if args.out.suffix == ".gz" else open(tmp, "wb")) as raw, \
            io.TextIOWrapper(raw, encoding="utf-8") as out:
        for index in range(args.games):
            if time.monotonic() > deadline:
                print(f"time budget reached after {index} games", file=sys.stderr)
                break
            play_game(index, args.seed, args.years, args.reps, out, stats, deadline)
            print(f"game {index}: {stats['phases']} phases so far, {time.monotonic() - start:.0f}s", file=sys.stderr)
    os.replace(tmp, args.out)

    import diplomacy.version

    us = stats["diplomacy_us"]
    meta = {
        "generator": "bench/make_phases.py",
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items() if k != "out"},
        "diplomacy_version": diplomacy.version.PACKAGE_VERSION,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "phases": stats["phases"],
        "units_per_phase_mean": round(stats["units"] / max(1, stats["phases"]), 1),
        "diplomacy_us_median_of_medians": round(statistics.median(us), 1) if us else None,
        "rebuild_mismatches": stats["rebuild_mismatches"],
        "seconds": round(time.monotonic() - start, 1),
    }
    args.out.with_name(args.out.name.split(".")[0] + ".meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
