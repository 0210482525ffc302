#!/usr/bin/env python3
"""Benchmark: gamesmaster's adjudicator against the `diplomacy` package (PyPI 1.1.2).

On the movement phases recorded by make_phases.py (bench/data/phases.jsonl):

1. parses every order first (`parse_order`), then times `adjudicate` per phase
   (median of --reps calls, `time.perf_counter_ns`, garbage collection off during
   each call) and reports the median microseconds per phase of both engines and
   their ratio.  The diplomacy package's `Game.process()` is timed again here,
   interleaved with ours phase by phase (fresh `Game` per call, orders already
   set, only `process()` on the clock) when the package is importable; the
   medians recorded by make_phases.py are reported beside it;
2. compares each order's success or failure between the two engines and
   reports the disagreements, grouped, with examples;
3. builds a synthetic board of N disjoint copies of the standard map (renamed
   province ids, one Variant in memory), copies each recorded phase's units and
   parsed orders into every copy, and reports us/phase for 1 copy and 10 copies
   (cost should grow linearly with the number of units); the copies' outcomes
   are checked against the single board's;
4. measures how many orders per second the parser reads: all the recorded
   order strings, and a set of player-style strings ("A Liv.--Yor.", ...).

Run it with the benchmark virtualenv (see README.md):

    bench/.venv-diplomacy/bin/python bench/bench_adjudicate.py
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import platform
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if (ROOT / "src" / "gamesmaster").is_dir() and str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))  # run from a checkout even without `pip install -e`

from gamesmaster.rules import (Location, Map, Position, Reading, Unit, adjudicate,  # noqa: E402
                               format_order, parse_order)
from gamesmaster.rules.geography import COAST_NAMES  # noqa: E402
from gamesmaster.rules.notation import name_index  # noqa: E402
from gamesmaster.rules.variant import Variant  # noqa: E402
from gamesmaster.variants import load_rules, load_variant  # noqa: E402

# Player-style order strings, for the parser's throughput on free text, with the
# power that writes them; all of them are legal in the Spring 1901 position.
PLAYER_STYLE = [
    ("ENGLAND", "A Liv.--Yor."),
    ("RUSSIA", "F St. P.--Both."),
    ("GERMANY", "Army Munich to Bohemia"),
    ("ENGLAND", "F Lon-Nth"),
    ("ENGLAND", "Fleet Edinburgh -> Norwegian Sea"),
    ("FRANCE", "A Par - Bur"),
    ("FRANCE", "F Brest to Mid-Atlantic Ocean"),
    ("FRANCE", "A Mar S A Par - Bur"),
    ("GERMANY", "F Kiel to Denmark"),
    ("GERMANY", "A Ber H"),
    ("ITALY", "A Ven - Tyr"),
    ("ITALY", "F Nap - Ion Sea"),
    ("ITALY", "army rome supports army venice"),
    ("AUSTRIA", "A Vienna - Galicia"),
    ("AUSTRIA", "A Bud S A Vie - Gal"),
    ("AUSTRIA", "Fleet Trieste to Albania"),
    ("RUSSIA", "A Warsaw moves to Galicia"),
    ("RUSSIA", "F Sev - Black Sea"),
    ("RUSSIA", "A Mos-Ukr"),
    ("TURKEY", "F Ankara → Black Sea"),
    ("TURKEY", "A Con - Bul"),
    ("TURKEY", "A Smyrna stands"),
]


# -- timing ------------------------------------------------------------------------


def median_us(call: Callable[[], Any], reps: int, setup: Callable[[], Any] | None = None) -> float:
    """Median wall-clock microseconds of call() (gc off during each call)."""
    samples = []
    was_enabled = gc.isenabled()
    try:
        for _ in range(reps):
            arg = setup() if setup else None
            gc.disable()
            t0 = time.perf_counter_ns()
            call() if setup is None else call(arg)
            t1 = time.perf_counter_ns()
            if was_enabled:
                gc.enable()
            samples.append((t1 - t0) / 1000.0)
    finally:
        if was_enabled:
            gc.enable()
    return statistics.median(samples)


# -- the recorded phases -------------------------------------------------------------


@dataclasses.dataclass
class Phase:
    doc: dict
    position: Position
    readings: dict[str, list[Reading]]  # by power, in the recorded order


def load_phases(path: Path, variant: Variant, options, limit: int | None) -> tuple[list[Phase], list[tuple]]:
    phases, unread = [], []
    with open(path) as fh:
        for n, line in enumerate(fh):
            if limit is not None and n >= limit:
                break
            doc = json.loads(line)
            position = Position.from_dict(variant, {k: v for k, v in doc.items() if k != "orders"})
            readings = {}
            for power, texts in doc["orders"].items():
                readings[power] = [parse_order(text, position, power, options) for text in texts]
                for r in readings[power]:
                    if not r.ok:
                        unread.append((doc["game"], doc["phase"], power, r.text, r.error))
            phases.append(Phase(doc, position, readings))
    return phases, unread


# -- the diplomacy package, timed live --------------------------------------------------


def diplomacy_timer():
    """A function timing the package's process() on a recorded phase, or None."""
    try:
        from diplomacy import Game
    except ImportError:
        return None

    def fresh(doc):
        game = Game()
        game.set_state({"name": doc["phase"], "units": {p: doc["units"].get(p, []) for p in game.powers},
                        "centers": {p: doc["centers"].get(p, []) for p in game.powers}})
        for power, orders in doc["orders"].items():
            game.set_orders(power, orders)
        return game

    def timer(doc, reps):
        results = {}

        def run(game):
            results.setdefault("r", game.process().results)

        us = median_us(run, reps, setup=lambda: fresh(doc))
        return us, results["r"]

    return timer


# -- comparing outcomes ------------------------------------------------------------------


def order_kind(text: str) -> str:
    words = text.split()
    verb = words[2] if len(words) > 2 else "?"
    if verb == "-":
        return "move via convoy" if words[-1] == "VIA" else "move"
    if verb == "S":
        return "support move" if "-" in words[3:] else "support hold"
    return {"H": "hold", "C": "convoy"}.get(verb, verb)


def diplomacy_success(doc: dict, power: str, index: int) -> bool:
    """Did the diplomacy package make this order succeed, in gamesmaster's sense of the word."""
    text = doc["orders"][power][index]
    codes = doc["diplomacy_results"][power][index]
    kind = order_kind(text)
    if kind == "hold":
        return "dislodged" not in codes
    if kind == "convoy":
        # gamesmaster: the army arrived by a route through this fleet, and the fleet held.
        if codes:
            return False
        words = text.split()
        army, dest = " ".join(words[3:5]), words[6]
        for p, orders in doc["orders"].items():
            for i, o in enumerate(orders):
                w = o.split()
                if " ".join(w[:2]) == army:
                    return w[2] == "-" and w[3] == dest and not doc["diplomacy_results"][p][i]
        return False
    return not codes  # moves and supports: any code (bounce, cut, void, ...) is a failure


def reason_head(reason: str) -> str:
    """The general part of a reason: 'support given to A Vie - Tri' -> 'support given to'."""
    return re.split(r":| \(|\b[AF] [A-Z][a-z]", reason)[0].strip()


VOID_SUPPORT = "package-void-support"
VIA_OVERLAND = "package-via-overland"
OTHER = "other"

EXPLAIN = {
    VOID_SUPPORT: "the package marks 'void' a support that was given but had no effect (it would dislodge "
                  "the supporter's own unit, the supported army's convoy failed, ...); gamesmaster: support given",
    VIA_OVERLAND: "in a phase where the package moved an army ordered 'A X - Y VIA' over land because no fleet "
                  "convoyed it (gamesmaster: no convoy route, the army stays and contests nothing)",
    OTHER: "other disagreements (to look into)",
}


def compare(phases: list[Phase], outcomes: list) -> dict:
    """Per-order agreement, and agreement of the board after the phase, classified."""
    rows_by_class: dict[str, list] = defaultdict(list)
    orders = agree = 0
    boards_differ: dict[str, list] = defaultdict(list)
    for phase, adjudication in zip(phases, outcomes):
        doc = phase.doc
        rows, via_overland, k = [], False, 0
        for power, readings in phase.readings.items():
            for i, _ in enumerate(readings):
                outcome = adjudication.outcomes[k]
                k += 1
                orders += 1
                text, codes = doc["orders"][power][i], doc["diplomacy_results"][power][i]
                if (text.endswith(" VIA") and outcome.reason.startswith("no convoy route")
                        and "no convoy" not in codes):
                    via_overland = True
                theirs = diplomacy_success(doc, power, i)
                ours = outcome.result == "succeeds"
                if theirs == ours:
                    agree += 1
                    continue
                kind = order_kind(text)
                key = (kind, " ".join(codes) or "(none)", outcome.result, reason_head(outcome.reason))
                void_support = (kind.startswith("support") and "void" in codes and "cut" not in codes
                                and "dislodged" not in codes and outcome.reason.startswith("support given"))
                rows.append((VOID_SUPPORT if void_support else None, key,
                             (doc["game"], doc["phase"], power, text, codes, outcome.result, outcome.reason)))
        for cls, key, row in rows:
            rows_by_class[cls or (VIA_OVERLAND if via_overland else OTHER)].append((key, row))
        if "diplomacy_after" in doc:
            ours_after: dict[str, list[str]] = {}
            for unit in adjudication.next.units.values():
                ours_after.setdefault(unit.power, []).append(str(unit))
            ours_after = {p: sorted(u) for p, u in ours_after.items()}
            theirs_after = {p: sorted(u) for p, u in doc["diplomacy_after"].items()}
            if ours_after != theirs_after:
                only_ours = sorted(f"{p} {u}" for p, us in ours_after.items() for u in us
                                   if u not in theirs_after.get(p, []))
                only_theirs = sorted(f"{p} {u}" for p, us in theirs_after.items() for u in us
                                     if u not in ours_after.get(p, []))
                boards_differ[VIA_OVERLAND if via_overland else OTHER].append(
                    (doc["game"], doc["phase"], only_ours, only_theirs))
    return {"orders": orders, "agree": agree, "classes": rows_by_class, "boards_differ": boards_differ,
            "boards": len(phases)}


# -- the synthetic board: N disjoint copies of the standard map -------------------------------


def renamer(suffix: str) -> Callable[[Any], Any]:
    def rn(x):
        if isinstance(x, Location):
            return Location(x.province + suffix, x.coast)
        if isinstance(x, Unit):
            return Unit(x.power, x.type, rn(x.location))
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            return dataclasses.replace(x, **{f.name: rn(getattr(x, f.name)) for f in dataclasses.fields(x)
                                             if f.init})
        return x

    return rn


def copies_variant(base: Variant, copies: int) -> Variant:
    """One board made of `copies` disjoint copies of base's map (ids suffixed 0, 1, ...)."""
    provinces, army, fleet = [], [], []
    board = base.map
    for k in range(copies):
        s = str(k)
        for prov in board.provinces.values():
            provinces.append(dataclasses.replace(prov, id=prov.id + s, name=f"{prov.name} {k}", aliases=()))
        for a, bs in board.army_edges.items():
            army.extend((a + s, b + s) for b in bs)
        for a, bs in board.fleet_edges.items():
            fleet.extend((Location(a.province + s, a.coast), Location(b.province + s, b.coast)) for b in bs)
    powers = {pid: dataclasses.replace(p, home_centres=tuple(c + str(k) for k in range(copies) for c in p.home_centres))
              for pid, p in base.powers.items()}
    start_units = {pid: tuple((t, Location(loc.province + str(k), loc.coast)) for k in range(copies) for t, loc in placed)
                   for pid, placed in base.start_units.items()}
    return dataclasses.replace(base, name=f"{base.name}x{copies}", title=f"{base.title} x{copies}",
                               map=Map.build(provinces, army, fleet), powers=powers, start_units=start_units,
                               victory_centres=base.victory_centres * copies)


def copies_phase(variant: Variant, phase: Phase, copies: int) -> tuple[Position, dict[str, list[Reading]]]:
    units, centres = {}, {}
    readings: dict[str, list[Reading]] = {p: [] for p in phase.readings}
    for k in range(copies):
        rn = renamer(str(k))
        for pid, unit in phase.position.units.items():
            units[pid + str(k)] = rn(unit)
        for pid, owner in phase.position.centres.items():
            centres[pid + str(k)] = owner
        for power, rs in phase.readings.items():
            for r in rs:
                order = rn(r.order)
                readings[power].append(Reading(format_order(order), order))
    position = dataclasses.replace(phase.position, variant=variant, units=units, centres=centres)
    return position, readings


# -- the parser ----------------------------------------------------------------------------


def parser_rate(jobs: list[tuple[str, Position, str]], options, rounds: int) -> tuple[float, float]:
    """Orders per second parse_order reads: (one pass with nothing remembered, best of `rounds` passes).

    parse_order remembers the movement orders it read strictly (by text and power), so a
    second pass over the same strings reads every one it can from that table: the first
    pass is what a stream of new phases costs, the best of the later ones the upper bound.
    """
    remembered = {id(position.variant): position for _, position, _ in jobs}
    for position in remembered.values():
        name_index(position).remembered.clear()
    times = []
    gc.collect()
    gc.disable()  # as for adjudicate(): the collector's pauses depend on all the benchmark holds
    try:
        for _ in range(1 + rounds):
            t0 = time.perf_counter_ns()
            for text, position, power in jobs:
                parse_order(text, position, power, options)
            times.append(time.perf_counter_ns() - t0)
    finally:
        gc.enable()
    first, best = times[0], min(times[1:] or times)
    return len(jobs) / (first / 1e9), len(jobs) / (best / 1e9)


_MOVE_WORDS = [" - ", "-", " -> ", " to ", " moves to ", " \u2014 ", " \u2192 ", "--"]


def _written_place(loc: Location, board: Map, rng: random.Random) -> str:
    prov = board.provinces[loc.province]
    name = rng.choice([prov.id.capitalize(), prov.name, prov.id.capitalize() + ".", prov.id.lower(), prov.name.upper()])
    if loc.coast:
        name += rng.choice([f"/{loc.coast.lower()}", f" ({loc.coast.lower()})", f" {COAST_NAMES[loc.coast]}"])
    return name


def _written_unit(unit: Unit, board: Map, rng: random.Random) -> str:
    word = rng.choice(["A", "Army", "a", "army"] if unit.type.value == "A" else ["F", "Fleet", "f", "fleet"])
    return f"{word} {_written_place(unit.location, board, rng)}"


def player_style(order, board: Map, rng: random.Random) -> str:
    """A movement order as a player might write it: names or abbreviations, any case, any dash."""
    unit = _written_unit(order.unit, board, rng)
    kind = type(order).__name__
    if kind == "Hold":
        return unit + rng.choice([" H", " holds", " Stands", " hold"])
    if kind == "Move":
        text = unit + rng.choice(_MOVE_WORDS) + _written_place(order.dest, board, rng)
        return text + (rng.choice([" via convoy", " by convoy", " VIA"]) if order.via_convoy else "")
    other = order.supported if kind == "Support" else order.army
    text = unit + rng.choice([" S ", " supports ", " Supports "] if kind == "Support" else [" C ", " convoys "])
    text += _written_unit(other, board, rng)
    if order.dest is not None:
        text += rng.choice(_MOVE_WORDS) + _written_place(order.dest, board, rng)
    return text


def player_corpus(phases, options, seed: int = 7) -> tuple[list[tuple[str, Position, str]], int]:
    """Every recorded order rewritten player-style (kept where it reads back to the same order)."""
    rng = random.Random(seed)
    jobs, fallbacks = [], 0
    for phase in phases:
        board = phase.position.map
        for power, readings in phase.readings.items():
            for reading in readings:
                if not reading.ok:
                    continue
                for _ in range(4):
                    text = player_style(reading.order, board, rng)
                    if parse_order(text, phase.position, power, options).order == reading.order:
                        break
                else:
                    text, fallbacks = reading.text, fallbacks + 1
                jobs.append((text, phase.position, power))
    return jobs, fallbacks


# -- the report ----------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=Path, default=HERE / "data" / "phases.jsonl")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N phases")
    ap.add_argument("--reps", type=int, default=21, help="timed adjudicate() calls per phase (default 21)")
    ap.add_argument("--diplomacy-reps", type=int, default=11,
                    help="timed process() calls per phase, live (default 11; 0: use the recorded medians only)")
    ap.add_argument("--copies", default="1,10",
                    help="comma-separated numbers of map copies on the synthetic boards (default 1,10)")
    ap.add_argument("--copies-reps", type=int, default=5, help="timed calls per phase on the synthetic boards (default 5)")
    ap.add_argument("--examples", type=int, default=3, help="examples shown per disagreement group (default 3)")
    ap.add_argument("--json", type=Path, default=HERE / "results" / "latest.json", help="where to write the figures")
    args = ap.parse_args(argv)

    started = time.monotonic()
    variant = load_variant("standard")
    options = load_rules("2023")
    t0 = time.perf_counter()
    phases, unread = load_phases(args.phases, variant, options, args.limit)
    load_s = time.perf_counter() - t0
    n_orders = sum(len(rs) for p in phases for rs in p.readings.values())
    n_units = sum(len(p.position.units) for p in phases)
    print(f"{len(phases)} movement phases, {n_orders} orders, {n_units / len(phases):.1f} units per phase "
          f"(read and parsed in {load_s:.1f}s)")
    print(f"orders our parser could not read: {len(unread)}")
    for row in unread[:10]:
        print("   ", row)

    # 1. time both engines, phase by phase.
    timer = diplomacy_timer() if args.diplomacy_reps > 0 else None
    ours_us, theirs_live, adjudications, live_mismatch = [], [], [], 0
    for phase in phases:
        adjudications.append(adjudicate(phase.position, phase.readings, options))
        ours_us.append(median_us(lambda: adjudicate(phase.position, phase.readings, options), args.reps))
        if timer:
            us, results = timer(phase.doc, args.diplomacy_reps)
            theirs_live.append(us)
            recorded = {" ".join(o.split()[:2]): sorted(c)
                        for p, os_ in phase.doc["orders"].items() for o, c in zip(os_, phase.doc["diplomacy_results"][p])}
            if {u: sorted(str(c) for c in cs) for u, cs in results.items() if u in recorded} != recorded:
                live_mismatch += 1
    theirs_recorded = [p.doc["diplomacy_us"] for p in phases]
    med_ours = statistics.median(ours_us)
    med_rec = statistics.median(theirs_recorded)
    med_live = statistics.median(theirs_live) if theirs_live else None
    theirs = theirs_live or theirs_recorded
    per_phase_ratio = statistics.median(t / o for t, o in zip(theirs, ours_us))
    print()
    print("== time per movement phase (median over phases of each phase's median) ==")
    print(f"gamesmaster adjudicate():        {med_ours:10.1f} us")
    if med_live is not None:
        print(f"diplomacy Game.process(), live:  {med_live:10.1f} us   (results as recorded: "
              f"{len(phases) - live_mismatch}/{len(phases)} phases)")
    print(f"diplomacy Game.process(), recorded by make_phases.py: {med_rec:.1f} us")
    print(f"ratio diplomacy / gamesmaster:   {statistics.median(theirs) / med_ours:10.2f}x   "
          f"(median of per-phase ratios {per_phase_ratio:.2f}x; total time {sum(theirs) / sum(ours_us):.2f}x); "
          f"target >= 10x")

    # 2. outcomes.
    cmp = compare(phases, adjudications)
    disagree = cmp["orders"] - cmp["agree"]
    print()
    print("== outcomes: success or failure of each order, diplomacy package vs gamesmaster ==")
    print(f"orders compared: {cmp['orders']}, agree: {cmp['agree']}, disagree: {disagree}")
    for cls in (VOID_SUPPORT, VIA_OVERLAND, OTHER):
        rows = cmp["classes"].get(cls, [])
        print(f"  {len(rows):5d}  {EXPLAIN[cls]}")
        groups: dict[tuple, list] = defaultdict(list)
        for key, row in rows:
            groups[key].append(row)
        shown = args.examples if cls != OTHER else max(args.examples, 50)
        for (kind, codes, ours, reason), grows in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"         {len(grows):4d}  {kind}: diplomacy [{codes}] vs gamesmaster {ours} ({reason})")
            for row in grows[: args.examples if cls != OTHER else shown]:
                game, ph, power, text, codes_, res, why = row
                print(f"                game {game} {ph} {power}: {text!r}: diplomacy {codes_}, gamesmaster {res}: {why}")
    differ = cmp["boards_differ"]
    print(f"board after the phase (units not dislodged) differs in "
          f"{sum(len(v) for v in differ.values())} of {cmp['boards']} phases: "
          f"{len(differ.get(VIA_OVERLAND, []))} where the package moved a VIA army over land, "
          f"{len(differ.get(OTHER, []))} others")
    for game, ph, only_ours, only_theirs in (differ.get(OTHER, []) + differ.get(VIA_OVERLAND, []))[: args.examples * 3]:
        print(f"          game {game} {ph}: only gamesmaster {only_ours}; only diplomacy {only_theirs}")

    # 3. the synthetic board.
    print()
    print("== growth: one board of N disjoint copies of the standard map (same phases, orders copied) ==")
    growth = {}
    counts = sorted({int(c) for c in args.copies.split(",")} | {1})
    cases, mismatched = {}, {}
    for copies in counts:
        big = copies_variant(variant, copies)
        cases[copies] = [copies_phase(big, phase, copies) for phase in phases]
        mismatched[copies] = 0
        for (position, readings), phase, base in zip(cases[copies], phases, adjudications):
            result = adjudicate(position, readings, options)
            got = [o.result for o in result.outcomes]
            # outcomes come power by power; each power's orders are its copies' orders in turn
            want, offset = [], 0
            for rs in phase.readings.values():
                want += [o.result for o in base.outcomes[offset:offset + len(rs)]] * copies
                offset += len(rs)
            if got != want:
                mismatched[copies] += 1
    # Timed interleaved, phase by phase, so that every board size sees the same machine load.
    times: dict[int, list[float]] = {copies: [] for copies in counts}
    for n in range(len(phases)):
        for copies in counts:
            position, readings = cases[copies][n]
            times[copies].append(median_us(lambda: adjudicate(position, readings, options), args.copies_reps))
    for copies in counts:
        units = statistics.mean(len(c[0].units) for c in cases[copies])
        median = statistics.median(times[copies])
        growth[copies] = {"us_per_phase": median, "mean_us": statistics.mean(times[copies]),
                          "units_per_phase": units, "outcome_mismatches": mismatched[copies]}
        print(f"  x{copies:<3d} {units:7.1f} units/phase   median {median:10.1f} us/phase   "
              f"mean {statistics.mean(times[copies]):10.1f} us   {median / units:6.2f} us/unit   "
              f"phases whose outcomes differ from the single board: {mismatched[copies]}")
    del cases
    for copies in counts[1:]:
        print(f"  x{copies} / x1: {growth[copies]['us_per_phase'] / growth[1]['us_per_phase']:.2f} "
              f"(linear would be {copies})")

    # 4. the parser.
    print()
    print("== parser throughput ==")
    jobs = [(text, phase.position, power) for phase in phases for power, texts in phase.doc["orders"].items()
            for text in texts]
    recorded_rate, recorded_warm = parser_rate(jobs, options, 3)
    player_jobs, fallbacks = player_corpus(phases, options)
    player_rate, player_warm = parser_rate(player_jobs, options, 3)
    start = Position.initial(variant)
    player = [(text, start, power) for power, text in PLAYER_STYLE]
    readings = [parse_order(text, start, power, options) for text, _, power in player]
    examples_rate, _ = parser_rate(player * max(1, 2000 // len(player)), options, 0)
    print(f"recorded (canonical) order strings ({len(jobs)}), one pass, nothing remembered: {recorded_rate:,.0f} orders/s "
          f"(best later pass: {recorded_warm:,.0f})")
    print(f"the same orders player-style ({len(player_jobs)}; {fallbacks} kept canonical), one pass: "
          f"{player_rate:,.0f} orders/s (best later pass: {player_warm:,.0f})")
    print(f"the {len(player)} hand-written examples below, repeated: {examples_rate:,.0f} orders/s")
    for (power, text), r in zip(PLAYER_STYLE, readings):
        print(f"    {power:8s} {text!r:40s} -> {format_order(r.order) if r.ok else r.error}")
    for text, _, _ in player_jobs[:: max(1, len(player_jobs) // 12)][:12]:
        print(f"    e.g. {text!r}")

    figures = {
        "phases": len(phases), "orders": n_orders, "units_per_phase": n_units / len(phases),
        "unread_orders": len(unread),
        "gamesmaster_us_per_phase": med_ours,
        "diplomacy_us_per_phase_live": med_live, "diplomacy_us_per_phase_recorded": med_rec,
        "ratio": statistics.median(theirs) / med_ours, "ratio_per_phase_median": per_phase_ratio,
        "orders_disagreeing": disagree,
        "orders_disagreeing_by_class": {cls: len(rows) for cls, rows in cmp["classes"].items()},
        "other_disagreements": [row for _, row in cmp["classes"].get(OTHER, [])],
        "boards_differing": {cls: len(v) for cls, v in cmp["boards_differ"].items()},
        "growth": {str(k): v for k, v in growth.items()},
        "parser_orders_per_s_recorded": recorded_rate, "parser_orders_per_s_recorded_warm": recorded_warm,
        "parser_orders_per_s_player_style": player_rate, "parser_orders_per_s_player_style_warm": player_warm,
        "player_style_strings": len(player_jobs), "player_style_kept_canonical": fallbacks,
        "parser_orders_per_s_examples": examples_rate,
        "player_style_unread": sum(not r.ok for r in readings),
        "reps": args.reps, "diplomacy_reps": args.diplomacy_reps, "copies_reps": args.copies_reps,
        "python": platform.python_version(), "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "seconds": round(time.monotonic() - started, 1),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print()
    print(f"figures written to {args.json} ({figures['seconds']}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
