"""Export and import of a whole game as one JSON archive; the rulebook's sample game as a demo."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

from gamesmaster.gm import GMError, Gamesmaster, RuleSpec, Settings
from gamesmaster.gm.archive import export_game, import_game, import_sample, sample_data

CASES = Path(__file__).resolve().parents[1] / "cases"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def played(gm):
    c = gm.setup.create_game("x", players=NAMES, standbys=["Sam"], seed=7, settings=Settings.from_dict({"replacement": "standby"}))
    who = {p: n for n, p in c.powers.items()}
    gm.orders.submit_orders("x", "FRANCE", "A Par-Bur\nnext season:\nif A Par - Bur succeeds: A Bur - Mun\notherwise: A Par H",
                     credential=c.credentials[who["FRANCE"]])
    gm.press.post_press("x", "Hello Germany", power="FRANCE", to=["GERMANY"], credential=c.credentials[who["FRANCE"]])
    gm.press.propose("x", credential=c.credentials[who["ITALY"]])
    gm.deadlines.process("x", force=True)
    gm.press.propose("x", credential=c.credentials[who["ITALY"]])
    return c


def test_export_then_import_under_a_new_id(store, clock):
    gm = Gamesmaster(store, clock)
    c = played(gm)
    doc = json.loads(json.dumps(export_game(gm, "x")))  # through JSON text and back
    assert doc["format"] == "gamesmaster-archive" and len(doc["ledger"]) > 20
    assert import_game(gm, doc, "y", seated=True) == "y"  # the GM says: the copy keeps the original's seats
    a, b = gm.games.game("x"), gm.games.game("y")
    for key in ("phase", "status", "position", "deadline", "powers", "rules", "settings", "seats", "head"):
        assert getattr(a, key) == getattr(b, key), key
    assert gm.games.history("y").phases[0].results == gm.games.history("x").phases[0].results
    assert gm.record.verify("y").ok
    # the players' credentials still work in the copy
    france = next(n for n, p in c.powers.items() if p == "FRANCE")
    assert gm.orders.orders_on_record("y", "FRANCE", credential=c.credentials[france])[0].orders == ("A Bur - Mun",)
    with pytest.raises(GMError, match="already a game"):
        import_game(gm, doc)


def test_a_damaged_archive_is_refused(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    played(gm)
    doc = export_game(gm, "x")
    bad = copy.deepcopy(doc)
    entry = next(e for e in bad["ledger"] if e["kind"] == "orders-submitted")
    entry["payload"] = entry["payload"].replace("A Par-Bur", "A Par-Pic")
    with pytest.raises(GMError, match=f"ledger entry {entry['seq']}"):
        import_game(gm, bad, "z")
    with pytest.raises(GMError, match="not a gamesmaster archive"):
        import_game(gm, {"game": {}}, "z")
    assert gm.games.game_ids() == ["x"]


def test_the_rulebook_sample_game_as_a_demo(store, clock):
    gm = Gamesmaster(store, clock)
    assert import_sample(gm) == "sample-1971"
    st = gm.games.game("sample-1971")
    assert st.status == "paused" and str(st.phase) == "S1903M" and st.rules_spec == RuleSpec("1971")
    phases = gm.games.results("sample-1971")
    case = next(c for c in tomllib.loads((CASES / "rulebook_1971.toml").read_text(encoding="utf-8"))["case"]
                if c["id"] == "sample-game")
    assert [str(p.phase) for p in phases] == [s["phase"] for s in case["step"]]
    for phase, step in zip(phases, case["step"]):
        got: dict[str, list[str]] = {}
        for r in phase.results:
            got.setdefault(r.power, []).append(r.result)
        assert got == step["results"], phase.phase
        assert all(info.source == "gm" for info in phase.orders.values())
    assert sample_data()["steps"][0]["orders"]["ENGLAND"][0] == "A Liv.—Yor."
    assert gm.record.verify("sample-1971").ok
