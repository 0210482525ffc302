"""`gamesmaster adjudicate` as other programs use it: a real process, JSON in and out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gamesmaster.cli", "adjudicate", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_the_example_spring_1901() -> None:
    done = subprocess.run([sys.executable, "-m", "gamesmaster.cli", "adjudicate", str(ROOT / "examples" / "spring1901.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    results = {o["text"]: o["result"] for o in out["orders"]}
    # The rulebook: all succeed except the two to the Black Sea and the two to Galicia.
    failed = sorted(t for t, r in results.items() if r != "succeeds")
    assert failed == ["A Bud.--Gal.", "A War.--Gal.", "F Ank.--Bla.", "F Sev.--Bla."]
    assert out["next"]["phase"] == "F1901M"
    assert out["next"]["units"]["ENGLAND"] == ["F NTH", "F NWG", "A YOR"]
    assert out["winner"] is None


def test_output_schema_and_canonical_orders() -> None:
    doc = {"phase": "S1901M", "units": {"england": ["F LON", "a lvp"]}, "orders": {"England": ["F Lon-Nth", "A Liv.--Yor."]}}
    out = json.loads(run([], json.dumps(doc)).stdout)
    assert [(o["power"], o["order"], o["result"], o["reason"]) for o in out["orders"]] == [
        ("ENGLAND", "F LON - NTH", "succeeds", "moved"), ("ENGLAND", "A LVP - YOR", "succeeds", "moved")]
    assert set(out) == {"phase", "orders", "dislodged", "next", "winner"}
    assert set(out["next"]) >= {"variant", "rules", "phase", "units", "centers", "dislodged", "standoffs"}


def test_retreat_phase_next_lists_dislodged_units_with_their_retreats() -> None:
    doc = {"phase": "F1901M", "units": {"GERMANY": ["A SIL", "A BER"], "RUSSIA": ["A PRU", "A WAR"]},
           "orders": {"RUSSIA": ["A Pru-Sil", "A War S A Pru-Sil"]}}
    out = json.loads(run([], json.dumps(doc)).stdout)
    assert out["next"]["phase"] == "F1901R"
    (entry,) = out["next"]["dislodged"]["GERMANY"]
    assert entry["unit"] == "A SIL" and entry["attacker"] == "PRU"
    assert entry["retreats"] == ["BOH", "GAL", "MUN"]
    # and the retreat phase itself, fed back in
    nxt = dict(out["next"], orders={"GERMANY": ["A Sil R Boh"]})
    out2 = json.loads(run([], json.dumps(nxt)).stdout)
    assert out2["orders"][0]["result"] == "succeeds"
    assert "A BOH" in out2["next"]["units"]["GERMANY"]


def test_malformed_input_exits_2_with_one_line_naming_the_problem() -> None:
    for text, words in [("not json", "not JSON"), ('{"variant": "mars"}', "unknown variant"),
                        ('{"variant": "../../../etc/passwd"}', "unknown variant"), ('{"variant": {"a": 1}}', "variant must be a name"),
                        ('{"rules": "1066"}', "unknown rule preset"), ('{"units": {"NARNIA": []}}', "unknown power"),
                        ('{"units": {"FRANCE": ["A XYZ"]}}', "unknown location"),
                        ('{"units": {"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}}', "two units in one space"),
                        ('{"phase": "Spring"}', "does not parse"), ('[1, 2]', "JSON object"),
                        ('{"destroyed": {"\\n": null}}', "must be a count of units")]:
        done = run([], text)
        assert done.returncode == 2, text
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (text, done.stderr)


def test_an_unreadable_order_is_not_an_input_error() -> None:
    doc = {"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A Par flies to the moon"]}}
    done = run([], json.dumps(doc))
    assert done.returncode == 0
    (o,) = json.loads(done.stdout)["orders"]
    assert o["result"] == "invalid" and "flies" in o["reason"] and o["order"] is None


def test_lines_mode_answers_every_line_in_order() -> None:
    lines = [json.dumps({"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A Par-Bur"]}}),
             "{broken", json.dumps({"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR", "BRE"]},
                                    "orders": {"FRANCE": ["Build F Bre"]}})]
    done = run(["--lines"], "\n".join(lines) + "\n")
    assert done.returncode == 0
    outs = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(outs) == 3
    assert outs[0]["orders"][0]["result"] == "succeeds"
    assert "error" in outs[1] and "not JSON" in outs[1]["error"]
    assert outs[2]["orders"][0]["order"] == "F BRE B" and outs[2]["next"]["phase"] == "S1902M"


def test_two_orders_for_one_unit_are_both_invalid() -> None:
    doc = {"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A Par-Bur", "A Par-Pic"]}}
    out = json.loads(run([], json.dumps(doc)).stdout)
    assert [o["result"] for o in out["orders"]] == ["invalid", "invalid"]
    assert "two different orders for A PAR" in out["orders"][0]["reason"]
    assert out["next"]["units"]["FRANCE"] == ["A PAR"]


def test_civil_disorder_removals_are_named() -> None:
    # DATC 6.J.3: Russia must remove one, orders none: the army farthest from St Petersburg goes.
    doc = {"phase": "W1901A", "units": {"RUSSIA": ["A LVN", "A SWE"]}, "centers": {"RUSSIA": ["STP"]}}
    out = json.loads(run([], json.dumps(doc)).stdout)
    assert out["civil_disorder_removals"] == {"RUSSIA": ["A SWE"]}
    assert out["next"]["units"]["RUSSIA"] == ["A LVN"]


def test_lines_mode_answers_each_phase_before_the_next_is_sent() -> None:
    # A bot sends a phase, waits for its answer, and only then sends the next one.
    proc = subprocess.Popen([sys.executable, "-m", "gamesmaster.cli", "adjudicate", "--lines"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        doc = {"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A Par-Bur"]}}
        for _ in range(2):
            proc.stdin.write(json.dumps(doc) + "\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            assert answer["orders"][0]["result"] == "succeeds"
            doc = dict(answer["next"], orders={"FRANCE": ["A Bur-Mun"]})
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0
