"""A game's scoring system: chosen at creation, recorded at the end, recomputed by verify (both stores)."""

from __future__ import annotations

import json

import pytest

from gamesmaster.gm import Gamesmaster, GMError, Settings

from test_tamper import ASSIGN, NAMES, Game
from test_tamper_more import problem, rechain


class Scored:
    """A game of seven players under a scoring system, with test_tamper's ways to reach the database."""

    rows, entries, sql = Game.rows, Game.entries, Game.sql

    def __init__(self, store, clock, scoring: str) -> None:
        self.store = store
        self.gm = Gamesmaster(store, clock)
        self.gm.setup.create_game("t", players=NAMES, assign=ASSIGN, settings=Settings.from_dict({"scoring": scoring}))


def test_a_declared_draw_records_its_scores_and_verify_agrees(store, clock):
    g = Scored(store, clock, "dss")
    view = g.gm.games.game("t")
    assert view.settings.scoring == "dss"
    g.gm.press.declare_draw("t", powers=["ENGLAND", "FRANCE", "GERMANY"])
    ended = json.loads(next(r for r in g.entries() if r["kind"] == "game-ended")["payload"])
    assert ended["scores"] == {"AUSTRIA": 0, "ENGLAND": 33.33, "FRANCE": 33.33, "GERMANY": 33.33, "ITALY": 0,
                               "RUSSIA": 0, "TURKEY": 0}
    assert dict(g.gm.games.game("t").result.scores) == ended["scores"]
    assert g.gm.record.verify("t").ok


def test_verify_catches_a_tampered_score(store, clock):
    g = Scored(store, clock, "sos")
    g.gm.press.declare_draw("t")
    assert g.gm.record.verify("t").ok

    def inflate(row, payload):
        if row["kind"] == "game-ended":
            payload["scores"]["ENGLAND"] = 60.0
        return payload

    out = rechain(g, inflate)  # at the start: 3 centres each, Russia 4; 100 x 9 / (6 x 9 + 16) = 12.86
    seq = next(e.seq for e in out if e.kind == "game-ended")
    report = g.gm.record.verify("t")
    assert not report.ok
    assert problem(report, seq, "game-ended", "ENGLAND: 60.0 recorded, 12.86 computed"), report.problems


def test_a_game_without_scoring_records_as_before(store, clock):
    g = Scored(store, clock, "none")
    created = json.loads(next(r for r in g.entries() if r["kind"] == "game-created")["payload"])
    assert "scoring" not in created["settings"]
    g.gm.press.declare_draw("t")
    ended = json.loads(next(r for r in g.entries() if r["kind"] == "game-ended")["payload"])
    assert "scores" not in ended and g.gm.record.verify("t").ok


def test_a_tournament_system_is_refused_for_the_nine_player_map(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    with pytest.raises(GMError, match="Carnage is defined for the standard board of 7 powers and 34"):
        gm.setup.create_game("nine", variant="nine-man", settings=Settings.from_dict({"scoring": "carnage"}))
    gm.setup.create_game("nine", variant="nine-man", settings=Settings.from_dict({"scoring": "sos"}))


def test_an_unknown_system_is_named():
    with pytest.raises(GMError, match="unknown scoring system 'elo': choose none, dss"):
        Settings.from_dict({"scoring": "elo"})


def test_the_console_creates_a_scored_game_and_its_final_report_shows_the_scores(gm_cli):
    code, out, err = gm_cli("new", "cup", "--players", "A,B,C,D,E,F,G", "--seed", "1", "--scoring", "dss")
    assert code == 0, err
    assert "scores if the game ended now (dss): Austria 14.29, England 14.29" in out
    assert gm_cli("draw", "cup", "--declare")[0] == 0
    code, out, _ = gm_cli("status", "cup")
    assert "Final report: Draw" in out and "score 14.29" in out
    code, _, err = gm_cli("new", "nine", "--variant", "nine-man", "--scoring", "tribute")
    assert code == 2 and "Tribute is defined for the standard board" in err


def test_a_concession_scores_as_a_solo_and_verifies(store, clock):
    g = Scored(store, clock, "carnage")
    number = g.gm.press.propose("t", kind="concession", concede_to="france", by_gm=True, power="ENGLAND")
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"):
        if g.gm.games.game("t").status != "finished":
            g.gm.press.vote("t", number, True, power=power, by_gm=True)
    result = g.gm.games.game("t").result
    assert result.kind == "concession" and dict(result.scores) == {
        "AUSTRIA": 0, "ENGLAND": 0, "FRANCE": 28034, "GERMANY": 0, "ITALY": 0, "RUSSIA": 0, "TURKEY": 0}
    assert g.gm.record.verify("t").ok
