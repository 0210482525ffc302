"""All 164 DATC v3.0 section 6 cases are in the scenario files, each once."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parents[1] / "cases"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "reference"


def datc_ids() -> list[str]:
    ids = []
    for path in sorted(CASES.glob("datc_*.toml")):
        ids += [c["id"] for c in tomllib.loads(path.read_text())["case"]]
    return ids


def test_every_datc_case_is_there_once() -> None:
    ids = datc_ids()
    assert len(ids) == len(set(ids)) == 164
    per_section = {s: sum(1 for i in ids if i.startswith(f"6.{s}.")) for s in "ABCDEFGHIJ"}
    assert per_section == {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}


def test_the_reference_lists_the_same_cases() -> None:
    """Cross-check with the machine-readable DATC in ../shared (skipped when absent)."""
    source = SHARED / "datc-v3-cases.json"
    if not source.is_file():
        pytest.skip("../shared/reference is not beside this checkout")
    names = {c["name"] for c in json.loads(source.read_text())["cases"]}
    theirs = set()
    for name in names:
        m = re.match(r"t6([a-j])(\d+)_", name)
        if m:
            theirs.add(f"6.{m.group(1).upper()}.{int(m.group(2))}")
    ours = set(datc_ids())
    # The reference has no entry for 6.D.16; every case it has must be ours.
    assert theirs <= ours
    assert ours - theirs <= {"6.D.16"}


def test_the_datc_text_numbers_164_cases() -> None:
    source = SHARED / "DATC_v3_0.txt"
    if not source.is_file():
        pytest.skip("../shared/reference is not beside this checkout")
    numbered = set(re.findall(r"^(6\.[A-J]\.\d+)\.? TEST CASE", source.read_text(), re.M))
    assert numbered == set(datc_ids())
