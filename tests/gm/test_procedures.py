"""The gamesmaster's procedures (Brobdingnag #84, seed 004): stand-bys for a whole seat, the replacement
policy a preset brings, corrections until the next movement result, revisions after an early publication,
Graustark's automatic retreat in the results, and Armageddonia's removals waiting for the GM."""

from __future__ import annotations

import re

import pytest

from gamesmaster.cli import main
from gamesmaster.gm import Gamesmaster, GMError, Settings
from gamesmaster.gm.report import status
from gamesmaster.rules import Position
from gamesmaster.store import Store
from gamesmaster.variants import load_variant
from gamesmaster.web.app import create_app
from gamesmaster.web.security import SiteSecrets
from sitetools import post, site_client

FOUR = ["Ann", "Bob", "Cat", "Dan"]
PAIRS = {"Ann": "France", "Bob": "England", "Cat": "Germany", "Dan": "Italy"}  # Ann: Austria/France


def four_with_standbys(gm: Gamesmaster):
    c = gm.setup.create_game("g4", variant="standard-4", players=FOUR, assign=PAIRS, standbys=["Sam", "Tom"],
                       settings=Settings.from_dict({"replacement": "standby"}))
    return c.credentials


def order_everyone_but(gm: Gamesmaster, cred, skip: set[str]) -> None:
    seats = {s.name: s for s in gm.games.game("g4").seats}
    for name in FOUR:
        for power in seats[name].powers:
            if power in skip:
                continue
            units = gm.games.game("g4").position.to_dict()["units"].get(power, [])
            gm.orders.submit_orders("g4", power, "\n".join(f"{u} H" for u in units), credential=cred[name])


def holds(gm: Gamesmaster, power: str) -> str:
    return "\n".join(f"{u} H" for u in gm.games.game("g4").position.to_dict()["units"][power])


# -- stand-bys: a pair is one seat ------------------------------------------------------------------------


def test_a_stand_by_is_called_for_the_whole_seat_and_takes_it_over_whole(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred = four_with_standbys(gm)
    order_everyone_but(gm, cred, {"FRANCE"})  # Ann orders Austria and misses France
    gm.deadlines.process("g4", force=True)
    st = gm.games.game("g4")
    called = {p.power: p.standby for p in st.powers if p.standby}
    assert called == {"AUSTRIA": "Sam", "FRANCE": "Sam"}  # one stand-by, for the seat: Tom is still free
    assert any("Sam, the stand-by, is asked to send the next move for Austria/France" in p.text
               for p in gm.press.press("g4"))
    assert "stand-bys: Sam (for Austria/France), Tom" in status(st)
    # Ann sends nothing for Fall 1901; Sam sends the move for both powers: Sam takes the seat, both powers
    gm.orders.submit_orders("g4", "AUSTRIA", holds(gm, "AUSTRIA"), credential=cred["Sam"])
    gm.orders.submit_orders("g4", "FRANCE", holds(gm, "FRANCE"), credential=cred["Sam"])
    order_everyone_but(gm, cred, {"AUSTRIA", "FRANCE"})
    gm.deadlines.process("g4", force=True)
    seats = {s.name: (s.role, s.powers) for s in gm.games.game("g4").seats}
    assert seats["Sam"] == ("player", ("AUSTRIA", "FRANCE"))
    assert seats["Ann"][0] == "former" and seats["Tom"] == ("standby", ())
    assert gm.record.verify("g4").ok


def test_the_player_who_answers_for_any_power_of_his_seat_keeps_it_all(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred = four_with_standbys(gm)
    order_everyone_but(gm, cred, {"FRANCE"})
    gm.deadlines.process("g4", force=True)
    # Fall 1901: Ann orders Austria only; Sam ordered France. Ann keeps her seat; Sam's orders are not used.
    gm.orders.submit_orders("g4", "FRANCE", holds(gm, "FRANCE"), credential=cred["Sam"])
    order_everyone_but(gm, cred, {"FRANCE"})
    done = gm.deadlines.process("g4", force=True)
    assert done[0].civil_disorder == ("FRANCE",)
    seats = {s.name: (s.role, s.powers) for s in gm.games.game("g4").seats}
    assert seats["Ann"] == ("player", ("AUSTRIA", "FRANCE"))
    assert seats["Sam"][0] == "standby"
    assert gm.record.verify("g4").ok



# -- the replacement policy a magazine's preset brings ---------------------------------------------------


@pytest.mark.parametrize("preset, policy", [("graustark", "standby"), ("erehwon", "standby"),
                                            ("armageddonia", "gm"), ("brobdingnag", "successor"), ("1971", "none")])
def test_a_preset_brings_its_magazine_s_replacement_policy(sqlite_url, capsys, preset, policy):
    code = main(["new", "g", "--players", "Ann,Bob,Cat,Dan,Eve,Fay,Gus", "--rules", preset, "--db", sqlite_url])
    assert code == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["status", "g", "--db", sqlite_url]) == 0
    assert re.search(rf"replacement {policy}(,|\n)", capsys.readouterr().out)


def test_an_explicit_replacement_policy_overrides_the_preset_s_and_the_rules_page_shows_the_one_in_force(
        sqlite_url, capsys):
    assert main(["new", "g", "--players", "Ann,Bob", "--rules", "graustark", "--replacement", "none",
                 "--db", sqlite_url]) == 0
    assert main(["new", "h", "--players", "Ann,Bob", "--rules", "graustark", "--db", sqlite_url]) == 0
    store = Store(sqlite_url)
    try:
        client = site_client(create_app(Gamesmaster(store), SiteSecrets.for_testing("gm.test-credential-0123456789")))
        assert "Civil disorder until the gamesmaster replaces the player." in client.get("/games/g/rules").text
        assert "The first free stand-by is asked to send the next move" in client.get("/games/h/rules").text
    finally:
        store.dispose()


# -- Graustark's automatic retreat, in the published results ------------------------------------------------

# Seed 004 s16: the Austrian army in Bohemia dislodged, with Munich its only retreat.
ONE_WAY = {"phase": "S1901M",
           "units": {"AUSTRIA": ["A BOH", "A VIE", "A TYR"], "RUSSIA": ["A GAL", "A SIL"], "GERMANY": ["A BER"]},
           "centers": {"AUSTRIA": ["VIE", "BUD", "TRI"], "RUSSIA": ["WAR"], "GERMANY": ["BER", "MUN"]}}
SEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def seven_at(gm: Gamesmaster, rules: str, position: dict) -> dict[str, str]:
    """A seven-player game 'g' under these rules, from this position; each power's credential."""
    c = gm.setup.create_game("g", players=SEVEN, assign=dict(zip(SEVEN, POWERS)), rules=rules,
                       position=Position.from_dict(load_variant("standard"), position))
    return {power: c.credentials[n] for n, power in zip(SEVEN, POWERS)}


def test_graustark_s_automatic_retreat_is_in_the_published_results_explained(sqlite_url, capsys):
    store = Store(sqlite_url)
    gm = Gamesmaster(store)
    seven_at(gm, "graustark", ONE_WAY)
    gm.orders.submit_orders("g", "RUSSIA", "A Gal-Boh\nA Sil S A Gal-Boh", by_gm=True)
    gm.deadlines.process("g", force=True)
    result = gm.games.result("g", "S1901R")
    [made] = [r for r in result.results if r.by_rule]
    assert (made.power, made.order, made.result) == ("AUSTRIA", "A BOH R MUN", "succeeds")
    assert "Graustark's automatic retreat" in made.reason and "seed 004 s16" in made.reason
    # every door's view of the results says it: the console's history, the record page, the results mail
    assert main(["history", "g", "--db", sqlite_url]) == 0
    assert "A BOH R MUN succeeds (its only retreat, made by the gamesmaster" in capsys.readouterr().out
    client = site_client(create_app(gm, SiteSecrets.for_testing("gm.test-credential-0123456789")))
    page = client.get("/games/g/history?phase=S1901R").text
    assert "A BOH R MUN" in page and "automatic retreat" in page
    assert gm.record.verify("g").ok
    store.dispose()


# -- Armageddonia's removals wait for the GM, who is told what to decide -----------------------------------

# Winter 1901: Germany has two centres and three units, and sends nothing: one removal, the GM's to choose.
OWING = {"phase": "W1901A", "units": {"GERMANY": ["A BER", "A BUR", "A TYR"], "FRANCE": ["A PAR"]},
         "centers": {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR", "MAR", "BRE"]}}
GM_CREDENTIAL = "gm.test-credential-0123456789"


def test_removals_left_to_the_gm_are_shown_as_waiting_for_the_gm_on_the_console_and_the_game_page(sqlite_url, capsys):
    store = Store(sqlite_url)
    gm = Gamesmaster(store)
    seven_at(gm, "armageddonia", OWING)
    gm.orders.submit_orders("g", "FRANCE", "Build F Bre", by_gm=True)
    assert main(["process", "g", "--now", "--db", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert ("g: Winter 1901 adjustments waits for the gamesmaster, with no deadline: Germany owes 1 removal, and the "
            "rules leave the choice to the gamesmaster's judgment") in out
    assert "Enter the removals as Germany's orders (gamesmaster orders g POWER, or the GM console)" in out
    assert main(["status", "g", "--db", sqlite_url]) == 0
    assert "waiting for the gamesmaster: Winter 1901 adjustments waits" in capsys.readouterr().out
    client = site_client(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL)))
    assert "Waiting for the gamesmaster&#39;s choice of removals (1 for Germany)" in client.get("/games/g").text
    assert client.get("/api/games/g").json()["awaiting"] == "the gamesmaster's choice of removals (1 for Germany)"
    post(client, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
    page = client.get("/gm/games/g").text
    assert "Waiting for your decision" in page and "Germany owes 1 removal" in page
    # the GM decides: the phase goes on, and nothing waits any more
    gm.orders.submit_orders("g", "GERMANY", "Remove A Tyr", by_gm=True)
    gm.deadlines.process("g", force=True)
    assert gm.games.game("g").awaiting is None and "Waiting for" not in client.get("/games/g").text
    assert client.get("/api/games/g").json()["awaiting"] is None
    assert gm.record.verify("g").ok
    store.dispose()


# -- corrections until the next movement result is published (procedure 5) --------------------------------

def retreat_published_early(gm: Gamesmaster) -> dict[str, str]:
    """Russia dislodges the Austrian army in Bohemia (ONE_WAY, under 2023: Austria orders its retreat), Austria's
    retreat publishes the retreats at once, and Germany has sent orders for the Fall."""
    cred = seven_at(gm, "2023", ONE_WAY)
    gm.orders.submit_orders("g", "RUSSIA", "A Gal-Boh\nA Sil S A Gal-Boh", credential=cred["RUSSIA"])
    gm.deadlines.process("g", force=True)
    sub = gm.orders.submit_orders("g", "AUSTRIA", "A Boh-Mun", credential=cred["AUSTRIA"])
    assert sub.processed == ("S1901R",) and str(gm.games.game("g").phase) == "F1901M"  # the retreat published early
    gm.orders.submit_orders("g", "GERMANY", "A Ber-Kie", credential=cred["GERMANY"])  # Fall orders already sent
    return cred


def test_the_movement_behind_a_retreat_published_early_can_be_corrected_and_what_followed_is_withdrawn(
        store_url, tmp_path, capsys):
    store = Store(store_url)  # SQLite and PostgreSQL: the withdrawn phases' rows are superseded in the store
    gm = Gamesmaster(store)
    retreat_published_early(gm)
    slip = tmp_path / "russia.txt"
    slip.write_text("A Gal-Boh\nA Sil H\n")  # the slip had no support: the attack on Bohemia fails
    assert main(["correct", "g", "--phase", "S1901M", "--reason", "transcription: Russia's slip reads A Sil H",
                 "--orders", "Russia", str(slip), "--db", store_url]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "Spring 1901 movement corrected" in out and "Now: Fall 1901 movement" in out
    units = gm.games.game("g").position.to_dict()["units"]
    assert "A BOH" in units["AUSTRIA"] and "A MUN" not in units["AUSTRIA"]  # the retreat withdrawn with the phase
    assert [str(r.phase) for r in gm.games.results("g")] == ["S1901M"]  # Spring 1901 retreats is no longer published
    assert gm.orders.orders_on_record("g", "GERMANY", by_gm=True)[0].orders == ("A Ber-Kie",)  # the Fall's orders stand
    assert any("What was published since (Spring 1901 retreats) is withdrawn" in p.text for p in gm.press.press("g"))
    assert gm.record.verify("g").ok
    store.dispose()


def test_what_followed_a_corrected_movement_stands_when_it_started_from_the_same_position(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    retreat_published_early(gm)
    # by the GM console's form, naming the phase: Austria's army bounces, and the position after is the same
    client = site_client(create_app(gm, SiteSecrets.for_testing(GM_CREDENTIAL)))
    post(client, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
    r = post(client, "/gm/games/g/correct", {"reason": "transcription: Austria's slip had A Vie-Boh", "phase": "S1901M",
                                             "power": "AUSTRIA", "orders": "A Vie-Boh\nA Tyr H\nA Boh H"}, "/gm/games/g")
    assert r.status_code == 200 and "Spring 1901 movement corrected" in r.text, r.text[-2000:]
    assert "What was published since (Spring 1901 retreats) stands" in gm.press.press("g")[-1].text
    assert [str(r.phase) for r in gm.games.results("g")] == ["S1901M", "S1901R"]
    assert gm.games.results("g")[0].revision == 1 and "A MUN" in gm.games.game("g").position.to_dict()["units"]["AUSTRIA"]
    assert gm.orders.orders_on_record("g", "GERMANY", by_gm=True)[0].orders == ("A Ber-Kie",)
    assert gm.record.verify("g").ok


def test_a_movement_result_stands_once_the_next_movement_result_is_published(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    retreat_published_early(gm)
    gm.deadlines.process("g", force=True)  # Fall 1901 movement published
    with pytest.raises(GMError, match="Spring 1901 movement stands: Fall 1901 movement has been published since"):
        gm.corrections.correct("g", "too late", phase="S1901M", orders={"RUSSIA": "A Gal-Boh\nA Sil H"})
    with pytest.raises(GMError, match="Spring 1901 retreats stands"):
        gm.corrections.correct("g", "too late", phase="S1901R", orders={"AUSTRIA": "A Boh-Sil"})
