"""The set-ups' facts on the ledger (lots among groupings, the coin toss), the civil disorder of a
missed move by the rule set's reading (1971 XIV.3), and the short game stopped by the clock."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import text

from gamesmaster.gm import Gamesmaster, GMError, Settings
from gamesmaster.ledger import GENESIS, Entry, canonical, entry_hash, sha256

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
ASSIGN = dict(zip(NAMES, POWERS))


def rewrite(store, game: str, kind: str, change) -> None:
    """Change the payloads of one kind of entry and recompute every hash after it (a whole forged chain)."""
    with store.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(
            text("SELECT * FROM gm_ledger WHERE game_id=:g ORDER BY seq"), {"g": game})]
        prev = GENESIS
        for r in rows:
            payload = r["payload"]
            if r["kind"] == kind:
                payload = canonical(change(json.loads(payload)))
            e = Entry(r["seq"], r["at"], r["kind"], payload, prev, entry_hash(prev, r["seq"], r["kind"], r["at"],
                                                                              sha256(payload)))
            conn.execute(text("UPDATE gm_ledger SET payload=:p, prev_hash=:ph, hash=:h WHERE game_id=:g AND seq=:s"),
                         {"p": e.payload_text, "ph": e.prev_hash, "h": e.hash, "g": game, "s": e.seq})
            prev = e.hash
        conn.execute(text("UPDATE gm_games SET head_hash=:h WHERE id=:g"), {"h": prev, "g": game})


def process(gm: Gamesmaster, game: str) -> None:
    gm.deadlines.process(game, force=True)


# -- lots and the coin toss ------------------------------------------------------------------------------


def test_lots_are_drawn_among_the_groupings_and_a_forged_draw_is_caught(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    c = gm.setup.create_game("g4", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], seed=5)
    assert sorted(c.commands.values()) == [("AUSTRIA", "FRANCE"), ("ENGLAND",), ("GERMANY", "TURKEY"),
                                           ("ITALY", "RUSSIA")]
    seats = {s.name: s.powers for s in gm.games.game("g4").seats}
    assert seats == dict(c.commands)
    assert gm.record.verify("g4").ok
    ann = c.commands["Ann"]

    def swap(doc):
        other = next(n for n, lot in doc["powers"].items() if n != "Ann" and len(lot) == len(ann))
        doc["powers"]["Ann"], doc["powers"][other] = doc["powers"][other], doc["powers"]["Ann"]
        return doc
    if any(len(v) == len(ann) for n, v in c.commands.items() if n != "Ann"):
        rewrite(sqlite_store, "g4", "lots-drawn", swap)
        assert any("does not draw the recorded powers" in p for p in gm.record.verify("g4").problems)


def test_a_full_game_is_refused_a_fifth_player_and_neutral_powers_are_never_assigned(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("g", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], start=False)
    with pytest.raises(GMError, match="full: 4 players in this set-up"):
        gm.setup.join_game("g", "Eve")
    with pytest.raises(GMError, match="Italy is neutral in this set-up"):
        gm.setup.create_game("g6", variant="standard-6", players=NAMES[:6],
                       assign=dict(zip(NAMES[:6], ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA"])))


def play_wwi_to_1915(gm: Gamesmaster) -> dict[str, str]:
    c = gm.setup.create_game("ww", variant="standard-2", players=["Ann", "Bob"],
                       assign={"Ann": "Entente", "Bob": "Central Powers"})
    cred = {"ENTENTE": c.credentials["Ann"], "CENTRAL": c.credentials["Bob"]}
    gm.orders.submit_orders("ww", "France", "A Mar-Spa", credential=cred["ENTENTE"])
    process(gm, "ww")
    gm.orders.submit_orders("ww", "France", "A Spa-Por", credential=cred["ENTENTE"])
    process(gm, "ww")
    assert gm.games.game("ww").phase.title == "Winter 1914 adjustments"
    assert gm.games.game("ww").seats[0].powers == ("ENGLAND", "FRANCE", "RUSSIA")  # not yet joined
    gm.orders.submit_orders("ww", "France", "Build A Mar", credential=cred["ENTENTE"])
    assert gm.games.game("ww").phase.title == "Spring 1915 movement"
    return cred


def test_the_coin_toss_is_on_the_record_and_a_forged_toss_is_caught(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    play_wwi_to_1915(gm)
    h = gm.games.history("ww")
    toss = next(e for e in h.ledger if e.kind == "coin-tossed")
    joined = next(e for e in h.ledger if e.kind == "power-joined")
    assert toss.payload["phase"] == "W1914A" and toss.payload["joins"] == "S1915M"
    assert joined.payload["phase"] == "S1915M"
    winner = "Ann" if toss.payload["name"] == "Entente" else "Bob"
    seat = next(s for s in gm.games.game("ww").seats if s.name == winner)
    assert seat.powers[-1] == "ITALY"
    assert "ITALY" not in gm.games.game("ww").position.neutral
    assert any("The coin is tossed" in p.text and toss.payload["name"] in p.text for p in gm.press.public_press("ww"))
    assert gm.record.verify("ww").ok

    def forge(doc):
        doc["name"], doc["winner"] = next((n, w) for n, w in doc["sides"] if n != doc["name"])
        return doc
    rewrite(sqlite_store, "ww", "coin-tossed", forge)
    problems = gm.record.verify("ww").problems
    assert any("does not toss the recorded winner" in p for p in problems), problems


# -- civil disorder for a missed move (1971 XIV.3) --------------------------------------------------------------


def missed_fall(gm: Gamesmaster, rules: str) -> dict[str, str]:
    """France takes Spain in Spring 1901 and sends nothing for the Fall, when Germany, supported by
    England, dislodges its army in Picardy; France has gained Spain."""
    c = gm.setup.create_game("cd", players=NAMES, assign=ASSIGN, rules=rules)
    cred = {ASSIGN[n]: c.credentials[n] for n in NAMES}
    gm.orders.submit_orders("cd", "France", "A Par-Gas\nA Mar H\nF Bre H", credential=cred["FRANCE"])
    gm.orders.submit_orders("cd", "France", "A Par-Pic\nA Mar-Spa\nF Bre-Mao", credential=cred["FRANCE"])  # the set in force
    gm.orders.submit_orders("cd", "England", "F Lon-Eng", credential=cred["ENGLAND"])
    gm.orders.submit_orders("cd", "Germany", "A Mun-Bur", credential=cred["GERMANY"])
    gm.orders.submit_orders("cd", "Russia", "F Sev-Rum", credential=cred["RUSSIA"])  # Russia builds too: Winter waits for it
    process(gm, "cd")
    gm.orders.submit_orders("cd", "Russia", "F Rum H", credential=cred["RUSSIA"])
    gm.orders.submit_orders("cd", "England", "F Eng S GERMAN A Bur-Pic", credential=cred["ENGLAND"])
    gm.orders.submit_orders("cd", "Germany", "A Bur-Pic", credential=cred["GERMANY"])
    process(gm, "cd")
    return cred


def test_under_the_1971_rules_a_missed_fall_move_keeps_the_power_in_civil_disorder_for_the_season(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred = missed_fall(gm, "1971")
    # No retreat phase is held for France's army: it is disbanded, and France raises no unit for Spain.
    game = gm.games.game("cd")
    assert game.phase.title == "Winter 1901 adjustments"
    assert "FRANCE" not in [p.power for p in game.powers if p.to_order]
    fall_retreats = gm.games.results("cd")[-1]
    assert fall_retreats.phase.title == "Fall 1901 retreats" and "FRANCE" in fall_retreats.civil_disorder
    assert len(game.position.units_of("FRANCE")) == 2  # the army in Picardy was disbanded
    with pytest.raises(GMError, match=r"France sent no orders for the Fall move and is in civil disorder for the "
                                      r"season \(rulebook XIV\.3"):
        gm.orders.submit_orders("cd", "France", "Build A Par", credential=cred["FRANCE"])
    assert any("is in civil disorder for the season (rulebook XIV.3" in p.text for p in gm.press.public_press("cd"))
    gm.orders.submit_orders("cd", "Russia", "Build A Mos", credential=cred["RUSSIA"])  # processed at once: France cannot order
    assert len(gm.games.game("cd").position.units_of("FRANCE")) == 2  # Spain counted, nothing raised
    assert "FRANCE" in gm.games.results("cd")[-1].civil_disorder
    # He resumes with the next Spring orders.
    sub = gm.orders.submit_orders("cd", "France", "A Spa-Por", credential=cred["FRANCE"])
    assert gm.games.game("cd").phase.title == "Spring 1902 movement"
    assert sub.answers[0].status == "accepted"
    assert gm.record.verify("cd").ok


def test_under_the_2023_rules_a_missed_move_costs_that_move_only(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred = missed_fall(gm, "2023")
    assert gm.games.game("cd").phase.title == "Fall 1901 retreats"
    gm.orders.submit_orders("cd", "France", "A Pic-Par", credential=cred["FRANCE"])  # processed early: France alone
    assert gm.games.game("cd").phase.title == "Winter 1901 adjustments"
    gm.orders.submit_orders("cd", "France", "Build F Bre", credential=cred["FRANCE"])
    gm.orders.submit_orders("cd", "Russia", "Build A Mos", credential=cred["RUSSIA"])
    assert gm.games.game("cd").phase.title == "Spring 1902 movement"
    assert len(gm.games.game("cd").position.units_of("FRANCE")) == 4
    assert gm.record.verify("cd").ok


# -- the short game stopped by the clock (rulebook III) ----------------------------------------------------------


def test_the_short_game_stops_at_the_agreed_time_and_the_player_with_most_pieces_wins(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    end = clock.now + timedelta(hours=50)
    c = gm.setup.create_game("sg", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"],
                       assign={"Ann": "England", "Bob": "Austria/France", "Cat": "Germany/Turkey", "Dan": "Italy/Russia"},
                       settings=Settings.from_dict({"end_at": end.isoformat(), "schedule": {"hours": 72}}))
    assert gm.games.game("sg").settings.end_time == end
    assert gm.games.game("sg").deadline == end  # the schedule's deadline would fall later: the game stops first
    gm.deadlines.process("sg", force=True)  # Spring 1901, everybody holding
    assert gm.games.game("sg").deadline == end
    gm.orders.submit_orders("sg", "Russia", "A War-Gal", credential=c.credentials["Dan"])
    clock.set(end + timedelta(seconds=1))
    done = gm.deadlines.process_due()
    assert [p.action for p in done] == ["ended"]
    game = gm.games.game("sg")
    assert game.status == "finished" and game.result.kind == "short-game"
    # A player's pieces are those of every power he commands: Italy/Russia has seven, the pairs six, England three.
    assert game.result.winners == ("ITALY", "RUSSIA")
    assert "the game stopped at" in game.result.reason and "Italy/Russia (Dan) has the most pieces on the board (7)" \
        in game.result.reason
    assert game.result.headline == "Italy, Russia win the short game"
    assert any("The game is over" in p.text for p in gm.press.public_press("sg"))
    assert gm.games.results("sg")[-1].phase.title == "Spring 1901 movement"  # the Fall being written was not played
    assert gm.record.verify("sg").ok


def test_an_end_time_already_past_is_refused(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    with pytest.raises(GMError, match="has already passed"):
        gm.setup.create_game("late", players=NAMES, settings=Settings.from_dict({"end_at": (clock.now - timedelta(hours=1)).isoformat()}))


# -- victory counted for the player of a grouped set-up (rulebook XIV.2, III) --------------------------------------


def test_world_war_one_is_won_by_the_player_with_24_units_in_all(sqlite_store, clock):
    from gamesmaster.rules import Position
    from gamesmaster.variants import load_variant
    # England 8, France 8, Russia 8: no power has 24, the player has (XIV.2: "24 units actually on the board").
    units = {"ENGLAND": ["F LON", "F EDI", "A LVP", "A YOR", "A WAL", "F NTH", "F ENG", "F IRI"],
             "FRANCE": ["A PAR", "A MAR", "F BRE", "A BUR", "A GAS", "A PIC", "A BEL", "A SPA"],
             "RUSSIA": ["A MOS", "A WAR", "A STP", "F SEV", "A UKR", "A LVN", "A FIN", "A SWE"],
             "GERMANY": ["A BER"], "AUSTRIA": ["A VIE"], "TURKEY": ["A CON"]}
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("ww24", variant="standard-2", players=["Ann", "Bob"], assign={"Ann": "England", "Bob": "Austria"},
                   position=Position.from_dict(load_variant("standard-2"), {"phase": "S1920M", "units": units}))
    done = gm.deadlines.process("ww24", force=True)
    game = gm.games.game("ww24")
    side = next(s.powers for s in game.seats if s.name == "Ann")
    assert done[0].ended is not None and game.status == "finished" and game.result.kind == "victory"
    assert game.result.winners == side and {"ENGLAND", "FRANCE", "RUSSIA"} <= set(side)
    assert game.result.reason.endswith("(Ann) has 24 units on the board")
    assert gm.record.verify("ww24").ok


def test_the_short_game_by_the_year_goes_to_the_player_with_most_pieces(sqlite_store, clock):
    from gamesmaster.rules import Position
    from gamesmaster.variants import load_variant
    # Four players, --end-year 1902: Austria/France (Bob) has 3 + 3 pieces, England (Ann) 5.
    units = {"ENGLAND": ["F LON", "F EDI", "A LVP", "A NWY", "A BEL"], "AUSTRIA": ["A VIE", "A BUD", "A TRI"],
             "FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A BER"], "ITALY": ["A ROM"]}
    centres = {p: [u[2:] for u in us] for p, us in units.items()}
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("sy", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"],
                   assign={"Ann": "England", "Bob": "Austria/France", "Cat": "Germany/Turkey", "Dan": "Italy/Russia"},
                   settings=Settings.from_dict({"end_year": 1902}),
                   position=Position.from_dict(load_variant("standard-4"),
                                               {"phase": "F1902M", "units": units, "centers": centres}))
    gm.deadlines.process("sy", force=True)
    game = gm.games.game("sy")
    assert game.status == "finished" and game.result.kind == "short-game"
    assert game.result.winners == ("AUSTRIA", "FRANCE")
    assert "the game ends after 1902: Austria/France (Bob) has the most pieces on the board (6)" in game.result.reason
    assert gm.record.verify("sy").ok
