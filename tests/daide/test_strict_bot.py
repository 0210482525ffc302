"""What a bot that follows the DAIDE protocol to the letter is told, and in what order.

Each test plays a turn from a position set up for it, through the door on loopback,
and reads every message the bot is sent after it: the order results (`ORD`, with a
convoyed move's route and `DSR` only for a convoyed move), each turn's `SCO` and `NOW`
(a retreat turn settled at once too), `TME` after each turn of a timed game, the end
(`SLO`, `SMR` naming the bots as they named themselves and the turn last played)."""

from __future__ import annotations

import threading

import pytest
from daideclient import Link, sit
from doortools import door, until

from gamesmaster.gm import GMError, Settings
from gamesmaster.rules import Position
from gamesmaster.variants import load_variant

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
HOMES = {"AUSTRIA": ["VIE", "BUD", "TRI"], "ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["PAR", "BRE", "MAR"],
         "GERMANY": ["BER", "KIE", "MUN"], "ITALY": ["ROM", "NAP", "VEN"], "RUSSIA": ["MOS", "WAR", "SEV", "STP"],
         "TURKEY": ["CON", "ANK", "SMY"]}


def game_at(gm, phase: str, units: dict[str, list[str]], centres: dict[str, list[str]] | None = None,
            **settings) -> dict[str, str]:
    """A seven-player game from this position; each power's credential."""
    position = {"phase": phase, "units": units, "centers": centres or HOMES}
    created = gm.setup.create_game("g", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                             settings=Settings.from_dict({"press": "full", **settings}),
                             position=Position.from_dict(load_variant("standard"), position))
    return {p: created.credentials[n] for n, p in zip(NAMES, POWERS)}


def told_until(link: Link, last: str) -> list[str]:
    """Every message up to and including the first that starts with `last`."""
    told = [link.recv(10)]
    while not told[-1].startswith(last):
        told.append(link.recv(10))
    return told


def settled(link: Link) -> None:
    """Wait until the door has done with the bot's last request (it answers the next one only then)."""
    link.send("MAP")
    link.expect("MAP")


def kinds(told: list[str]) -> list[str]:
    """The messages' first tokens, runs of ORD counted once (the gamesmaster's ADMs left out)."""
    out: list[str] = []
    for m in told:
        if m.startswith("ADM"):
            continue
        if not (m.startswith("ORD") and out and out[-1] == "ORD"):
            out.append(m[:3])
    return out


def test_convoyed_moves_are_told_with_their_route_and_only_they_are_disrupted(gm):
    creds = game_at(gm, "S1901M", {"ENGLAND": ["A EDI", "F NWG", "A LON", "F NTH"], "FRANCE": ["A PIC"],
                                   "GERMANY": ["A MUN"], "ITALY": ["A ROM"], "AUSTRIA": ["A VIE"],
                                   "RUSSIA": ["A MOS"], "TURKEY": ["A CON"]})
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Albert {creds['ENGLAND']}")
        bot.expect("NOW")
        bot.send("SUB ((ENG AMY EDI) CTO NWY VIA (NWG)) ((ENG FLT NWG) CVY (ENG AMY EDI) CTO NWY) "
                 "((ENG AMY LON) CTO BEL VIA (NTH)) ((ENG FLT NTH) CVY (ENG AMY LON) CTO BEL)")
        bot.expect("MIS")
        gm.orders.submit_orders("g", "FRANCE", "A Pic - Bel", credential=creds["FRANCE"])
        gm.deadlines.process("g", force=True)
        told = told_until(bot, "TME")
        assert "ORD (SPR 1901) ((ENG AMY EDI) CTO NWY VIA (NWG)) (SUC)" in told
        assert "ORD (SPR 1901) ((ENG AMY LON) CTO BEL VIA (NTH)) (BNC)" in told
        # The fleet convoyed; its army bounced in Belgium: the convoy was not disrupted.
        assert "ORD (SPR 1901) ((ENG FLT NTH) CVY (ENG AMY LON) CTO BEL) (SUC)" in told
        assert kinds(told) == ["ORD", "SCO", "NOW", "TME"] and told[-2].startswith("NOW (FAL 1901)")
        assert told[-1] == "TME (8191)"  # 72 hours to the next deadline: more than a DAIDE integer holds


def test_a_retreat_turn_settled_at_once_is_told_as_a_turn(gm):
    creds = game_at(gm, "S1901M", {"GERMANY": ["A MUN", "A BOH"], "AUSTRIA": ["A TYR", "A VIE", "F TRI"],
                                   "ITALY": ["A VEN"], "ENGLAND": ["F LON"], "FRANCE": ["A PAR"],
                                   "RUSSIA": ["A MOS"], "TURKEY": ["A CON"]})
    with door(gm, "g", poll=600) as ports:  # the door looks only when its bot acts
        bot = sit("127.0.0.1", ports["g"], f"Kaiser {creds['GERMANY']}")
        bot.expect("NOW")
        bot.send("SUB ((GER AMY MUN) MTO TYR) ((GER AMY BOH) SUP (GER AMY MUN) MTO TYR)")
        bot.expect("MIS")
        settled(bot)
        gm.deadlines.process("g", force=True)  # Tyrolia's army is dislodged ...
        gm.orders.submit_orders("g", "AUSTRIA", "A Tyr - Pie", credential=creds["AUSTRIA"])  # ... and retreats at once
        assert str(gm.games.game("g").phase) == "F1901M"
        bot.send("GOF")  # the door looks: both turns were settled since
        bot.expect("YES")
        told = told_until(bot, "TME")
        assert kinds(told) == ["ORD", "SCO", "NOW", "ORD", "SCO", "NOW", "TME"]
        assert "ORD (SPR 1901) ((AUS AMY TYR) HLD) (SUC RET)" in told
        assert [m for m in told if m.startswith("NOW")][0].startswith("NOW (SUM 1901)")
        assert "ORD (SUM 1901) ((AUS AMY TYR) RTO PIE) (SUC)" in told
        assert told[-2].startswith("NOW (FAL 1901)")


def test_a_build_refused_in_a_set_that_completes_the_turn_is_answered_as_any(gm):
    centres = {**HOMES, "ENGLAND": ["LON", "EDI", "LVP", "NWY"]}
    creds = game_at(gm, "W1901A", {"ENGLAND": ["F NWY"], "FRANCE": ["A PAR", "A BRE", "A MAR"],
                                   "GERMANY": ["A BER", "A KIE", "A MUN"], "ITALY": ["A ROM", "A NAP", "A VEN"],
                                   "AUSTRIA": ["A VIE", "A BUD", "A TRI"], "RUSSIA": ["A MOS", "A WAR", "A SEV", "A STP"],
                                   "TURKEY": ["A CON", "A ANK", "A SMY"]}, centres)
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Builder {creds['ENGLAND']}")
        bot.expect("NOW")
        bot.send("SUB ((ENG FLT LON) BLD) ((ENG AMY YOR) BLD)")  # York is no supply centre
        assert bot.expect("THX") == "THX ((ENG FLT LON) BLD) (MBV)"
        assert bot.expect("THX") == "THX ((ENG AMY YOR) BLD) (NSC)"
        assert bot.expect("MIS").startswith("MIS")
        assert bot.expect("NOW").startswith("NOW (SPR 1902)")
        assert "REJ (SUB" not in " ".join(bot.received)
    assert "F LON" in gm.games.game("g").position.to_dict()["units"]["ENGLAND"]


def test_two_bots_proposing_the_same_draw_at_once_make_one_proposal(gm):
    creds = game_at(gm, "S1901M", {p: [f"A {HOMES[p][0]}"] for p in POWERS})
    with door(gm, "g", poll=0.05) as ports:
        bots = {}
        for power in POWERS:
            bots[power] = sit("127.0.0.1", ports["g"], f"Bot{power[:3]} {creds[power]}")
            bots[power].expect("NOW")
        first, second = bots["FRANCE"], bots["GERMANY"]
        both = [threading.Thread(target=b.send, args=("DRW",)) for b in (first, second)]
        for t in both:
            t.start()
        for t in both:
            t.join()
        assert first.expect("YES") == "YES (DRW)" and second.expect("YES") == "YES (DRW)"
        assert len(gm.press.proposals("g")) == 1
        for power in POWERS:
            if power not in ("FRANCE", "GERMANY"):
                bots[power].send("DRW")
        assert first.expect("DRW", timeout=10) == "DRW"
    assert gm.games.game("g").result.kind == "draw"


def test_the_summary_after_a_solo_names_the_bot_and_the_turn_played(gm):
    french = ["PAR", "MAR", "BRE", "SPA", "POR", "LON", "LVP", "EDI", "NWY", "SWE", "DEN", "KIE", "BER", "MUN",
              "HOL", "ROM", "NAP"]
    centres = {"FRANCE": french, "ITALY": ["VEN", "TUN"], "AUSTRIA": ["VIE", "BUD", "TRI"],
               "RUSSIA": ["MOS", "WAR", "STP", "SEV"], "TURKEY": ["CON", "SMY", "ANK"]}
    creds = game_at(gm, "F1905M", {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A RUH"], "ITALY": ["A VEN"],
                                   "AUSTRIA": ["A VIE"], "RUSSIA": ["A MOS"], "TURKEY": ["A CON"],
                                   "ENGLAND": ["F NTH"]}, centres)
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Albert {creds['FRANCE']}", "v7")
        bot.expect("NOW")
        bot.send("SUB ((FRA AMY BUR) MTO BEL) ((FRA FLT MAO) HLD)")
        bot.expect("MIS")
        settled(bot)
        gm.deadlines.process("g", force=True)
        told = told_until(bot, "SMR")
        assert kinds(told) == ["ORD", "SLO", "SMR"] and told[-2] == "SLO (FRA)"
        assert told[-1].startswith("SMR (FAL 1905) ")  # the turn played, not the one after it
        assert "(FRA ('Albert') ('v7') 18)" in told[-1] and "(AUS ('Ann') () 3)" in told[-1]


def test_the_press_level_bots_are_told_is_a_setting_of_the_game(gm):
    creds = game_at(gm, "S1901M", {p: [f"A {HOMES[p][0]}"] for p in POWERS}, daide_level=10)
    with door(gm, "g") as ports:
        bot = sit("127.0.0.1", ports["g"], f"Talker {creds['ENGLAND']}")
        assert "(LVL 10)" in bot.expect("HLO")
    with pytest.raises(GMError, match="DAIDE press level 15"):
        Settings.from_dict({"daide_level": 15})
    gm.setup.create_game("quiet", players=NAMES, settings=Settings.from_dict({"press": "full", "daide_level": 0}))
    until(lambda: gm.games.game("quiet").status == "active", what="the quiet game to start")
    created = gm.games.game("quiet")
    assert created.settings.daide_level == 0


def test_a_power_whose_only_unit_must_retreat_is_not_told_out(gm):
    creds = game_at(gm, "S1901M", {"GERMANY": ["A MUN", "A BOH"], "AUSTRIA": ["A TYR"], "ITALY": ["A VEN"],
                                   "ENGLAND": ["F LON"], "FRANCE": ["A PAR"], "RUSSIA": ["A MOS"], "TURKEY": ["A CON"]},
                    {**HOMES, "AUSTRIA": []})
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Kaiser {creds['GERMANY']}")
        bot.expect("NOW")
        bot.send("SUB ((GER AMY MUN) MTO TYR) ((GER AMY BOH) SUP (GER AMY MUN) MTO TYR)")
        bot.expect("MIS")
        settled(bot)
        gm.deadlines.process("g", force=True)  # Austria's one army is dislodged: it has no unit on the board, no centre
        assert bot.expect("NOW", timeout=10).startswith("NOW (SUM 1901)")
        gm.orders.submit_orders("g", "AUSTRIA", "A Tyr - Pie", credential=creds["AUSTRIA"])
        assert bot.expect("NOW", timeout=10).startswith("NOW (FAL 1901)")
        assert not [m for m in bot.received if m.startswith("OUT")]
