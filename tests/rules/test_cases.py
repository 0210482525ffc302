"""The scenario files in tests/cases (DATC, rulebook, seeds), run through the machine interface."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gamesmaster.machine import adjudicate_document

CASES = Path(__file__).resolve().parents[1] / "cases"


def _load() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(CASES.glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            out.append((f"{path.stem}:{case['id']}", case))
    return out


ALL = _load()


def _units(doc: dict) -> dict[str, set[str]]:
    return {p.upper(): set(v) for p, v in doc.items() if v}


def _dislodged(nxt: dict) -> dict[str, set[str]]:
    return {p: {d["unit"] for d in v} for p, v in nxt.get("dislodged", {}).items() if v}


def play(case: dict) -> list[tuple[dict, dict]]:
    """Run every step of a case; return (step, output) pairs."""
    doc = {"variant": case.get("variant", "standard"), "phase": case["phase"],
           "units": case.get("units", {}), "centers": case.get("centers", {})}
    if "rules" in case:
        doc["rules"] = case["rules"]
    played = []
    for step in case["step"]:
        doc["orders"] = step.get("orders", {})
        out = adjudicate_document(doc)
        played.append((step, out))
        doc = dict(out["next"])
    return played


@pytest.mark.parametrize("name,case", ALL, ids=[n for n, _ in ALL])
def test_case(name: str, case: dict) -> None:
    for n, (step, out) in enumerate(play(case), 1):
        where = f"step {n} ({out['phase']})"
        if "phase" in step:
            assert out["phase"] == step["phase"], where
        got: dict[str, list[str]] = {}
        for o in out["orders"]:
            got.setdefault(o["power"], []).append(o["result"])
        want = {p.upper(): r for p, r in step.get("results", {}).items()}
        if got != want:
            lines = [f"{o['power']}: {o['text']!r} -> {o['order']} {o['result']} ({o['reason']})" for o in out["orders"]]
            pytest.fail(f"{where}: results differ\nwant {want}\n got {got}\n" + "\n".join(lines))
        nxt = out["next"]
        if "after" in step:
            assert _units(nxt["units"]) == _units(step["after"]), where
        if "dislodged" in step:
            assert _dislodged(out) == _units(step["dislodged"]), where
        if "retreats" in step:
            have = {d["unit"]: sorted(d["retreats"]) for v in out.get("dislodged", {}).values() for d in v}
            for unit, expected in step["retreats"].items():
                assert have.get(unit) == sorted(expected), f"{where}: retreats of {unit}"
        if "standoffs" in step:
            assert sorted(nxt["standoffs"]) == sorted(step["standoffs"]), f"{where}: standoffs"
        if "centers_after" in step:
            assert _units(nxt["centers"]) == _units(step["centers_after"]), where
