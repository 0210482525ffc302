#!/usr/bin/env python3
"""Every judges' map of the `diplomacy` package, imported and played against the package's engine.

    bench/.venv-diplomacy/bin/python bench/judge_maps.py [--games 3] [--phases 30] [--reps 5]

For each map the package ships: the import (timed, or its refusal with the reasons); then
seeded random games played by the package (bench/judge_map_play.py, run by the same
interpreter, which must have both diplomacy 1.1.2 and gamesmaster installed, as
bench/setup_venv.sh makes it), each phase adjudicated again by gamesmaster and compared:
the next phase, every unit, every dislodged unit and (outside retreats) every centre.
Speed: the median microseconds per phase of gamesmaster's `adjudicate_document` against
the package's `process()` on the same phases. Where the package ships the map's SVG
(`maps/svg/`), the import is timed again drawing from it (`variant import --svg`);
`--no-play` does the imports only. Prints a table; writes bench/results/judge_maps.json
(not committed).

`compare` is also what tests/variants/test_judge_agreement.py uses on a few phases per map.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gamesmaster.machine import adjudicate_document
from gamesmaster.rules.phase import Phase

HERE = Path(__file__).resolve().parent
PLAYER = HERE / "judge_map_play.py"


def _ours(names: dict[str, str], by_power: dict[str, Any]) -> dict[str, Any]:
    """A by-power table with the package's power names (hyphens dropped) turned into ours."""
    return {names.get(p, p): v for p, v in by_power.items() if v}


def _board(by_power: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: sorted(v) for p, v in by_power.items() if v}


def _idle(rec: dict[str, Any], dummies: set[str]) -> bool:
    """A retreat phase that only dislodged dummies, or an adjustment phase with nothing ordered or changed."""
    if rec["orders"] or rec["after_units"] != rec["units"]:
        return False
    if rec["phase"].endswith("R"):
        return all(not units or p in dummies for p, units in rec["dislodged"].items())
    return rec["phase"].endswith("A")


def fold_dummy_retreats(records: list[dict[str, Any]], dummies: set[str]) -> list[dict[str, Any]]:
    """Fold the package's phases where a dummy (and no one else) had something to do into the phase before.

    gamesmaster disbands a neutral (dummy) power's dislodged unit at once (rulebook XIV.2)
    and skips a winter in which only a neutral power could build (it raises no units); the
    package holds a retreat or adjustment phase in which the dummy orders nothing, so the
    unit is disbanded or the build waived there. The board after both is the same; only
    the phase in between differs.
    """
    out: list[dict[str, Any]] = []
    for rec in records:
        previous = out[-1] if out else None
        if (previous is not None and previous["game"] == rec["game"] and previous["after_phase"] == rec["phase"]
                and _idle(rec, dummies)):
            out[-1] = {**previous, **{k: rec[k] for k in ("after_phase", "after_units", "after_dislodged", "after_centers")}}
            continue
        out.append(rec)
    for i, rec in enumerate(out):
        dislodged = {p: units for p, units in rec["after_dislodged"].items() if units}
        if dislodged and all(p in dummies for p in dislodged):  # the game stopped before that retreat phase
            out[i] = {**rec, "after_phase": None, "after_dislodged": {}}
    return out


def compare(variant_id: str, powers: list[str], records: list[dict[str, Any]],
            dummies: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Adjudicate each recorded phase with gamesmaster; one result per phase: agree, or what differs."""
    names = {p.replace("-", ""): p for p in powers}
    records = fold_dummy_retreats(records, {d.replace("-", "") for d in dummies})
    results: list[dict[str, Any]] = []
    carried: dict[Any, dict[str, Any] | None] = {}
    for rec in records:
        phase = Phase.parse(rec["phase"])
        orders = _ours(names, rec["orders"])
        previous = carried.get(rec["game"])
        if phase.kind == "R":
            if previous is None:
                results.append({"game": rec["game"], "phase": str(phase), "agree": None,
                                "why": "not compared: the movement before it differed"})
                carried[rec["game"]] = None
                continue
            doc = {**previous, "orders": orders}
        else:
            doc = {"variant": variant_id, "phase": str(phase), "units": _ours(names, rec["units"]),
                   "centers": _ours(names, rec["centers"]), "orders": orders}
        start = time.perf_counter_ns()
        out = adjudicate_document(doc)
        took = (time.perf_counter_ns() - start) / 1000.0
        differences = _differences(out, rec, names)
        results.append({"game": rec["game"], "phase": str(phase), "agree": not differences,
                        "why": "; ".join(differences), "us": took, "package_us": rec.get("us")})
        carried[rec["game"]] = out.get("next") if not differences else None
    return results


def _differences(out: dict[str, Any], rec: dict[str, Any], names: dict[str, str]) -> list[str]:
    """What gamesmaster's next position has that the package's does not, or lacks."""
    invalid = [f"{o['power']}: {o['text']} ({o['reason']})" for o in out.get("orders", []) if o.get("result") == "invalid"]
    nxt = out.get("next") or {}
    found: list[str] = []
    if invalid:
        found.append("invalid to gamesmaster: " + ", ".join(invalid[:3]))
    ours_phase = nxt.get("phase")
    theirs_phase = str(Phase.parse(rec["after_phase"])) if rec["after_phase"] not in (None, "COMPLETED") else None
    if theirs_phase is not None and ours_phase != theirs_phase:
        found.append(f"next phase {ours_phase} (package {theirs_phase})")
    units = _board(nxt.get("units", {}))
    theirs = _board(_ours(names, rec["after_units"]))
    if units != theirs:
        ours_set = {(p, u) for p, us in units.items() for u in us}
        theirs_set = {(p, u) for p, us in theirs.items() for u in us}
        found.append(f"units: only gamesmaster {sorted(ours_set - theirs_set)[:4]}, "
                     f"only the package {sorted(theirs_set - ours_set)[:4]}")
    dislodged = {(p, d["unit"]) for p, ds in (nxt.get("dislodged") or {}).items() for d in ds}
    theirs_d = {(names.get(p, p), u) for p, us in rec["after_dislodged"].items() for u in us}
    if dislodged != theirs_d:
        found.append(f"dislodged: gamesmaster {sorted(dislodged)}, package {sorted(theirs_d)}")
    if theirs_phase and not theirs_phase.endswith("R"):
        centres = _board(nxt.get("centers", {}))
        theirs_c = _board(_ours(names, rec["after_centers"]))
        if centres != theirs_c:
            found.append(f"centres: gamesmaster {centres}, package {theirs_c}")
    return found


def play(python: str, map_file: Path | list[Path], games: int, phases: int, seed: int,
         no_via: bool) -> list[dict[str, Any]]:
    """Records of random games the package plays on maps (judge_map_play.py in the package's interpreter)."""
    files = map_file if isinstance(map_file, list) else [map_file]
    args = [python, str(PLAYER), *map(str, files), "--games", str(games), "--phases", str(phases), "--seed", str(seed)]
    if no_via:
        args.append("--no-via")
    done = subprocess.run(args, capture_output=True, text=True, timeout=3600, check=True)
    # the package prints its convoy-path progress on stdout the first time it loads a map
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _svg_import(map_file: Path, vid: str, install_map: Any, refusal: type[Exception]) -> dict[str, Any]:
    """The import again with the package's SVG of the map (`--svg`), timed, where the package ships one."""
    svg = map_file.parent / "svg" / f"{map_file.stem}.svg"
    if not svg.is_file():
        return {}
    start = time.perf_counter()
    try:
        install_map(map_file, vid + "-svg", svg=svg)
    except refusal as exc:
        return {"svg_refused": exc.problems}  # type: ignore[attr-defined]
    return {"svg_ms": (time.perf_counter() - start) * 1000}


def _svg_line(drawn: dict[str, Any]) -> str:
    if "svg_ms" in drawn:
        return f"with its SVG {drawn['svg_ms']:.1f} ms"
    if "svg_refused" in drawn:
        return "its SVG refused: " + "; ".join(drawn["svg_refused"])
    return "(no SVG)"


def main(argv: list[str] | None = None) -> int:
    """Import every package map, play, compare, and print the table."""
    import diplomacy  # the package must be in this interpreter too

    from gamesmaster.variants.judge_map import MapImportError, install_map

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--phases", type=int, default=30)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--via", action="store_true", help="also draw convoyed (VIA) moves")
    ap.add_argument("--only", nargs="*", default=None, metavar="MAP", help="only these maps (file stems)")
    ap.add_argument("--no-play", action="store_true", help="only the imports (with and without the SVG), no games")
    args = ap.parse_args(argv)
    maps = sorted(m for m in (Path(diplomacy.__file__).parent / "maps").glob("*.map") if not args.only or m.stem in args.only)
    report = []
    with tempfile.TemporaryDirectory() as data:
        import os

        os.environ["GAMESMASTER_DATA"] = data
        for map_file in maps:
            vid = "judge-" + map_file.stem.replace("_", "-")
            start = time.perf_counter()
            try:
                install_map(map_file, vid)
            except MapImportError as exc:
                report.append({"map": map_file.name, "imported": False, "why": exc.problems})
                print(f"{map_file.name:32} refused: {'; '.join(exc.problems)}")
                continue
            import_ms = (time.perf_counter() - start) * 1000
            drawn = _svg_import(map_file, vid, install_map, MapImportError)
            if args.no_play:
                report.append({"map": map_file.name, "imported": True, "import_ms": import_ms, **drawn})
                print(f"{map_file.name:32} import {import_ms:7.1f} ms  {_svg_line(drawn)}")
                continue
            from gamesmaster.variants import load_variant

            variant = load_variant(vid)
            records = play(sys.executable, map_file, args.games, args.phases, args.seed, not args.via)
            results = compare(vid, list(variant.powers), records, variant.neutral)
            agree = sum(1 for r in results if r["agree"])
            ours = [r["us"] for r in results if r.get("us")]
            theirs = [r["package_us"] for r in results if r.get("package_us")]
            ratio = statistics.median(theirs) / statistics.median(ours) if ours and theirs else None
            report.append({"map": map_file.name, "imported": True, "import_ms": import_ms, "phases": len(results),
                           "agree": agree, "ratio": ratio, "differences": [r for r in results if not r["agree"]],
                           **drawn})
            print(f"{map_file.name:32} import {import_ms:7.1f} ms  phases {agree:4}/{len(results):<4} agree  "
                  f"gamesmaster {statistics.median(ours) if ours else 0:8.0f} us  package "
                  f"{statistics.median(theirs) if theirs else 0:8.0f} us  ({ratio or 0:.1f}x)  {_svg_line(drawn)}")
            for r in results:
                if not r["agree"]:
                    print(f"    game {r['game']} {r['phase']}: {r['why']}")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "judge_maps.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
