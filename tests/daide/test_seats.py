"""How bots take seats: a player's credential given to a bot, seats the GM opens to bots, IAM, and bots
standing in for powers in civil disorder; each on the record, the same as a person's seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from daideclient import Ended, Link, sit
from doortools import door, until

from gamesmaster.gm import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def seven(gm, game="g", **settings):
    created = gm.setup.create_game(game, players=NAMES, assign=dict(zip(NAMES, POWERS)),
                             settings=Settings.from_dict({"press": "full", **settings}))
    return {p: created.credentials[n] for n, p in zip(NAMES, POWERS)}


def test_a_players_credential_given_to_a_bot(gm):
    creds = seven(gm)
    with door(gm, "g") as ports:
        bot = sit("127.0.0.1", ports["g"], f"Albert {creds['FRANCE']}")
        hello = bot.expect("HLO")
        assert hello.startswith("HLO (FRA) (") and "(LVL 8000)" in hello
        bot.expect("NOW")
        bot.send("SUB ((FRA AMY PAR) MTO BUR) ((FRA AMY MAR) MTO PIE)")
        assert bot.expect("THX") == "THX ((FRA AMY PAR) MTO BUR) (MBV)"
        assert bot.expect("THX") == "THX ((FRA AMY MAR) MTO PIE) (MBV)"
        assert bot.expect("MIS") == "MIS (FRA FLT BRE)"
        receipt = bot.expect("ADM", saying="Receipt: ").split("Receipt: ")[1].rstrip("')")
        assert gm.record.check_receipt("g", receipt, by_gm=True).ok
        # Each note from the position: not adjacent, not yours, no such unit, wrong season.
        bot.send("SUB ((FRA AMY MAR) MTO MUN) ((ENG FLT LON) HLD) ((FRA FLT PAR) HLD) ((FRA AMY PAR) RTO GAS) "
                 "((FRA FLT BRE) MTO SPA)")
        assert [bot.expect("THX") for _ in range(5)] == [
            "THX ((FRA AMY MAR) MTO MUN) (FAR)", "THX ((ENG FLT LON) HLD) (NYU)", "THX ((FRA FLT PAR) HLD) (NSU)",
            "THX ((FRA AMY PAR) RTO GAS) (NRS)", "THX ((FRA FLT BRE) MTO SPA) (FAR)"]
        on_record = gm.orders.orders_on_record("g", "FRANCE", by_gm=True)[0]
        assert on_record.orders == ("A PAR - BUR", "A MAR - PIE")  # a refused order leaves the earlier one
        assert (on_record.channel, on_record.entered_by, on_record.author) == ("daide", "Cat", "player")
        # Orders for another turn are refused, and the refusal is on the record.
        bot.send("SUB (FAL 1901) ((FRA AMY PAR) HLD)")
        assert bot.expect("REJ") == "REJ (SUB (FAL 1901) ((FRA AMY PAR) HLD))"
        bot.expect("ADM", saying="refused: these orders are for Fall 1901 movement")
        assert any(e.kind == "orders-refused" for e in gm.games.history("g").ledger)
        bot.send("NOT (SUB ((FRA AMY MAR) MTO PIE))")
        assert bot.expect("YES") == "YES (NOT (SUB ((FRA AMY MAR) MTO PIE)))"
        assert gm.orders.orders_on_record("g", "FRANCE", by_gm=True)[0].orders == ("A PAR - BUR",)
        bot.send("MIS")
        assert bot.expect("MIS") == "MIS (FRA FLT BRE) (FRA AMY MAR)"
        # The same credential on a second connection finds every one of its powers played.
        other = Link("127.0.0.1", ports["g"]).connect()
        other.send(f"NME ('Twin') ('{creds['FRANCE']}')")
        assert other.expect("REJ").startswith("REJ (NME")
        assert "already played by a connected bot" in other.expect("ADM")
        bot.send("TME")
        assert bot.expect("TME") == "TME (8191)"  # 72 hours: more than a DAIDE integer holds
    assert gm.record.verify("g").ok


def test_seats_the_gm_opens_to_bots_and_iam(gm):
    gm.setup.create_game("g", players=["Ann"], assign={"Ann": "ENGLAND"}, settings=Settings.from_dict({"press": "full"}))
    with door(gm, "g") as ports:
        port = ports["g"]
        closed = Link("127.0.0.1", port).connect()
        closed.send("NME ('Ralph') ('1')")
        assert closed.expect("REJ").startswith("REJ (NME")
        assert "ask the gamesmaster to open seats to bots" in closed.expect("ADM")
        gm.bots.open_to_bots("g", ["Italy"])
        ralph = sit("127.0.0.1", port, "Ralph")
        hello = ralph.expect("HLO")
        assert hello.startswith("HLO (ITA) (")
        passcode = int(hello.split(") (")[1])
        view = gm.games.game("g")
        assert view.power("ITALY").player == "Ralph (DAIDE bot)"
        kinds = [e.kind for e in gm.games.history("g").ledger]
        assert kinds[-3:] == ["player-joined", "player-replaced", "press"]  # the notice: Ralph now plays Italy
        late = Link("127.0.0.1", port).connect()
        late.send("NME ('Second') ('1')")
        assert late.expect("REJ").startswith("REJ (NME")
        credential = ralph.expect("ADM", saying="The credential of your seat: ").split("seat: ")[1].split()[0]
        # While Ralph's connection is alive, even the right passcode does not take the seat from it.
        thief = Link("127.0.0.1", port).connect()
        thief.send(f"IAM (ITA) ({passcode})")
        assert thief.expect("REJ").startswith("REJ (IAM")
        thief.expect("ADM", saying="IAM refused")
        # Ralph's connection drops; IAM with a wrong passcode is refused, three times and the connection is sent away.
        ralph.close()
        stranger = Link("127.0.0.1", port).connect()
        for _ in range(2):
            stranger.send(f"IAM (ITA) ({passcode % 8191 + 1})")
            assert stranger.expect("REJ").startswith("REJ (IAM")
        stranger.send(f"IAM (ITA) ({passcode % 8191 + 1})")
        assert stranger.expect("REJ").startswith("REJ (IAM")
        assert stranger.expect("OFF") == "OFF"
        back = Link("127.0.0.1", port).connect()
        back.send(f"IAM (ITA) ({passcode})")
        assert back.expect("YES") == f"YES (IAM (ITA) ({passcode}))"
        back.send("SUB ((ITA AMY VEN) HLD)")
        assert back.expect("THX") == "THX ((ITA AMY VEN) HLD) (MBV)"
        back.close()
    # After a restart the door knows no passcodes: the bot comes back with the credential it was told.
    with door(gm, "g") as ports:
        again = sit("127.0.0.1", ports["g"], f"Ralph {credential}")
        assert again.expect("HLO").startswith("HLO (ITA)")
        again.send("SUB ((ITA FLT NAP) MTO ION)")
        assert again.expect("THX") == "THX ((ITA FLT NAP) MTO ION) (MBV)"
        assert gm.orders.orders_on_record("g", "ITALY", by_gm=True)[0].orders == ("A VEN H", "F NAP - ION")
    assert gm.record.verify("g").ok


def test_a_bot_stands_in_for_a_power_in_civil_disorder(gm, clock):
    creds = seven(gm, "cd")
    gm.bots.open_to_bots("cd", [], civil_disorder=True)
    with door(gm, "cd", poll=0.05) as ports:
        spare = sit("127.0.0.1", ports["cd"], "Spare")
        spare.expect("ADM", saying="you stand by to play a power whose player misses a move")
        for power in POWERS:
            if power != "FRANCE":  # everyone orders (their units hold) but France
                gm.orders.submit_orders("cd", power, [], credential=creds[power])
        clock.advance(hours=73)
        gm.deadlines.process_due()  # the deadline worker: France sent nothing and is in civil disorder
        hello = spare.expect("HLO", timeout=10)
        assert hello.startswith("HLO (FRA)")
        assert spare.expect("NOW").startswith("NOW (FAL 1901)")
        view = gm.games.game("cd")
        assert view.power("FRANCE").standby == "Spare (DAIDE bot)" and view.power("FRANCE").player == "Cat"
        spare.send("SUB ((FRA AMY PAR) MTO BUR)")
        assert spare.expect("THX") == "THX ((FRA AMY PAR) MTO BUR) (MBV)"
        assert gm.orders.orders_on_record("cd", "FRANCE", by_gm=True)[0].author == "standby"
        clock.advance(hours=73)
        gm.deadlines.process_due()  # Cat did not come back: the bot's orders are used and the bot plays France
        until(lambda: gm.games.game("cd").power("FRANCE").player == "Spare (DAIDE bot)", what="the bot to take France over")
        # Until a replacement takes the seat.
        gm.players.replace_player("cd", "France", "Zoe", reason="a new player")
        spare.expect("ADM", timeout=10, saying="no longer plays France")
        assert spare.expect("OFF") == "OFF"
    assert gm.record.verify("cd").ok


def test_a_bot_goes_when_the_player_comes_back(sqlite_gm, clock):
    gm = sqlite_gm
    creds = seven(gm, "cd")
    gm.bots.open_to_bots("cd", [], civil_disorder=True)
    with door(gm, "cd", poll=0.05) as ports:
        spare = sit("127.0.0.1", ports["cd"], "Spare")
        spare.expect("ADM")
        for power in POWERS:
            if power != "FRANCE":
                gm.orders.submit_orders("cd", power, [], credential=creds[power])
        clock.advance(hours=73)
        gm.deadlines.process_due()
        assert spare.expect("HLO", timeout=10).startswith("HLO (FRA)")
        spare.send("SUB ((FRA AMY PAR) MTO BUR)")
        spare.expect("THX")
        gm.orders.submit_orders("cd", "France", "A Par H", credential=creds["FRANCE"])  # Cat is back in time
        clock.advance(hours=73)
        gm.deadlines.process_due()
        with pytest.raises(Ended):
            while True:
                spare.recv(10)
        assert "OFF" in spare.received
        assert gm.games.game("cd").power("FRANCE").player == "Cat"
    assert gm.record.verify("cd").ok


def test_draw_by_bots_and_people(sqlite_gm):
    gm = sqlite_gm
    creds = seven(gm)
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Drawer {creds['FRANCE']}")
        bot.expect("NOW")
        bot.send("DRW")
        assert bot.expect("YES") == "YES (DRW)"
        proposal = gm.press.proposals("g")[0]
        assert proposal.proposer == "FRANCE" and proposal.status == "open"
        for power in POWERS:
            if power != "FRANCE":
                gm.press.vote("g", proposal.id, True, credential=creds[power])
        assert bot.expect("DRW", timeout=10) == "DRW"
        summary = bot.expect("SMR")
        assert summary.startswith("SMR (SPR 1901) (AUS ('Ann') () 3)")
    assert gm.games.game("g").result.kind == "draw"


def test_history_and_time_alarms(sqlite_gm, clock):
    gm = sqlite_gm
    creds = seven(gm)
    with door(gm, "g", poll=0.05) as ports:
        bot = sit("127.0.0.1", ports["g"], f"Clock {creds['ENGLAND']}")
        bot.expect("NOW")
        gm.orders.submit_orders("g", "France", "A Par - Bur", credential=creds["FRANCE"])
        gm.deadlines.process("g", force=True)
        assert bot.expect("NOW", timeout=10).startswith("NOW (FAL 1901)")
        bot.send("HST (SPR 1901)")
        told = [bot.recv()]
        while not told[-1].startswith("NOW"):
            told.append(bot.recv())
        orders = [m for m in told if m.startswith("ORD")]
        assert len(orders) == 22 and "ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)" in orders
        assert "ORD (SPR 1901) ((RUS FLT (STP SCS)) HLD) (SUC)" in orders  # no order: the unit held
        assert told[-2].startswith("SCO") and told[-1].startswith("NOW (FAL 1901)")
        deadline = gm.games.game("g").deadline
        clock.set(deadline - timedelta(seconds=3))
        bot.send("TME (2)")
        assert bot.expect("YES") == "YES (TME (2))"
        assert bot.expect("TME", timeout=10) == "TME (2)"  # about a second later


def test_a_bot_that_comes_after_the_deadline_stands_in_at_once(sqlite_gm, clock):
    gm = sqlite_gm
    creds = seven(gm, "cd")
    gm.bots.open_to_bots("cd", [], civil_disorder=True)
    for power in POWERS:
        if power != "TURKEY":
            gm.orders.submit_orders("cd", power, [], credential=creds[power])
    clock.advance(hours=73)
    gm.deadlines.process_due()  # Turkey missed the move; no bot was there yet
    with door(gm, "cd") as ports:
        late = sit("127.0.0.1", ports["cd"], "Late")
        assert late.expect("HLO", timeout=10).startswith("HLO (TUR)")
        assert gm.games.game("cd").power("TURKEY").standby == "Late (DAIDE bot)"
    assert gm.record.verify("cd").ok


def test_a_replacement_seated_by_the_gm_sends_the_standing_bot_away(sqlite_gm, clock):
    gm = sqlite_gm
    creds = seven(gm, "cd")
    gm.bots.open_to_bots("cd", [], civil_disorder=True)
    with door(gm, "cd", poll=0.05) as ports:
        spare = sit("127.0.0.1", ports["cd"], "Spare")
        spare.expect("ADM")
        for power in POWERS:
            if power != "FRANCE":
                gm.orders.submit_orders("cd", power, [], credential=creds[power])
        clock.advance(hours=73)
        gm.deadlines.process_due()
        assert spare.expect("HLO", timeout=10).startswith("HLO (FRA)")
        gm.players.replace_player("cd", "France", "Zoe", reason="a new player")  # before the bot's orders were ever used
        spare.expect("ADM", timeout=10, saying="no longer plays France")
        assert spare.expect("OFF") == "OFF"
        view = gm.games.game("cd")
        assert view.power("FRANCE").player == "Zoe" and view.power("FRANCE").standby is None
        assert any(e.kind == "standby-released" and e.payload["reason"] == "a replacement took the seat"
                   for e in gm.games.history("cd").ledger)
    assert gm.record.verify("cd").ok
