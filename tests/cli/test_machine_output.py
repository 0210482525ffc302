"""The machine door writes its JSON text directly; it must be the document the library's values make.

`adjudicate_json` writes each outcome from its fields instead of building dictionaries
and encoding them. Here the output document is built the plain way from the library's
values (Outcome.as_dict, Position.to_dict, ...) and encoded with json.dumps, and the
two texts must be the same to the byte: over the benchmark's recorded phases and every
step of every case file (retreats, adjustments, removals, victories, non-ASCII text).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gamesmaster.machine import adjudicate_json, read_input
from gamesmaster.rules import adjudicate

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "rules"))
import test_cases  # noqa: E402  (the case files, as the case test reads them)


def plain_document(doc: dict[str, Any]) -> dict[str, Any]:
    """The output document built from the library's values, the way the schema describes it."""
    position, orders, options = read_input(doc)
    result = adjudicate(position, orders, options)
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in result.dislodged:
        entry: dict[str, Any] = {"unit": str(d.unit), "attacker": d.attacker, "retreats": [str(r) for r in d.retreats or ()]}
        if d.convoyed:
            entry["convoyed"] = True
        dislodged.setdefault(d.unit.power, []).append(entry)
    nxt = result.next.to_dict()
    out: dict[str, Any] = {
        "phase": str(position.phase),
        "orders": [o.as_dict() for o in result.outcomes],
        "dislodged": dislodged,
        "next": {"variant": nxt.pop("variant"), "rules": doc.get("rules", options.preset), **nxt},
        "winner": result.winner,
    }
    if result.ended:
        out["ended"] = True
    if result.removed:
        removed: dict[str, list[str]] = {}
        for unit in result.removed:
            removed.setdefault(unit.power, []).append(str(unit))
        out["civil_disorder_removals"] = removed
    if result.waiting:
        out["waiting"] = dict(result.waiting)
    return out


def same_text(doc: dict[str, Any]) -> None:
    assert adjudicate_json(doc) == json.dumps(plain_document(doc), ensure_ascii=False)


def test_the_recorded_phases() -> None:
    keep = {"variant", "rules", "phase", "units", "centers", "orders"}
    with open(ROOT / "bench" / "data" / "phases.jsonl", encoding="utf-8") as fh:
        for line, _ in zip(fh, range(150)):
            same_text({k: v for k, v in json.loads(line).items() if k in keep})


def test_every_step_of_the_case_files() -> None:
    kinds = set()
    for _, case in test_cases.ALL:
        doc: dict[str, Any] = {"variant": case.get("variant", "standard"), "phase": case["phase"],
                               "units": case.get("units", {}), "centers": case.get("centers", {})}
        if "rules" in case:
            doc["rules"] = case["rules"]
        for step in case["step"]:
            doc["orders"] = step.get("orders", {})
            same_text(doc)
            out = json.loads(adjudicate_json(doc))
            kinds.add(doc["phase"][-1])
            kinds.update(k for k in ("ended", "civil_disorder_removals", "waiting") if k in out)
            doc = dict(out["next"])
    assert kinds >= {"M", "R", "A", "civil_disorder_removals"}


def test_text_that_needs_escaping_and_non_ascii() -> None:
    doc = {"units": {"FRANCE": ["A PAR", "F BRE"]},
           "orders": {"FRANCE": ['A Par "quickly" \\ to Bur', "F Brest → Manche", "A Par – Bur\t"]}}
    same_text(doc)
    out = json.loads(adjudicate_json(doc))
    assert out["orders"][0]["text"] == 'A Par "quickly" \\ to Bur'
    assert out["orders"][1]["text"] == "F Brest → Manche"
