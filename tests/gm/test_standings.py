"""A club's standings, reliability and ratings, read from the games' ledgers (both stores)."""

from __future__ import annotations

import re

import pytest

from gamesmaster.gm import Gamesmaster, GMError, Settings
from gamesmaster.store.accounts import AccountRecords

from test_tamper import ASSIGN, NAMES, Game
from test_tamper_more import rechain

SITE = "https://club.test"


def test_reliability_counts_orders_on_time_missed_phases_and_a_replacement(store, clock):
    gm = Gamesmaster(store, clock)
    cred = gm.setup.create_game("r", players=NAMES, assign=ASSIGN).credentials
    gm.orders.submit_orders("r", "ENGLAND", "F LON H", credential=cred["Ann"])  # the six others miss Spring 1901
    gm.deadlines.process("r", force=True)
    gm.players.replace_player("r", "FRANCE", "Hal", reason="Bob went quiet")
    gm.orders.submit_orders("r", "ENGLAND", "F LON H", credential=cred["Ann"])
    gm.orders.submit_orders("r", "FRANCE", "A PAR H", by_gm=True)
    gm.deadlines.process("r", force=True)
    ann, bob, hal = (gm.club.reliability(f"name:{n}") for n in ("ann", "bob", "hal"))
    assert (ann.ordered, ann.missed, ann.left, ann.replacement) == (2, 0, 0, 0)
    assert (bob.ordered, bob.missed, bob.left) == (0, 1, 1)
    assert (hal.ordered, hal.missed, hal.replacement) == (1, 0, 1)
    assert ann.percent == 100.0 and bob.percent == 0.0
    assert "as a replacement" in hal.text()
    record = gm.club.player_record("name:bob")
    assert [(x.game_id, x.powers, x.outcome) for x in record.lines] == [("r", ("FRANCE",), "left")]


def _draw_game(gm: Gamesmaster, game_id: str, powers: list[str], scoring: str = "dss") -> None:
    gm.setup.create_game(game_id, players=NAMES, assign=ASSIGN, settings=Settings.from_dict({"scoring": scoring}))
    gm.press.declare_draw(game_id, powers=powers)


def test_standings_add_up_scores_and_a_league_counts_only_its_games(store, clock):
    gm = Gamesmaster(store, clock)
    _draw_game(gm, "a", ["ENGLAND", "FRANCE"])
    _draw_game(gm, "b", ["ENGLAND"])
    _draw_game(gm, "c", ["FRANCE", "GERMANY", "ITALY", "AUSTRIA"])
    gm.club.add_to_league("Autumn Cup", ["a", "b"])
    rows = {s.name: s for s in gm.club.standings()}
    assert (rows["Ann"].total, rows["Ann"].average, len(rows["Ann"].games)) == (150.0, 50.0, 3)
    assert rows["Bob"].total == 75.0
    assert [s.name for s in gm.club.standings()][:2] == ["Ann", "Bob"]
    cup = {s.name: s.total for s in gm.club.standings("Autumn Cup")}
    assert cup["Ann"] == 150.0 and cup["Bob"] == 50.0 and cup["Cat"] == 0.0
    assert [s.name for s in gm.club.standings(sort="name")][0] == "Ann"
    assert gm.club.leagues() == ["Autumn Cup"]
    with pytest.raises(GMError, match="sort by 'nonsense': choose total"):
        gm.club.standings(sort="nonsense")
    with pytest.raises(GMError, match="no league 'Spring'"):
        gm.club.standings("Spring")


def test_a_rating_shows_after_five_games_and_follows_a_corrected_result(store, clock):
    g = Game(store, clock)
    g.gm.press.declare_draw("t", powers=["ENGLAND"])
    for n in range(4):
        _draw_game(g.gm, f"g{n}", ["ENGLAND", "FRANCE"])
    ladder = g.gm.club.ladder()
    assert [r.name for r in ladder][:2] == ["Ann", "Bob"] and all(r.games == 5 for r in ladder)
    before = g.gm.club.player_record("name:ann").rating
    assert before is not None

    def to_russia(row, payload):  # the result of game t corrected: Russia won, not England
        if row["kind"] == "game-ended":
            payload["winners"] = ["RUSSIA"]
        return payload

    rechain(g, to_russia)
    after = g.gm.club.player_record("name:ann").rating
    assert after is not None and after.ordinal < before.ordinal
    assert g.gm.club.player_record("name:fay").rating.ordinal > g.gm.club.player_record("name:gus").rating.ordinal


def test_an_open_game_refuses_a_player_below_its_minimum_and_says_why(store, clock):
    gm = Gamesmaster(store, clock)
    gm.setup.create_game("g", players=NAMES[:5], start=False, settings=Settings.from_dict({"min_games": 1}))
    gm.joining.open_seats("g", True, "lot")
    gm.setup.create_game("h", players=NAMES[:5], start=False, settings=Settings.from_dict({"min_reliability": 80}))
    gm.joining.open_seats("h", True, "lot")
    gm.accounts.sign_up("zed@players.test", "Zed", SITE)
    with gm.desk.reading() as rec:
        text = AccountRecords(rec.conn).to_mail()[0].text
    account = gm.accounts.use_link(re.search(r"t=(l\.\S+)", text).group(1)).account
    with pytest.raises(GMError, match="g takes players with at least 1 finished games; you have 0"):
        gm.joining.join_open("g", account.id)
    with pytest.raises(GMError, match="ordered at least 80% of their phases on time; you have no phases on record"):
        gm.joining.join_open("h", account.id)
    assert all(s.name != "Zed" for s in gm.games.game("g").seats)


def test_the_console_names_a_league_and_shows_its_standings(gm_cli):
    for game in ("a", "b"):
        assert gm_cli("new", game, "--players", "A,B,C,D,E,F,G", "--seed", "1", "--scoring", "dss")[0] == 0
        assert gm_cli("draw", game, "--declare")[0] == 0
    code, out, err = gm_cli("league", "add", "Winter Cup", "a", "nosuchgame")
    assert code == 2 and "no game 'nosuchgame'" in err
    code, out, err = gm_cli("league", "add", "Winter Cup", "a")
    assert code == 0 and "a added to Winter Cup" in out, err
    assert gm_cli("league", "list")[1] == "Winter Cup\n"
    code, out, err = gm_cli("standings", "--league", "Winter Cup")
    assert code == 0 and "  1  A " in out and "14.29" in out, err
    code, out, err = gm_cli("standings", "--rebuild", "--sort", "name")
    assert code == 0 and "the standings of 2 games were written again" in out and "28.58" in out, err
    code, out, err = gm_cli("league", "add", "x" * 41, "a")
    assert code == 2 and "a league's name is 1 to 40 characters" in err


def test_verify_names_a_changed_standings_line_and_rebuild_restores_it(store, clock):
    g = Game(store, clock)
    g.gm.press.declare_draw("t", powers=["ENGLAND"])
    assert g.gm.record.verify("t").ok
    g.sql("UPDATE gm_standings SET score = 99 WHERE game_id = 't' AND player = 2")
    report = g.gm.record.verify("t")
    assert not report.ok and any("standings table's line for Bob (player 2) differs" in p for p in report.problems)
    g.gm.desk.rebuild("t")
    assert g.gm.record.verify("t").ok


def test_games_recorded_before_the_table_existed_get_their_lines_on_the_next_reading(store, clock):
    g = Game(store, clock)
    g.gm.press.declare_draw("t", powers=["ENGLAND", "FRANCE"])
    g.sql("DELETE FROM gm_standings")  # as the migration leaves it: the table made empty beside old games
    assert g.gm.record.verify("t").ok  # nothing written yet is nothing wrong
    fresh = Gamesmaster(store, clock)
    assert {s.name: s.total for s in fresh.club.standings()}["Ann"] == 0.0
    assert [x.outcome for x in fresh.club.player_record("name:bob").lines] == ["drew"]
    assert g.gm.record.verify("t").ok
