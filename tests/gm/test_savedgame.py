"""Saved games of the `diplomacy` package: exported so that the package reads every phase as gamesmaster has
it, imported by replaying every phase through this engine, with each phase whose result differs reported."""

from __future__ import annotations

import json
import random

import pytest
from diplomacy_venv import diplomacy_python, package_reads

from gamesmaster.cli import main
from gamesmaster.gm import Gamesmaster, GMError, Settings
from gamesmaster.gm.archive import play_sample
from gamesmaster.gm.savedgame import export_saved_game, import_saved_game
from gamesmaster.rules.possible import possible_orders

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def random_game(gm: Gamesmaster, game: str, seed: int, last_year: int) -> None:
    """Random legal orders (one power now and then sends none), some press, to the end of the short game."""
    created = gm.setup.create_game(game, players=NAMES, seed=seed, settings=Settings.from_dict({"press": "full", "end_year": last_year}))
    cred = {power: created.credentials[name] for name, power in created.powers.items()}
    rng = random.Random(seed)
    while gm.games.game(game).status != "finished":
        view = gm.games.game(game)
        for status in view.powers:
            if not status.to_order or rng.random() < 0.05:
                continue
            table = possible_orders(view.position, status.power, view.rules)
            orders = []
            for key, choices in table.items():
                if key == "adjust":
                    orders += [str(o) for o in choices[:rng.randint(0, 2)]]
                else:
                    moves = [o for o in choices if type(o).__name__ == "Move"]
                    orders.append(str(rng.choice(moves) if moves and rng.random() < 0.7 else rng.choice(choices)))
            gm.orders.submit_orders(game, status.power, orders, credential=cred[status.power])
        if rng.random() < 0.3:
            gm.press.post_press(game, f"Hello from France, {view.phase}", power="FRANCE", credential=cred["FRANCE"])
            gm.press.post_press(game, "Just between us", power="ITALY", to=["AUSTRIA"], credential=cred["ITALY"])
        if gm.games.game(game).phase == view.phase:
            gm.deadlines.process(game, force=True)


def phases_of(gm: Gamesmaster, game: str) -> list[dict]:
    """Every phase of a game as gamesmaster has it, in the shape diplomacy_reads.py writes."""
    view = gm.games.game(game)
    positions = [(str(r.phase), r.position) for r in gm.games.results(game)]
    positions.append(("COMPLETED" if view.result else str(view.phase), view.position))
    out = []
    for name, position in positions:
        powers = list(position.variant.powers)
        out.append({"name": name,
                    "units": {p: sorted(str(u) for u in position.units_of(p)) for p in powers},
                    "dislodged": {p: {str(d.unit): sorted(str(r) for r in d.retreats or ())
                                      for d in position.dislodged if d.unit.power == p}
                                  for p in powers if any(d.unit.power == p for d in position.dislodged)},
                    "centers": {p: sorted(position.centres_of(p)) for p in powers}})
    return out


@pytest.fixture(scope="module")
def package():
    return diplomacy_python()


@pytest.mark.parametrize("seed", [11, 12])
def test_random_games_round_trip(sqlite_store, clock, tmp_path, package, seed):
    gm = Gamesmaster(sqlite_store, clock)
    random_game(gm, "r", seed, 1905)
    doc = export_saved_game(gm, "r")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    read = package_reads(package, path)
    assert read["phases"] == phases_of(gm, "r")  # the package reads every phase as gamesmaster has it
    assert read["current"] == "COMPLETED"
    letters = sum(1 for p in gm.press.press("r") if p.to)  # the game is over: letters go in too, one copy per recipient
    public = sum(1 for p in gm.press.press("r") if not p.to)
    assert read["messages"] == public + letters
    assert read["orders"]["S1901M"] == {p: doc["phases"][0]["orders"][p] for p in doc["phases"][0]["orders"]}

    report = import_saved_game(gm, json.loads(path.read_text()), "r2")
    assert report.differing == () and report.stopped_at is None
    assert report.replayed == len(gm.games.results("r"))
    assert phases_of(gm, "r2")[:-1] == phases_of(gm, "r")[:-1]  # the imported game went the same way
    assert gm.games.game("r2").status == "paused" and gm.record.verify("r2").ok
    submitted = [e.payload for e in gm.games.history("r2").ledger if e.kind == "orders-submitted"]
    assert submitted and {(p["channel"], p["entered_by"]) for p in submitted} == {("import", "GM")}


def test_the_rulebook_sample_game_round_trips(sqlite_store, clock, tmp_path, package):
    gm = Gamesmaster(sqlite_store, clock)
    play_sample(gm)
    doc = export_saved_game(gm, "sample-1971")
    assert [p["name"] for p in doc["phases"]] == ["S1901M", "F1901M", "W1901A", "S1902M", "F1902M", "F1902R",
                                                  "W1902A", "S1903M"]
    path = tmp_path / "sample.json"
    path.write_text(json.dumps(doc))
    read = package_reads(package, path)
    assert read["phases"] == phases_of(gm, "sample-1971") and read["current"] == "S1903M"
    report = import_saved_game(gm, doc, "sample-again", rules="1971")
    assert report.differing == () and report.replayed == 7
    assert phases_of(gm, "sample-again") == phases_of(gm, "sample-1971")
    assert gm.record.verify("sample-again").ok


def test_a_phase_the_files_engine_ruled_otherwise_is_reported(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("v", players=NAMES, assign=dict(zip(NAMES, ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY",
                                                                        "ITALY", "RUSSIA", "TURKEY"])))
    gm.orders.submit_orders("v", "Italy", "A Ven - Tri VIA", by_gm=True)
    gm.orders.submit_orders("v", "Austria", "F Tri - Alb", by_gm=True)
    gm.deadlines.process("v", force=True)
    gm.orders.submit_orders("v", "France", "A Par - Bur", by_gm=True)
    gm.deadlines.process("v", force=True)
    doc = export_saved_game(gm, "v")
    # The file's engine moved the army overland, although it was ordered by convoy and no fleet carried it;
    # the file ends there, in Fall 1901, before anyone ordered.
    doc["phases"] = doc["phases"][:2]
    fall = doc["phases"][1]
    fall["state"]["units"]["ITALY"] = ["A ROM", "A TRI", "F NAP"]
    fall["orders"], fall["results"] = {p: None for p in fall["orders"]}, {}
    assert doc["phases"][0]["results"]["A VEN"] == ["no convoy"]
    doc["phases"][0]["results"]["A VEN"] = []  # moved, says the file
    report = import_saved_game(gm, doc, "v2")
    assert [d.phase for d in report.differing] == ["S1901M"]  # F1901M, from the file's own state, agrees
    diff = report.differing[0]
    assert diff.orders["ITALY"] == ("A VEN - TRI VIA",)
    assert "units only in the file: ITALY A TRI" in diff.differences
    assert any(r.startswith("Italy A VEN - TRI VIA: in the file it succeeded; here it fails") for r in diff.reasons)
    assert report.stopped_at and "ITALY A TRI" in report.stopped_at
    assert report.replayed == 1  # the game stops following the file where it parts from it
    view = gm.games.game("v2")
    assert str(view.phase) == "F1901M" and view.status == "paused" and gm.record.verify("v2").ok


@pytest.mark.parametrize("doc, words", [
    ({"map": "standard"}, "not a saved game"),
    ({"map": "modern", "phases": [{}]}, "only saved games on the standard map"),
    ({"map": "standard", "phases": []}, "has no phases"),
    ({"map": "standard", "phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A XYZ"]}}}]},
     "phase 1 (S1901M) of the saved game cannot be read: unit 'A XYZ' of FRANCE: unknown location"),
    ({"map": "standard", "phases": [{"name": "Spring", "state": {}}]}, "phase 1 (Spring)"),
])
def test_a_broken_saved_game_is_refused_naming_the_problem(sqlite_store, clock, doc, words):
    gm = Gamesmaster(sqlite_store, clock)
    with pytest.raises(GMError, match=words.replace("(", r"\(").replace(")", r"\)")):
        import_saved_game(gm, doc, "x")
    assert gm.games.game_ids() == []


def test_export_and_import_through_the_command_line(tmp_path, capsys, package):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    assert main(["import", "--sample", "--db", db]) == 0
    saved = tmp_path / "sample-saved.json"
    assert main(["export", "sample-1971", str(saved), "--format", "saved-game", "--db", db]) == 0
    read = package_reads(package, saved)
    assert read["current"] == "S1903M" and len(read["phases"]) == 8
    capsys.readouterr()
    assert main(["import", str(saved), "--as", "copy", "--rules", "1971", "--db", db]) == 0
    said = capsys.readouterr().out
    assert "Imported copy: 7 of the file's 7 adjudicated phases replayed" in said
    assert "Every phase of the file has the result this engine gives it." in said
    assert main(["verify", "copy", "--db", db]) == 0
    lines = tmp_path / "two.jsonl"
    lines.write_text(saved.read_text() + "\n" + saved.read_text() + "\n")
    assert main(["import", str(lines), "--db", db]) == 2
    assert "one saved game a file" in capsys.readouterr().err


def test_an_imported_game_is_browsed_on_the_site_like_any_other(site_gm, client):
    play_sample(site_gm)
    import_saved_game(site_gm, export_saved_game(site_gm, "sample-1971"), "copy", rules="1971")
    for url in ["/games/copy", "/games/copy/history", "/games/copy/record", "/games/copy/record/S1902M",
                "/api/games/copy", "/games/copy/record.json"]:
        assert client.get(url).status_code == 200, url
    page = client.get("/games/copy").text
    assert "Spring 1903 movement" in page and "France (imported)" in page


def test_the_scoring_system_goes_in_the_saved_game(sqlite_store, clock, tmp_path, package):
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("scored", players=NAMES, seed=1, settings=Settings.from_dict({"scoring": "sos"}))
    gm.setup.create_game("plain", players=NAMES, seed=1)
    gm.press.declare_draw("scored")
    doc = export_saved_game(gm, "scored")
    assert doc["scoring_system"] == "sum_of_squares" and "scoring_system" not in export_saved_game(gm, "plain")
    assert "Russia scores 22.86" in doc["phases"][-1]["state"]["note"]  # 100 x 16 / 70 at the start
    path = tmp_path / "scored.json"
    path.write_text(json.dumps(doc))
    assert package_reads(package, path)["current"] == "COMPLETED"  # the package's loader reads it as before
