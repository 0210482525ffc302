"""A player of several powers by mail (rulebook XIV.2), over real SMTP on loopback: one credential,
one mail with orders for each power, answered for each; results with the options of each; letters
to any of them delivered. And the 1971 reading of a missed move (XIV.3) answered by mail."""

from __future__ import annotations

import re

from mailhelp import address

FOUR = {"Ann": "England", "Bob": "Austria/France", "Cat": "Germany/Turkey", "Dan": "Italy/Russia"}


def test_one_credential_orders_and_reads_for_both_powers_of_a_pair(mailroom):
    room = mailroom
    created = room.gm.setup.create_game("four", variant="standard-4", players=list(FOUR), assign=FOUR)
    room.server.dispatcher.run_once()  # the mail door knows the game from here on
    bob, ann = address("Bob"), address("Ann")
    text = room.answer(bob, f"SIGNON four {created.credentials['Bob']}\nAustria:\nA Vie-Gal\nA Bud-Ser\n"
                            "France:\nA Par-Bur\nF Bre-Mao\n")
    assert "Signed on to four" in text and "as Bob, playing Austria/France; what follows is for Austria" in text
    assert "'A Vie-Gal' read as 'A VIE - GAL'" in text and "'A Par-Bur' read as 'A PAR - BUR'" in text
    receipts = re.findall(r"Receipt: four/S1901M/([A-Z]+)/1:", text)
    assert receipts == ["AUSTRIA", "FRANCE"], text
    status = room.gm.games.game("four")
    assert {p.power for p in status.powers if p.ordered} == {"AUSTRIA", "FRANCE"}

    # A letter to France reaches the player of Austria/France, whichever power he signed on as.
    text = room.answer(ann, f"SIGNON four England {created.credentials['Ann']}\nPRESS TO France\nShall we?\nENDPRESS\n")
    assert "refused" not in text.lower(), text
    room.server.wake()
    letter = room.sink.wait(bob, "press from England")[0].text
    assert "Shall we?" in letter

    # The results carry Bob's options for each of his powers.
    room.gm.deadlines.process("four", force=True)
    room.server.wake()
    results = room.sink.wait(bob, "results of Spring 1901 movement")[0].text
    assert "Your options (Austria) in Fall 1901 movement:" in results
    assert "Your options (France) in Fall 1901 movement:" in results


def test_under_the_1971_rules_a_missed_fall_move_is_answered_by_mail(mailroom):
    room = mailroom
    created = room.gm.setup.create_game("cd", variant="standard-4", players=list(FOUR), assign=FOUR, rules="1971")
    room.server.dispatcher.run_once()
    cred = created.credentials
    room.gm.orders.submit_orders("cd", "France", "A Par-Pic\nA Mar-Spa\nF Bre-Mao", credential=cred["Bob"])
    room.gm.orders.submit_orders("cd", "England", "F Lon-Eng", credential=cred["Ann"])
    room.gm.orders.submit_orders("cd", "Germany", "A Mun-Bur", credential=cred["Cat"])
    room.gm.orders.submit_orders("cd", "Russia", "F Sev-Rum", credential=cred["Dan"])
    room.gm.deadlines.process("cd", force=True)
    room.gm.orders.submit_orders("cd", "England", "F Eng S GERMAN A Bur-Pic", credential=cred["Ann"])
    room.gm.orders.submit_orders("cd", "Germany", "A Bur-Pic", credential=cred["Cat"])
    room.gm.orders.submit_orders("cd", "Russia", "F Rum H", credential=cred["Dan"])
    room.gm.deadlines.process("cd", force=True)  # France sent nothing for the Fall: its army in Picardy is disbanded
    assert room.gm.games.game("cd").phase.title == "Winter 1901 adjustments"
    text = room.answer(address("Bob"), f"SIGNON cd France {cred['Bob']}\nBuild A Par\n")
    assert "France sent no orders for the Fall move and is in civil disorder for the season (rulebook XIV.3" in text
    assert "it raises no new units" in text
